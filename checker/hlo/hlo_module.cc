#include "checker/hlo/hlo_module.h"

#include <algorithm>

namespace topolint::hlo {

const char* CollectiveKindName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kAllReduce:
      return "all-reduce";
    case CollectiveKind::kAllGather:
      return "all-gather";
    case CollectiveKind::kReduceScatter:
      return "reduce-scatter";
    case CollectiveKind::kAllToAll:
      return "all-to-all";
    case CollectiveKind::kRaggedAllToAll:
      return "ragged-all-to-all";
    case CollectiveKind::kCollectivePermute:
      return "collective-permute";
    case CollectiveKind::kCollectiveBroadcast:
      return "collective-broadcast";
    case CollectiveKind::kSend:
      return "send";
    case CollectiveKind::kRecv:
      return "recv";
  }
  return "collective";
}

void Shape::Clear() {
  known = false;
  is_tuple = false;
  element_type.clear();
  dims.clear();
  tuple.clear();
}

void Collective::Clear() {
  // Every field of Collective must be reset here. On the platforms topolint
  // builds for (LP64 with libstdc++) a new field changes the size and fails
  // this check until it is added below; tests/hlo/collective_clear_test.cc
  // checks the values.
  static_assert(sizeof(void*) != 8 || sizeof(std::string) != 32 ||
                    sizeof(Collective) == 872,
                "Collective changed: update Collective::Clear()");
  name.clear();
  computation.clear();
  kind = CollectiveKind::kAllReduce;
  opcode.clear();
  is_async_start = false;
  pos = TextPos();
  opcode_pos = TextPos();
  is_root = false;
  has_channel_id = false;
  channel_id = 0;
  channel_id_pos = TextPos();
  has_use_global_device_ids = false;
  use_global_device_ids = false;
  use_global_device_ids_pos = TextPos();
  replica_groups = ReplicaGroups();
  source_target_pairs.present = false;
  source_target_pairs.pos = TextPos();
  source_target_pairs.pairs.clear();
  source_target_pairs.pair_pos.clear();
  slice_sizes_count = 0;
  has_dimensions = false;
  dimensions.clear();
  dimensions_pos = TextPos();
  result_shape.Clear();
  operand_shapes.clear();
  operand_count = 0;
  to_apply.clear();
  source_file.clear();
  source_line = 0;
  op_name.clear();
}

std::string Module::LogicalLocation(int64_t offset) const {
  if (!is_binary()) return "";
  // The last span starting at or before `offset`.
  auto it = std::upper_bound(
      binary_ops.begin(), binary_ops.end(), offset,
      [](int64_t o, const BinaryOpSpan& s) { return o < s.begin; });
  if (it != binary_ops.begin()) {
    const BinaryOpSpan& s = *(it - 1);
    if (offset < s.end) {
      return "computation " + s.computation + ", op " + s.op;
    }
  }
  return name.empty() ? "" : "module " + name;
}

}  // namespace topolint::hlo
