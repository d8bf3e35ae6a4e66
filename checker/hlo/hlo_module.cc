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

void IotaSpec::Clear() {
  num_groups = 0;
  group_size = 0;
  reshape_dims.clear();
  perm.clear();
}

void MeshSpec::Clear() {
  axes.clear();
  grouped.clear();
  device_ids.clear();
  device_ids_dims.clear();
  device_ids_perm.clear();
}

void ReplicaGroups::Clear() {
  form = Form::kAbsent;
  pos = TextPos();
  groups.clear();
  group_pos.clear();
  id_pos.clear();
  iota.Clear();
  mesh.Clear();
  text.clear();
  explicit_id_count = 0;
}

void SourceTargetPairs::Clear() {
  present = false;
  pos = TextPos();
  pairs.clear();
  pair_pos.clear();
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
  replica_groups.Clear();
  source_target_pairs.Clear();
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

void Collective::CopyForReport(const Collective& from) {
  static_assert(sizeof(void*) != 8 || sizeof(std::string) != 32 ||
                    sizeof(Collective) == 872,
                "Collective changed: update Collective::CopyForReport()");
  name = from.name;
  computation = from.computation;
  kind = from.kind;
  opcode = from.opcode;
  is_async_start = from.is_async_start;
  pos = from.pos;
  opcode_pos = from.opcode_pos;
  is_root = from.is_root;
  has_channel_id = from.has_channel_id;
  channel_id = from.channel_id;
  channel_id_pos = from.channel_id_pos;
  has_use_global_device_ids = from.has_use_global_device_ids;
  use_global_device_ids = from.use_global_device_ids;
  use_global_device_ids_pos = from.use_global_device_ids_pos;
  const ReplicaGroups& rg = from.replica_groups;
  replica_groups.form = rg.form;
  replica_groups.pos = rg.pos;
  replica_groups.groups.clear();
  replica_groups.group_pos.clear();
  replica_groups.id_pos.clear();
  replica_groups.iota = rg.iota;
  replica_groups.mesh = rg.mesh;  // a spec: bounded by kMaxExpandedIds
  replica_groups.text = rg.text;
  replica_groups.explicit_id_count = rg.explicit_id_count;
  source_target_pairs.present = from.source_target_pairs.present;
  source_target_pairs.pos = from.source_target_pairs.pos;
  source_target_pairs.pairs.clear();
  source_target_pairs.pair_pos.clear();
  slice_sizes_count = from.slice_sizes_count;
  has_dimensions = from.has_dimensions;
  dimensions = from.dimensions;
  dimensions_pos = from.dimensions_pos;
  result_shape = from.result_shape;
  operand_shapes.clear();
  operand_count = from.operand_count;
  to_apply = from.to_apply;
  source_file = from.source_file;
  source_line = from.source_line;
  op_name = from.op_name;
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
