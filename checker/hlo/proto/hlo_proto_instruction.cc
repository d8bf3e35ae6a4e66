// The decoder's second stage: HloInstructionProto, ShapeProto and
// OpMetadata fields (xla/service/hlo.proto, xla/xla_data.proto), decoded
// from the instruction's bytes in memory.
#include <string>

#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {
namespace {

// HloInstructionProto field numbers (hlo_proto_internal.h).
using namespace instruction_fields;  // NOLINT(google-build-using-namespace)

// OpMetadata: op_name=2, source_file=3, source_line=4.
bool ReadMetadata(WireReader& r, int wire_type, Collective* c) {
  int saved = 0;
  if (!r.Enter("metadata (7)", wire_type, &saved)) return false;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("OpMetadata", &field, &wt)) {
    bool ok;
    if (field == 2) {
      ok = r.ReadString("OpMetadata.op_name", wt, 256, &c->op_name);
    } else if (field == 3) {
      ok = r.ReadString("OpMetadata.source_file", wt, 4096, &c->source_file);
    } else if (field == 4) {
      int64_t line = 0;
      ok = r.ReadInt64("OpMetadata.source_line", wt, &line);
      c->source_line = static_cast<int32_t>(line);
    } else {
      ok = r.Skip("an OpMetadata field", wt);
    }
    if (!ok) return false;
  }
  return r.Leave(saved);
}

// FrontendAttributes: map<string, string> map = 1 (entries key=1, value=2).
bool ReadFrontendAttributes(WireReader& r, int wire_type,
                            InstructionScratch* s) {
  int saved = 0;
  if (!r.Enter("frontend_attributes (68)", wire_type, &saved)) return false;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("FrontendAttributes", &field, &wt)) {
    if (field != 1) {
      if (!r.Skip("a FrontendAttributes field", wt)) return false;
      continue;
    }
    int entry = 0;
    if (!r.Enter("a frontend attribute", wt, &entry)) return false;
    s->key.clear();
    s->value.clear();
    TextPos value_pos;
    uint32_t f = 0;
    int w = 0;
    while (r.NextField("a frontend attribute", &f, &w)) {
      bool ok;
      if (f == 1) {
        ok = r.ReadString("a frontend attribute key", w, 256, &s->key);
      } else if (f == 2) {
        value_pos = r.pos();
        ok = r.ReadString("a frontend attribute value", w,
                          static_cast<size_t>(kMaxExplicitIds) * 8, &s->value);
      } else {
        ok = r.Skip("a frontend attribute field", w);
      }
      if (!ok) return false;
    }
    if (!r.Leave(entry)) return false;
    if (s->key == kSendRecvPairs &&
        !ReadPairsAttribute(r, s->value, value_pos,
                            &s->c.source_target_pairs)) {
      return false;
    }
  }
  return r.Leave(saved);
}

// Keeps the group field of the highest rank (see InstructionScratch).
// (Cleared, not replaced: the lists keep their storage from one
// collective to the next.)
ReplicaGroups* GroupTarget(InstructionScratch* s, int rank) {
  if (rank >= s->groups_rank) {
    s->c.replica_groups.Clear();
    s->groups_rank = rank;
    return &s->c.replica_groups;
  }
  s->discarded.Clear();
  return &s->discarded;
}

// sharding (40), domain_entry_sharding (54), domain_exit_sharding (55):
// their bytes and offset, for the OpSharding decoder (the last one wins).
// One of another wire type is skipped, as XLA's reader fails on it.
bool ReadShardingField(WireReader& r, uint32_t field, int wt,
                       InstructionScratch* s) {
  if (wt != kLen) return r.Skip("an HloInstructionProto field", wt);
  std::string* bytes = &s->sharding;
  int64_t* at = &s->sharding_at;
  const char* name = "sharding (40)";
  if (field == kDomainEntrySharding) {
    bytes = &s->domain_entry;
    at = &s->domain_entry_at;
    name = "domain_entry_sharding (54)";
  } else if (field == kDomainExitSharding) {
    bytes = &s->domain_exit;
    at = &s->domain_exit_at;
    name = "domain_exit_sharding (55)";
  }
  if (!r.ReadString(name, wt, kMaxInstructionBytes, bytes)) return false;
  *at = r.offset() - static_cast<int64_t>(bytes->size());
  return true;
}

}  // namespace

void InstructionScratch::Clear() {
  c.Clear();
  has_id = false;
  id = 0;
  operand_ids.clear();
  called_ids.clear();
  dynamic_slice_sizes = 0;
  groups_rank = 0;
  sharding.clear();
  sharding_at = -1;
  domain_entry.clear();
  domain_exit.clear();
  domain_entry_at = -1;
  domain_exit_at = -1;
  shape_end = -1;
}

std::string ElementTypeName(int64_t type) {
  static constexpr const char* kNames[] = {
      "invalid",    "pred",      "s8",       "s16", "s32",  "s64",
      "u8",         "u16",       "u32",      "u64", "f16",  "f32",
      "f64",        "tuple",     "opaque",   "c64", "bf16", "token",
      "c128",       "f8e5m2",    "f8e4m3fn", "s4",  "u4",   "f8e4m3b11fnuz",
      "f8e5m2fnuz", "f8e4m3fnuz"};
  if (type >= 0 && type < static_cast<int64_t>(std::size(kNames))) {
    return kNames[type];
  }
  return fmt::format("type{}", type);
}

bool ReadShape(WireReader& r, int depth, int64_t* nodes, Shape* out) {
  if (depth > kMaxShapeDepth) {
    return r.Fail(fmt::format("expected tuple shapes nested at most {} deep",
                              kMaxShapeDepth));
  }
  if (++*nodes > kMaxShapeNodes) {
    return r.Fail(fmt::format("expected a shape of at most {} tuple elements",
                              kMaxShapeNodes));
  }
  out->known = true;
  uint32_t field = 0;
  int wt = 0;
  int64_t type = 0;
  while (r.NextField("ShapeProto", &field, &wt)) {
    bool ok;
    if (field == 2) {
      ok = r.ReadInt64("ShapeProto.element_type", wt, &type);
    } else if (field == 3) {
      ok = r.ReadInt64s("ShapeProto.dimensions", wt, kMaxShapeDims, &out->dims,
                        nullptr);
    } else if (field == 4) {
      int saved = 0;
      out->tuple.emplace_back();
      ok = r.Enter("ShapeProto.tuple_shapes", wt, &saved) &&
           ReadShape(r, depth + 1, nodes, &out->tuple.back()) && r.Leave(saved);
    } else {
      ok = r.Skip("a ShapeProto field", wt);
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  out->is_tuple = type == 13 || !out->tuple.empty();
  if (!out->is_tuple) out->element_type = ElementTypeName(type);
  return true;
}

bool ReadInstruction(WireReader& r, InstructionScratch* s) {
  Collective& c = s->c;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("HloInstructionProto", &field, &wt)) {
    const TextPos at = r.pos();  // the value, just after the tag
    bool ok = true;
    switch (field) {
      case kName:
        ok = r.ReadString("HloInstructionProto.name", wt, kMaxNameBytes,
                          &c.name);
        break;
      case kOpcode:
        c.opcode_pos = at;
        ok = r.ReadString("HloInstructionProto.opcode", wt, 64, &c.opcode);
        break;
      case kShape: {
        c.result_shape.Clear();
        int saved = 0;
        int64_t nodes = 0;
        ok = r.Enter("HloInstructionProto.shape (3)", wt, &saved);
        s->shape_begin = r.offset();
        ok = ok && ReadShape(r, 0, &nodes, &c.result_shape) && r.Leave(saved);
        s->shape_end = r.offset();
        break;
      }
      case kMetadata:
        ok = ReadMetadata(r, wt, &c);
        break;
      case kDimensions:
        if (!c.has_dimensions) c.dimensions_pos = at;
        c.has_dimensions = true;
        ok = r.ReadInt64s("dimensions (14)", wt, kMaxShapeDims, &c.dimensions,
                          nullptr);
        break;
      case kDynamicSliceSizes: {
        std::vector<int64_t> sizes;
        ok = r.ReadInt64s("dynamic_slice_sizes (20)", wt, kMaxIdsPerField,
                          &sizes, nullptr);
        s->dynamic_slice_sizes += static_cast<int64_t>(sizes.size());
        break;
      }
      case kChannelId:
        c.has_channel_id = true;
        c.channel_id_pos = at;
        ok = r.ReadInt64("channel_id (26)", wt, &c.channel_id);
        break;
      case kId:
        s->has_id = true;
        ok = r.ReadInt64("HloInstructionProto.id (35)", wt, &s->id);
        break;
      case kOperandIds:
        ok = r.ReadInt64s("operand_ids (36)", wt, kMaxIdsPerField,
                          &s->operand_ids, nullptr);
        break;
      case kCalledComputationIds:
        ok = r.ReadInt64s("called_computation_ids (38)", wt, kMaxIdsPerField,
                          &s->called_ids, nullptr);
        break;
      case kReplicaGroups: {
        // Repeated: the first one resets the list; later ones append.
        if (s->groups_rank != 4) GroupTarget(s, 4)->pos = at;
        ok = ReadReplicaGroup(r, wt, &c.replica_groups, &s->id_pos,
                              s->fast_paths);
        break;
      }
      case kSourceTargetPairs:
        if (!c.source_target_pairs.present) c.source_target_pairs.pos = at;
        c.source_target_pairs.present = true;
        ok = ReadSourceTarget(r, wt, &c.source_target_pairs, s->fast_paths);
        break;
      case kSharding:
      case kDomainEntrySharding:
      case kDomainExitSharding:
        ok = ReadShardingField(r, field, wt, s);
        break;
      case kFrontendAttributes:
        ok = ReadFrontendAttributes(r, wt, s);
        break;
      case kUseGlobalDeviceIds:
        c.has_use_global_device_ids = true;
        c.use_global_device_ids_pos = at;
        ok = r.ReadBool("use_global_device_ids (71)", wt,
                        &c.use_global_device_ids);
        break;
      case kCollectiveDeviceList:
        ok =
            ReadDeviceList(r, wt, GroupTarget(s, 1), &s->id_pos, s->fast_paths);
        break;
      case kIotaCollectiveDeviceList:
        ok = ReadIotaList(r, wt, at, GroupTarget(s, 3));
        break;
      case kMeshAxesReplicaGroupList:
        ok = ReadMeshList(r, wt, at, GroupTarget(s, 2));
        break;
      default:
        ok = r.Skip("an HloInstructionProto field", wt);
        break;
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  // replica_groups (49) wins only when non-empty (XLA's reader order).
  if (s->groups_rank == 4 && c.replica_groups.num_groups() == 0) {
    c.replica_groups = ReplicaGroups();
    s->groups_rank = 0;
  }
  return true;
}

}  // namespace topolint::hlo::proto
