// The decoder's second stage: HloInstructionProto, ShapeProto and
// OpMetadata fields (xla/service/hlo.proto, xla/xla_data.proto), decoded
// from the instruction's bytes in memory.
#include <string>
#include <string_view>

#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {
namespace {

// HloInstructionProto field numbers (hlo_proto_internal.h).
using namespace instruction_fields;  // NOLINT(google-build-using-namespace)

// OpMetadata: op_name=2, source_file=3, source_line=4, stack_frame_id=15,
// source_column=18 (xla/xla_data.proto).
bool ReadMetadata(WireReader& r, int wire_type, InstructionScratch* s) {
  Collective* c = &s->c;
  auto on_field = [&](uint32_t field, int wt) {
    int64_t line = 0;
    switch (field) {
      case 18: {  // an int32; 0 or less is no column
        if (!r.ReadInt64("OpMetadata.source_column", wt, &line)) return false;
        const int32_t column = static_cast<int32_t>(line);
        c->source_column = column > 0 ? column : 0;
        return true;
      }
      case 15:  // an int32, as source_line
        if (!r.ReadInt64("OpMetadata.stack_frame_id", wt, &line)) return false;
        s->stack_frame_id = static_cast<int32_t>(line);
        return true;
      case 2:
        return r.ReadString("OpMetadata.op_name", wt, 256, &c->op_name);
      case 3:
        return r.ReadString("OpMetadata.source_file", wt, 4096,
                            &c->source_file);
      case 4:
        if (!r.ReadInt64("OpMetadata.source_line", wt, &line)) return false;
        c->source_line = static_cast<int32_t>(line);
        return true;
      default:
        return r.Skip("an OpMetadata field", wt);
    }
  };
  return ReadMessage(r, "metadata (7)", wire_type, "OpMetadata", on_field);
}

// One FrontendAttributes map entry (key=1, value=2); the send/recv pairs
// attribute is read.
bool ReadFrontendAttribute(WireReader& r, int wire_type,
                           InstructionScratch* s) {
  s->key.clear();
  s->value.clear();
  TextPos value_pos;
  auto on_field = [&](uint32_t field, int wt) {
    if (field == 1) {
      return r.ReadString("a frontend attribute key", wt, 256, &s->key);
    }
    if (field != 2) return r.Skip("a frontend attribute field", wt);
    value_pos = r.pos();
    return r.ReadString("a frontend attribute value", wt,
                        static_cast<size_t>(kMaxExplicitIds) * 8, &s->value);
  };
  return ReadMessage(r, "a frontend attribute", wire_type,
                     "a frontend attribute", on_field) &&
         (s->key != kSendRecvPairs ||
          ReadPairsAttribute(r, s->value, value_pos,
                             &s->c.source_target_pairs));
}

// FrontendAttributes: map<string, string> map = 1.
bool ReadFrontendAttributes(WireReader& r, int wire_type,
                            InstructionScratch* s) {
  auto on_field = [&](uint32_t field, int wt) {
    return field == 1 ? ReadFrontendAttribute(r, wt, s)
                      : r.Skip("a FrontendAttributes field", wt);
  };
  return ReadMessage(r, "frontend_attributes (68)", wire_type,
                     "FrontendAttributes", on_field);
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
  auto keep = [&](const char* name, std::string* bytes, int64_t* at) {
    if (!r.ReadString(name, wt, kMaxInstructionBytes, bytes)) return false;
    *at = r.offset() - static_cast<int64_t>(bytes->size());
    return true;
  };
  if (field == kDomainEntrySharding) {
    return keep("domain_entry_sharding (54)", &s->domain_entry,
                &s->domain_entry_at);
  }
  if (field == kDomainExitSharding) {
    return keep("domain_exit_sharding (55)", &s->domain_exit,
                &s->domain_exit_at);
  }
  return keep("sharding (40)", &s->sharding, &s->sharding_at);
}

}  // namespace

void InstructionScratch::Clear() {
  c.Clear();
  has_id = false;
  id = 0;
  operand_ids.clear();
  called_ids.clear();
  dynamic_slice_sizes = 0;
  stack_frame_id = 0;
  groups_rank = 0;
  sharding.clear();
  sharding_at = -1;
  domain_entry.clear();
  domain_exit.clear();
  domain_entry_at = -1;
  domain_exit_at = -1;
  shape_end = -1;
}

namespace {

constexpr std::string_view kElementTypeNames[] = {
    "invalid",    "pred",      "s8",       "s16", "s32",  "s64",
    "u8",         "u16",       "u32",      "u64", "f16",  "f32",
    "f64",        "tuple",     "opaque",   "c64", "bf16", "token",
    "c128",       "f8e5m2",    "f8e4m3fn", "s4",  "u4",   "f8e4m3b11fnuz",
    "f8e5m2fnuz", "f8e4m3fnuz"};

}  // namespace

void ElementTypeName(int64_t type, std::string* out) {
  if (type >= 0 && type < static_cast<int64_t>(std::size(kElementTypeNames))) {
    out->clear();
    out->append(kElementTypeNames[type]);
  } else {
    *out = fmt::format("type{}", type);
  }
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
  int64_t type = 0;
  auto on_field = [&](uint32_t field, int wt) {
    int saved = 0;
    switch (field) {
      case 2:
        return r.ReadInt64("ShapeProto.element_type", wt, &type);
      case 3:
        return r.ReadInt64s("ShapeProto.dimensions", wt, kMaxShapeDims,
                            &out->dims, nullptr);
      case 4:
        out->tuple.emplace_back();
        return r.Enter("ShapeProto.tuple_shapes", wt, &saved) &&
               ReadShape(r, depth + 1, nodes, &out->tuple.back()) &&
               r.Leave(saved);
      default:
        return r.Skip("a ShapeProto field", wt);
    }
  };
  if (!ReadFields(r, "ShapeProto", on_field)) return false;
  out->is_tuple = type == 13 || !out->tuple.empty();
  if (!out->is_tuple) ElementTypeName(type, &out->element_type);
  return true;
}

bool ReadInstruction(WireReader& r, InstructionScratch* s) {
  Collective& c = s->c;
  auto on_field = [&](uint32_t field, int wt) {
    const TextPos at = r.pos();  // the value, just after the tag
    switch (field) {
      case kName:
        return r.ReadString("HloInstructionProto.name", wt, kMaxNameBytes,
                            &c.name);
      case kOpcode:
        c.opcode_pos = at;
        return r.ReadString("HloInstructionProto.opcode", wt, 64, &c.opcode);
      case kShape: {
        c.result_shape.Clear();
        int saved = 0;
        int64_t nodes = 0;
        bool ok = r.Enter("HloInstructionProto.shape (3)", wt, &saved);
        s->shape_begin = r.offset();
        ok = ok && ReadShape(r, 0, &nodes, &c.result_shape) && r.Leave(saved);
        s->shape_end = r.offset();
        return ok;
      }
      case kMetadata:
        return ReadMetadata(r, wt, s);
      case kDimensions:
        if (!c.has_dimensions) c.dimensions_pos = at;
        c.has_dimensions = true;
        return r.ReadInt64s("dimensions (14)", wt, kMaxShapeDims, &c.dimensions,
                            nullptr);
      case kDynamicSliceSizes: {
        std::vector<int64_t> sizes;
        const bool ok = r.ReadInt64s("dynamic_slice_sizes (20)", wt,
                                     kMaxIdsPerField, &sizes, nullptr);
        s->dynamic_slice_sizes += static_cast<int64_t>(sizes.size());
        return ok;
      }
      case kChannelId:
        c.has_channel_id = true;
        c.channel_id_pos = at;
        return r.ReadInt64("channel_id (26)", wt, &c.channel_id);
      case kId:
        s->has_id = true;
        return r.ReadInt64("HloInstructionProto.id (35)", wt, &s->id);
      case kOperandIds:
        return r.ReadInt64s("operand_ids (36)", wt, kMaxIdsPerField,
                            &s->operand_ids, nullptr);
      case kCalledComputationIds:
        return r.ReadInt64s("called_computation_ids (38)", wt, kMaxIdsPerField,
                            &s->called_ids, nullptr);
      case kReplicaGroups:
        // Repeated: the first one resets the list; later ones append.
        if (s->groups_rank != 4) GroupTarget(s, 4)->pos = at;
        return ReadReplicaGroup(r, wt, &c.replica_groups, &s->id_pos,
                                s->fast_paths);
      case kSourceTargetPairs:
        if (!c.source_target_pairs.present) c.source_target_pairs.pos = at;
        c.source_target_pairs.present = true;
        if (!ReadSourceTarget(r, wt, &c.source_target_pairs, s->fast_paths)) {
          return false;
        }
        while (r.NextFieldIs(kSourceTargetPairs, kLen)) {  // the next pairs
          if (!ReadSourceTarget(r, kLen, &c.source_target_pairs,
                                s->fast_paths)) {
            return false;
          }
        }
        return true;
      case kSharding:
      case kDomainEntrySharding:
      case kDomainExitSharding:
        return ReadShardingField(r, field, wt, s);
      case kFrontendAttributes:
        return ReadFrontendAttributes(r, wt, s);
      case kUseGlobalDeviceIds: {
        c.has_use_global_device_ids = true;
        c.use_global_device_ids_pos = at;
        int64_t value = 0;
        const bool ok = r.ReadInt64("use_global_device_ids (71)", wt, &value);
        c.use_global_device_ids = value != 0;
        return ok;
      }
      case kCollectiveDeviceList:
        return ReadDeviceList(r, wt, GroupTarget(s, 1), &s->id_pos,
                              s->fast_paths);
      case kIotaCollectiveDeviceList:
        return ReadIotaList(r, wt, at, GroupTarget(s, 3));
      case kMeshAxesReplicaGroupList:
        return ReadMeshList(r, wt, at, GroupTarget(s, 2));
      default:
        return r.Skip("an HloInstructionProto field", wt);
    }
  };
  if (!ReadFields(r, "HloInstructionProto", on_field)) return false;
  // replica_groups (49) wins only when non-empty (XLA's reader order).
  if (s->groups_rank == 4 && c.replica_groups.num_groups() == 0) {
    c.replica_groups = ReplicaGroups();
    s->groups_rank = 0;
  }
  return true;
}

}  // namespace topolint::hlo::proto
