// The mesh form of an HloInstructionProto's replica groups:
// mesh_axes_replica_group_list (93), its MeshProto (axes, device_ids) and
// the axis references that pick the grouped axes. Validated as the text
// parser validates `mesh[...]` (text/mesh_parser.cc), so the model and the
// rules see the same guarantees.
#include <string>
#include <vector>

#include "checker/hlo/group_checks.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {
namespace {

bool ReadMeshProto(WireReader& r, int wire_type, MeshSpec* mesh) {
  int saved = 0;
  if (!r.Enter("MeshAxesReplicaGroupListProto.mesh", wire_type, &saved)) {
    return false;
  }
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("MeshProto", &field, &wt)) {
    bool ok = true;
    if (field == 1) {
      int axis_saved = 0;
      if (mesh->axes.size() >= 64) {
        return r.Fail("expected a mesh of at most 64 axes");
      }
      MeshAxis& axis = mesh->axes.emplace_back();
      ok = r.Enter("a MeshAxis", wt, &axis_saved);
      uint32_t f = 0;
      int w = 0;
      while (ok && r.NextField("MeshAxis", &f, &w)) {
        if (f == 1) {
          ok = r.ReadString("MeshAxis.name", w, 256, &axis.name);
        } else if (f == 2) {
          ok = r.ReadInt64("MeshAxis.size", w, &axis.size);
        } else {
          ok = r.Skip("a MeshAxis field", w);
        }
      }
      ok = ok && r.Leave(axis_saved);
    } else if (field == 2) {
      ok = r.ReadInt64s("MeshProto.device_ids", wt, kMaxExplicitIds,
                        &mesh->device_ids, nullptr);
    } else {
      ok = r.Skip("a MeshProto field", wt);
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  return r.Leave(saved);
}

bool ReadAxisRef(WireReader& r, int wire_type, int64_t* index,
                 MeshAxisRef* ref) {
  int saved = 0;
  if (!r.Enter("an AxisRefProto", wire_type, &saved)) return false;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("AxisRefProto", &field, &wt)) {
    bool ok = true;
    if (field == 1) {
      ok = r.ReadInt64("AxisRefProto.mesh_axis_index", wt, index);
    } else if (field == 2) {
      int sub = 0;
      ok = r.Enter("AxisRefProto.sub_axis_info", wt, &sub);
      uint32_t f = 0;
      int w = 0;
      while (ok && r.NextField("SubAxis", &f, &w)) {
        if (f == 1) {
          ok = r.ReadInt64("SubAxis.pre_size", w, &ref->pre_size);
        } else if (f == 2) {
          ok = r.ReadInt64("SubAxis.size", w, &ref->size);
        } else {
          ok = r.Skip("a SubAxis field", w);
        }
      }
      ok = ok && r.Leave(sub);
    } else {
      ok = r.Skip("an AxisRefProto field", wt);
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  return r.Leave(saved);
}

// The checks the text parser makes on `mesh[...] {...}` (group_checks.h),
// each problem placed at the field; and that each grouped axis's index is
// one of the mesh's axes.
bool CheckMesh(WireReader& r, int64_t at, const std::vector<int64_t>& index,
               MeshSpec* mesh) {
  int64_t devices = 1;
  for (size_t i = 0; i < mesh->axes.size(); ++i) {
    if (const SpecCheck p = CheckMeshAxis(*mesh, i, &devices)) {
      return r.FailAt(at, p->message);
    }
  }
  if (!mesh->device_ids.empty()) {
    if (const SpecCheck p =
            CheckMeshDeviceIdCount(devices, mesh->device_ids.size())) {
      return r.FailAt(at, p->message);
    }
  }
  for (size_t k = 0; k < mesh->grouped.size(); ++k) {
    MeshAxisRef& ref = mesh->grouped[k];
    if (index[k] < 0 || index[k] >= static_cast<int64_t>(mesh->axes.size())) {
      return r.FailAt(at, fmt::format("mesh_axis_index {} is out of range; "
                                      "the mesh has {} axes",
                                      index[k], mesh->axes.size()));
    }
    const MeshAxis& axis = mesh->axes[static_cast<size_t>(index[k])];
    ref.name = axis.name;
    // No SubAxis message: the whole axis.
    const bool sub_axis = ref.pre_size != 0 || ref.size != 0;
    if (!sub_axis) ref.size = axis.size;
    if (const SpecCheck p = CheckMeshGroupedAxis(
            ref, axis, sub_axis,
            absl::Span<const MeshAxisRef>(mesh->grouped.data(), k))) {
      return r.FailAt(at, p->message);
    }
  }
  return true;
}

}  // namespace

bool ReadMeshList(WireReader& r, int wire_type, TextPos field_pos,
                  ReplicaGroups* out) {
  int saved = 0;
  if (!r.Enter("mesh_axes_replica_group_list (93)", wire_type, &saved)) {
    return false;
  }
  out->form = ReplicaGroups::Form::kMesh;
  out->pos = field_pos;
  out->mesh = MeshSpec();
  std::vector<int64_t> index;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("MeshAxesReplicaGroupListProto", &field, &wt)) {
    bool ok;
    if (field == 1) {
      ok = ReadMeshProto(r, wt, &out->mesh);
    } else if (field == 2) {
      if (out->mesh.grouped.size() >= 64) {
        return r.Fail("expected at most 64 grouped mesh axes");
      }
      index.push_back(-1);
      ok = ReadAxisRef(r, wt, &index.back(), &out->mesh.grouped.emplace_back());
    } else {
      ok = r.Skip("a MeshAxesReplicaGroupListProto field", wt);
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  if (!CheckMesh(r, field_pos.byte_offset(), index, &out->mesh)) return false;
  return r.Leave(saved);
}

}  // namespace topolint::hlo::proto
