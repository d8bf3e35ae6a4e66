// Test-side writer of binary HLO: turns a parsed text module (its
// collectives, their operand shapes and called computations) into an
// HloModuleProto, optionally wrapped (HloProto, HloSnapshot,
// HloModuleProtoWithConfig) and gzip-compressed, with protobuf's
// CodedOutputStream. Field numbers as in xla/service/hlo.proto and
// xla/xla_data.proto (see docs/rules/hlo-syntax.md). Only what the checker
// reads is written; every operand becomes a parameter of known shape.
// Given the module's text (ProtoWriteOptions::text), every instruction
// that carries a sharding is written too, in its computation and in file
// order among the collectives, with its result shape and its sharding (40;
// a domain's entry and exit as 54 / 55), read by hlo_text_shardings.h.
// (An instruction whose shape the text leaves for the parser to infer is
// written without one; its sharding is then checked against no shape.)
#ifndef TOPOLINT_TESTS_COMMON_HLO_PROTO_WRITER_H_
#define TOPOLINT_TESTS_COMMON_HLO_PROTO_WRITER_H_

#include <zlib.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/hlo/collective_opcode.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/transpose.h"
#include "tests/common/hlo_text_shardings.h"
#include "tests/common/op_sharding_writer.h"
#include "tests/common/proto_wire_writer.h"

namespace topolint::testing {

enum class ProtoWrapper { kModule, kHloProto, kSnapshot, kWithConfig };

// Which field carries explicit replica groups: 49 (legacy) or 87
// (collective_device_list). Iota lists go to 92, or to the old nested
// 87.2 when `old_nested_iota`.
struct ProtoWriteOptions {
  ProtoWrapper wrapper = ProtoWrapper::kModule;
  int explicit_groups_field = 49;
  bool old_nested_iota = false;
  bool gzip = false;
  // Source locations (metadata source_file, source_line and the column)
  // written as modern JAX writes them: OpMetadata.stack_frame_id (15)
  // naming a frame of the module's stack_frame_index (17, after the
  // computations), whose parent is one outer frame, instead of fields 3
  // and 4.
  bool stack_frames = false;
  // The module's text, when its shardings are to be written (see above);
  // it must outlive the call.
  std::string_view text;
};

namespace proto_writer {

using proto_wire::Bytes;
using proto_wire::Packed;
using proto_wire::Varint;

inline std::string StripPercent(const std::string& s) {
  return !s.empty() && s[0] == '%' ? s.substr(1) : s;
}

inline int64_t ElementTypeNumber(const std::string& name) {
  std::string type;
  for (int64_t t = 0; t < 64; ++t) {
    hlo::proto::ElementTypeName(t, &type);
    if (type == name) return t;
  }
  return 11;  // f32
}

inline std::string ShapeProto(const hlo::Shape& s) {
  std::string out;
  if (s.is_tuple) {
    Varint(&out, 2, 13);
    for (const hlo::Shape& t : s.tuple) Bytes(&out, 4, ShapeProto(t));
    return out;
  }
  Varint(&out, 2, static_cast<uint64_t>(ElementTypeNumber(s.element_type)));
  if (!s.dims.empty()) Packed(&out, 3, s.dims);
  return out;
}

inline std::string Group(const std::vector<int64_t>& ids) {
  std::string g;
  if (!ids.empty()) Packed(&g, 1, ids);
  return g;
}

inline std::string IotaProto(const hlo::IotaSpec& iota) {
  std::string out;
  Varint(&out, 1, static_cast<uint64_t>(iota.num_groups));
  Varint(&out, 2, static_cast<uint64_t>(iota.group_size));
  Packed(&out, 3, iota.reshape_dims);
  if (!iota.perm.empty()) Packed(&out, 4, iota.perm);
  return out;
}

inline std::string MeshProto(const hlo::MeshSpec& mesh) {
  std::string m;
  for (const hlo::MeshAxis& a : mesh.axes) {
    std::string axis;
    Bytes(&axis, 1, a.name);
    Varint(&axis, 2, static_cast<uint64_t>(a.size));
    Bytes(&m, 1, axis);
  }
  if (!mesh.device_ids.empty()) {
    Packed(&m, 2, mesh.device_ids);
  } else if (!mesh.device_ids_dims.empty()) {  // an iota: listed in full
    std::vector<int64_t> perm = mesh.device_ids_perm;
    for (size_t i = perm.size(); i < mesh.device_ids_dims.size(); ++i) {
      perm.push_back(static_cast<int64_t>(i));
    }
    Packed(&m, 2, hlo::TransposedIndices(mesh.device_ids_dims, perm));
  }
  std::string out;
  Bytes(&out, 1, m);
  for (const hlo::MeshAxisRef& r : mesh.grouped) {
    std::string ref;
    size_t index = 0;
    for (size_t i = 0; i < mesh.axes.size(); ++i) {
      if (mesh.axes[i].name == r.name) index = i;
    }
    Varint(&ref, 1, index);
    if (r.pre_size != 0) {
      std::string sub;
      Varint(&sub, 1, static_cast<uint64_t>(r.pre_size));
      Varint(&sub, 2, static_cast<uint64_t>(r.size));
      Bytes(&ref, 2, sub);
    }
    Bytes(&out, 2, ref);
  }
  return out;
}

inline void GroupFields(const hlo::Collective& c, const ProtoWriteOptions& o,
                        std::string* out) {
  const hlo::ReplicaGroups& rg = c.replica_groups;
  switch (rg.form) {
    case hlo::ReplicaGroups::Form::kAbsent:
      return;
    case hlo::ReplicaGroups::Form::kExplicit:
      if (o.explicit_groups_field == 49 && rg.num_groups() > 0) {
        for (const auto& g : rg.GroupVectors()) Bytes(out, 49, Group(g));
      } else {  // 87 (also for `{}`, which 49 cannot tell from absent)
        std::string list;
        for (const auto& g : rg.GroupVectors()) Bytes(&list, 1, Group(g));
        Bytes(out, 87, list);
      }
      return;
    case hlo::ReplicaGroups::Form::kIota:
      if (o.old_nested_iota) {
        std::string list;
        Bytes(&list, 2, IotaProto(rg.iota));
        Bytes(out, 87, list);
      } else {
        Bytes(out, 92, IotaProto(rg.iota));
      }
      return;
    case hlo::ReplicaGroups::Form::kMesh:
      Bytes(out, 93, MeshProto(rg.mesh));
      return;
  }
}

inline std::string Instruction(const std::string& name,
                               const std::string& opcode,
                               const hlo::Shape* shape, int64_t id) {
  std::string out;
  Bytes(&out, 1, name);
  Bytes(&out, 2, opcode);
  if (shape != nullptr && shape->known) Bytes(&out, 3, ShapeProto(*shape));
  Varint(&out, 35, static_cast<uint64_t>(id));
  return out;
}

// sharding (40), and a domain's domain_entry_sharding (54) and
// domain_exit_sharding (55).
inline void ShardingFields(const TextShardedInstruction& s, std::string* ins) {
  if (s.sharding) Bytes(ins, 40, OpShardingProto(*s.sharding));
  if (s.domain_entry) Bytes(ins, 54, OpShardingProto(*s.domain_entry));
  if (s.domain_exit) Bytes(ins, 55, OpShardingProto(*s.domain_exit));
}

// An instruction of the text that carries a sharding and is no collective
// the text front end emitted: its name, opcode, result shape and
// shardings. An opcode the reader would take for a collective (a `-done`,
// ...) is written as a copy, so that the twin holds the text's collectives
// and no others.
inline std::string ShardedInstruction(const TextShardedInstruction& s,
                                      int64_t id) {
  const std::string opcode =
      hlo::ClassifyOpcode(s.opcode).has_value() ? "copy" : s.opcode;
  std::string ins = Instruction(s.name, opcode, &s.shape, id);
  ShardingFields(s, &ins);
  return ins;
}

inline std::string Gzip(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
               Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace proto_writer

// The module's collectives as an HloModuleProto (wrapped as asked). A
// module whose header gives replica_count / num_partitions is written as
// HloModuleProtoWithConfig when the wrapper is kModule, so they survive.
inline std::string WriteHloProto(const hlo::Module& m,
                                 ProtoWriteOptions o = {}) {
  using namespace proto_writer;    // NOLINT
  std::vector<std::string> order;  // computations, in order of appearance
  // A collective (with its sharding when it has one), or an instruction
  // of the text that carries a sharding.
  struct Item {
    const hlo::Collective* c = nullptr;
    const TextShardedInstruction* sharded = nullptr;
  };
  std::map<std::string, std::vector<Item>> by_comp;
  std::map<std::string, int64_t> comp_ids;
  auto comp_id = [&](const std::string& name) {
    auto it = comp_ids.find(name);
    if (it != comp_ids.end()) return it->second;
    const int64_t id = static_cast<int64_t>(comp_ids.size()) + 1;
    comp_ids.emplace(name, id);
    return id;
  };
  const std::vector<TextShardedInstruction> sharded =
      o.text.empty() ? std::vector<TextShardedInstruction>()
                     : ShardedInstructions(o.text);
  std::vector<bool> merged(sharded.size(), false);
  auto add = [&](const std::string& comp, Item item) {
    if (by_comp.find(comp) == by_comp.end()) order.push_back(comp);
    by_comp[comp].push_back(item);
    comp_id(comp);
  };
  size_t next_sharded = 0;
  for (const hlo::Collective& c : m.collectives) {
    const std::string comp = StripPercent(c.computation);
    // The sharded instructions before it in the file.
    for (; next_sharded < sharded.size() &&
           sharded[next_sharded].line < c.pos.line;
         ++next_sharded) {
      if (!merged[next_sharded]) {
        add(sharded[next_sharded].computation,
            Item{nullptr, &sharded[next_sharded]});
      }
    }
    Item item{&c, nullptr};
    for (size_t k = next_sharded; k < sharded.size(); ++k) {
      if (!merged[k] && sharded[k].computation == comp &&
          sharded[k].name == StripPercent(c.name)) {
        item.sharded = &sharded[k];
        merged[k] = true;
        break;
      }
    }
    add(comp, item);
  }
  for (; next_sharded < sharded.size(); ++next_sharded) {
    if (!merged[next_sharded]) {
      add(sharded[next_sharded].computation,
          Item{nullptr, &sharded[next_sharded]});
    }
  }
  std::string entry = StripPercent(m.entry_computation);
  if (entry.empty()) entry = order.empty() ? "main" : order.back();
  if (by_comp.find(entry) == by_comp.end()) {
    order.push_back(entry);
    by_comp[entry];
    comp_id(entry);
  }
  std::vector<std::string> stubs;  // to_apply computations not seen
  int64_t next_id = 1;
  // o.stack_frames: StackFrameIndexProto's arrays, built as collectives
  // are written (file name 1, function names 1-2, location 1 and frame 1
  // the outer frame).
  std::map<std::string, int64_t> frame_files = {{"run.py", 1}};
  std::string frame_table;
  Bytes(&frame_table, 1, "run.py");
  Bytes(&frame_table, 2, "<module>");
  Bytes(&frame_table, 2, "step");
  std::string frame_locations;  // FileLocation messages, in order
  {
    std::string loc;
    Varint(&loc, 1, 1);
    Varint(&loc, 2, 1);
    Varint(&loc, 3, 1);
    Bytes(&frame_locations, 3, loc);
  }
  std::string frames;  // StackFrame messages, in order
  {
    std::string frame;
    Varint(&frame, 1, 1);
    Bytes(&frames, 4, frame);
  }
  int64_t frame_count = 1;
  // The frame of `c`'s location (a new one), after its file's name.
  auto frame_of = [&](const hlo::Collective& c) {
    auto it = frame_files.find(c.source_file);
    if (it == frame_files.end()) {
      it = frame_files
               .emplace(c.source_file,
                        static_cast<int64_t>(frame_files.size()) + 1)
               .first;
      Bytes(&frame_table, 1, c.source_file);
    }
    std::string loc;
    Varint(&loc, 1, static_cast<uint64_t>(it->second));
    Varint(&loc, 2, 2);
    Varint(&loc, 3, static_cast<uint64_t>(c.source_line));
    if (c.source_column > 0) {
      Varint(&loc, 4, static_cast<uint64_t>(c.source_column));
    }
    Bytes(&frame_locations, 3, loc);
    std::string frame;
    Varint(&frame, 1, static_cast<uint64_t>(++frame_count));
    Varint(&frame, 2, 1);
    Bytes(&frames, 4, frame);
    return frame_count;
  };
  std::string module;
  if (!m.name.empty()) Bytes(&module, 1, m.name);
  Bytes(&module, 2, entry);
  for (const std::string& comp : order) {
    std::string computation;
    Bytes(&computation, 1, comp);
    int64_t root = 0;
    for (const Item& item : by_comp[comp]) {
      if (item.c == nullptr) {
        Bytes(&computation, 2, ShardedInstruction(*item.sharded, next_id++));
        continue;
      }
      const hlo::Collective* c = item.c;
      std::vector<int64_t> operands;
      for (int64_t k = 0; k < c->operand_count; ++k) {
        const hlo::Shape* s = static_cast<size_t>(k) < c->operand_shapes.size()
                                  ? &c->operand_shapes[static_cast<size_t>(k)]
                                  : nullptr;
        if (s != nullptr && s->known) {
          const int64_t id = next_id++;
          Bytes(&computation, 2,
                Instruction("p" + std::to_string(id), "parameter", s, id));
          operands.push_back(id);
        } else {
          operands.push_back(1000000 + next_id++);  // unresolvable
        }
      }
      const int64_t id = next_id++;
      std::string ins =
          Instruction(StripPercent(c->name), c->opcode, &c->result_shape, id);
      if (!c->op_name.empty() || !c->source_file.empty() ||
          c->source_line != 0) {
        std::string md;
        if (!c->op_name.empty()) Bytes(&md, 2, c->op_name);
        if (o.stack_frames && !c->source_file.empty()) {
          Varint(&md, 15, static_cast<uint64_t>(frame_of(*c)));
        } else {
          if (!c->source_file.empty()) Bytes(&md, 3, c->source_file);
          if (c->source_line != 0) {
            Varint(&md, 4, static_cast<uint64_t>(c->source_line));
          }
          if (c->source_column > 0) {  // OpMetadata.source_column
            Varint(&md, 18, static_cast<uint64_t>(c->source_column));
          }
        }
        Bytes(&ins, 7, md);
      }
      if (c->has_dimensions) Packed(&ins, 14, c->dimensions);
      if (c->slice_sizes_count > 0) {  // in-place permute: flattened lists
        const hlo::Shape* in =
            c->operand_shapes.empty() ? nullptr : &c->operand_shapes.front();
        const size_t rank =
            in != nullptr && in->known && !in->is_tuple && !in->dims.empty()
                ? in->dims.size()
                : 1;
        Packed(&ins, 20,
               std::vector<int64_t>(
                   rank * static_cast<size_t>(c->slice_sizes_count), 1));
      }
      if (c->has_channel_id) {
        Varint(&ins, 26, static_cast<uint64_t>(c->channel_id));
      }
      if (!operands.empty()) Packed(&ins, 36, operands);
      if (!c->to_apply.empty()) {
        const std::string callee = StripPercent(c->to_apply);
        if (by_comp.find(callee) == by_comp.end() &&
            comp_ids.find(callee) == comp_ids.end()) {
          stubs.push_back(callee);
        }
        Packed(&ins, 38, {comp_id(callee)});
      }
      GroupFields(*c, o, &ins);
      const bool send_recv = c->kind == hlo::CollectiveKind::kSend ||
                             c->kind == hlo::CollectiveKind::kRecv;
      if (c->source_target_pairs.present && !send_recv) {
        for (const auto& [s, t] : c->source_target_pairs.pairs) {
          std::string pair;
          Varint(&pair, 1, static_cast<uint64_t>(s));
          Varint(&pair, 2, static_cast<uint64_t>(t));
          Bytes(&ins, 52, pair);
        }
      }
      if (c->source_target_pairs.present && send_recv) {
        std::string text = "{";
        for (size_t i = 0; i < c->source_target_pairs.pairs.size(); ++i) {
          const auto& [s, t] = c->source_target_pairs.pairs[i];
          text += (i > 0 ? ",{" : "{") + std::to_string(s) + "," +
                  std::to_string(t) + "}";
        }
        text += "}";
        std::string entry_msg;
        Bytes(&entry_msg, 1, "_xla_send_recv_source_target_pairs");
        Bytes(&entry_msg, 2, text);
        std::string attrs;
        Bytes(&attrs, 1, entry_msg);
        Bytes(&ins, 68, attrs);
      }
      if (c->has_use_global_device_ids) {
        Varint(&ins, 71, c->use_global_device_ids ? 1 : 0);
      }
      if (item.sharded != nullptr) ShardingFields(*item.sharded, &ins);
      Bytes(&computation, 2, ins);
      if (c->is_root) root = id;
    }
    Varint(&computation, 5, static_cast<uint64_t>(comp_id(comp)));
    if (root != 0) Varint(&computation, 6, static_cast<uint64_t>(root));
    Bytes(&module, 3, computation);
  }
  for (const std::string& stub : stubs) {
    std::string computation;
    Bytes(&computation, 1, stub);
    hlo::Shape scalar;
    scalar.known = true;
    scalar.element_type = "f32";
    const int64_t id = next_id++;
    Bytes(&computation, 2, Instruction("x", "parameter", &scalar, id));
    Varint(&computation, 5, static_cast<uint64_t>(comp_id(stub)));
    Varint(&computation, 6, static_cast<uint64_t>(id));
    Bytes(&module, 3, computation);
  }
  Varint(&module, 6, static_cast<uint64_t>(comp_id(entry)));
  if (o.stack_frames) {
    Bytes(&module, 17, frame_table + frame_locations + frames);
  }

  const bool counts =
      m.replica_count.has_value() || m.num_partitions.has_value();
  if (o.wrapper == ProtoWrapper::kModule && counts) {
    o.wrapper = ProtoWrapper::kWithConfig;
  }
  std::string out;
  switch (o.wrapper) {
    case ProtoWrapper::kModule:
      out = module;
      break;
    case ProtoWrapper::kHloProto:
      Bytes(&out, 1, module);
      break;
    case ProtoWrapper::kSnapshot: {
      std::string hlo_proto;
      Bytes(&hlo_proto, 1, module);
      Bytes(&out, 1, hlo_proto);
      Bytes(&out, 4, "neuron");  // execution_platform
      break;
    }
    case ProtoWrapper::kWithConfig: {
      std::string config;
      if (m.replica_count.has_value()) {
        Varint(&config, 4, static_cast<uint64_t>(*m.replica_count));
      }
      if (m.num_partitions.has_value()) {
        Varint(&config, 5, static_cast<uint64_t>(*m.num_partitions));
      }
      Bytes(&out, 1, module);
      Bytes(&out, 2, config);
      break;
    }
  }
  return o.gzip ? Gzip(out) : out;
}

// A module `jit_f` whose entry computation %main holds one all-reduce %ar
// with the given explicit groups: the smallest binary module for tests.
inline std::string SampleAllReduceProto(
    std::vector<std::vector<int64_t>> groups, bool gzip) {
  hlo::Module m;
  m.name = "jit_f";
  hlo::Collective c;
  c.name = "%ar";
  c.computation = "%main";
  c.opcode = "all-reduce";
  c.replica_groups.SetGroups(groups);
  m.collectives.push_back(c);
  m.entry_computation = "%main";
  ProtoWriteOptions o;
  o.gzip = gzip;
  return WriteHloProto(m, o);
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_COMMON_HLO_PROTO_WRITER_H_
