#include "checker/hlo/hlo_module.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

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

absl::Span<const int64_t> ReplicaGroups::group(int64_t g) const {
  const size_t begin = g == 0 ? 0 : static_cast<size_t>(group_ends[g - 1]);
  return ids().subspan(begin, static_cast<size_t>(group_ends[g]) - begin);
}

TextPos ReplicaGroups::IdPos(int64_t g, int64_t k) const {
  if (g < 0 || g >= num_groups() || k < 0 ||
      k >= static_cast<int64_t>(group(g).size())) {
    return TextPos();
  }
  const int64_t begin = g == 0 ? 0 : group_ends[static_cast<size_t>(g) - 1];
  return id_layout.Locate(ids(), begin + k);
}

std::vector<std::vector<int64_t>> ReplicaGroups::GroupVectors() const {
  std::vector<std::vector<int64_t>> out;
  out.reserve(group_ends.size());
  for (int64_t g = 0; g < num_groups(); ++g) {
    absl::Span<const int64_t> s = group(g);
    out.emplace_back(s.begin(), s.end());
  }
  return out;
}

void ReplicaGroups::SetGroups(const std::vector<std::vector<int64_t>>& groups) {
  form = Form::kExplicit;
  group_ends.clear();
  group_pos.clear();
  id_layout.Clear();
  std::vector<int64_t>* all = MutableIds();
  all->clear();
  for (const std::vector<int64_t>& g : groups) {
    all->insert(all->end(), g.begin(), g.end());
    EndGroup(TextPos());
  }
  explicit_id_count = static_cast<int64_t>(all->size());
}

std::vector<int64_t>* ReplicaGroups::MutableIds() {
  if (ids_ == nullptr) {
    ids_ = std::make_shared<std::vector<int64_t>>();
  } else if (ids_.use_count() > 1) {
    // Shared with a holder of SharedIds(): leave it to them.
    ids_ = std::make_shared<std::vector<int64_t>>(*ids_);
  }
  return ids_.get();
}

void ReplicaGroups::EndGroup(TextPos group_start) {
  group_ends.push_back(ids_ != nullptr ? static_cast<int64_t>(ids_->size())
                                       : 0);
  group_pos.push_back(group_start);
}

void ReplicaGroups::Clear() {
  form = Form::kAbsent;
  pos = TextPos();
  group_ends.clear();
  group_pos.clear();
  id_layout.Clear();
  if (ids_ != nullptr) {
    if (ids_.use_count() == 1) {
      ids_->clear();
    } else {
      ids_.reset();  // a holder keeps it; the next list gets its own
    }
  }
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
                    sizeof(Collective) == 928,
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
  source_column = 0;
  op_name.clear();
}

void Collective::CopyForReport(const Collective& from) {
  static_assert(sizeof(void*) != 8 || sizeof(std::string) != 32 ||
                    sizeof(Collective) == 928,
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
  replica_groups.Clear();  // drops the ids, their groups and positions
  replica_groups.form = rg.form;
  replica_groups.pos = rg.pos;
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
  source_column = from.source_column;
  op_name = from.op_name;
}

std::string ReplicaGroups::Text() const {
  if (!text.empty() || form == Form::kAbsent) return text;
  if (form == Form::kIota) {
    // As XLA prints it: [G,S]<=[dims], with T(perm) unless none was given.
    std::string t =
        absl::StrCat("[", iota.num_groups, ",", iota.group_size, "]<=[",
                     absl::StrJoin(iota.reshape_dims, ","), "]");
    if (!iota.perm.empty()) {
      absl::StrAppend(&t, "T(", absl::StrJoin(iota.perm, ","), ")");
    }
    if (t.size() > 256) t.resize(256);
    return t;
  }
  if (form == Form::kMesh) {
    std::vector<std::string> axes;
    for (const MeshAxis& a : mesh.axes) {
      axes.push_back(absl::StrCat("'", a.name, "'=", a.size));
    }
    std::vector<std::string> refs;
    for (const MeshAxisRef& a : mesh.grouped) {
      refs.push_back(a.pre_size == 0 ? absl::StrCat("'", a.name, "'")
                                     : absl::StrCat("'", a.name, "':(",
                                                    a.pre_size, ")", a.size));
    }
    std::string t = absl::StrCat("mesh[", absl::StrJoin(axes, ","), "] {",
                                 absl::StrJoin(refs, ", "), "}");
    if (t.size() > 256) t.resize(256);
    return t;
  }
  // Appended in place (no string per group), and only as far as the 256
  // characters kept.
  std::string t;
  t.reserve(300);
  t = "{";
  for (int64_t g = 0; g < num_groups() && t.size() < 256; ++g) {
    if (g > 0) t += ',';
    t += '{';
    bool first = true;
    for (int64_t id : group(g)) {
      if (!first) t += ',';
      first = false;
      absl::StrAppend(&t, id);
      if (t.size() > 256) break;
    }
    t += '}';
  }
  t += '}';
  return t;
}

std::string Module::LogicalLocation(int64_t offset) const {
  if (!is_binary()) return "";
  if (const std::optional<BinaryOpSpans::Span> s = binary_ops.Find(offset)) {
    const bool known =
        s->computation >= 0 &&
        static_cast<size_t>(s->computation) < binary_computations.size();
    return "computation %" +
           (known ? binary_computations[static_cast<size_t>(s->computation)]
                  : std::string("?")) +
           ", op " + std::string(s->op);
  }
  return name.empty() ? "" : "module " + name;
}

bool Module::AddMesh(DeviceMesh mesh) {
  if (meshes.size() >= kMaxMeshes) return false;
  int64_t devices = 1;
  for (const MeshAxis& a : mesh.axes) {
    if (a.size <= 0 || __builtin_mul_overflow(devices, a.size, &devices) ||
        devices > DeviceMesh::kMaxDevices) {
      return false;
    }
  }
  if (!mesh.device_ids.empty() &&
      static_cast<int64_t>(mesh.device_ids.size()) != devices) {
    return false;
  }
  // The explicit device lists of all meshes together stay within
  // kMaxDevices ids (512 KiB), so memory does not grow with the module.
  size_t kept_ids = mesh.device_ids.size();
  for (const DeviceMesh& m : meshes) kept_ids += m.device_ids.size();
  if (kept_ids > static_cast<size_t>(DeviceMesh::kMaxDevices)) return false;
  for (const DeviceMesh& m : meshes) {
    if (m.device_ids != mesh.device_ids || m.axes.size() != mesh.axes.size()) {
      continue;
    }
    bool same = true;
    for (size_t i = 0; i < m.axes.size() && same; ++i) {
      same = m.axes[i].name == mesh.axes[i].name &&
             m.axes[i].size == mesh.axes[i].size;
    }
    if (same) return false;
  }
  meshes.push_back(std::move(mesh));
  return true;
}

const DeviceMesh* Module::PartitionCountMesh() const {
  if (!num_partitions.has_value()) return nullptr;
  for (const DeviceMesh& m : meshes) {
    if (m.origin == DeviceMesh::Origin::kSdyMesh &&
        m.pos.line == num_partitions_pos.line &&
        m.pos.column == num_partitions_pos.column) {
      return &m;
    }
  }
  return nullptr;
}

}  // namespace topolint::hlo
