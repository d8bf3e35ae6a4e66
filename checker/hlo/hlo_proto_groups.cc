// Replica-group and pair fields of HloInstructionProto: replica_groups (49),
// collective_device_list (87, with the old nested iota at 87.2),
// iota_collective_device_list (92), mesh_axes_replica_group_list (93),
// source_target_pairs (52) and the send/recv pairs attribute. Each value
// is validated as the text parser validates the same form, so the model
// and the rules see the same guarantees.
#include <cctype>
#include <string>

#include "absl/strings/str_join.h"
#include "checker/hlo/group_list_parser.h"
#include "checker/hlo/hlo_parser.h"
#include "checker/hlo/hlo_proto_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {
namespace {

bool CheckPerm(WireReader& r, TextPos at, const std::vector<int64_t>& perm,
               size_t rank, const char* what) {
  std::vector<bool> seen(rank, false);
  bool ok = perm.size() == rank;
  for (int64_t p : perm) {
    if (!ok || p < 0 || p >= static_cast<int64_t>(rank) ||
        seen[static_cast<size_t>(p)]) {
      ok = false;
      break;
    }
    seen[static_cast<size_t>(p)] = true;
  }
  if (ok) return true;
  return r.FailAt(
      at.byte_offset(),
      fmt::format("{} ({}) is not a permutation of 0..{}", what,
                  absl::StrJoin(perm, ","), static_cast<int64_t>(rank) - 1));
}

}  // namespace

bool ReadReplicaGroup(WireReader& r, int wire_type, ReplicaGroups* out) {
  const TextPos group_pos = r.pos();
  if (out->num_groups() >= kMaxReplicaGroups) {
    return r.Fail(
        fmt::format("expected at most {} replica groups", kMaxReplicaGroups));
  }
  int saved = 0;
  if (!r.Enter("a ReplicaGroup", wire_type, &saved)) return false;
  if (out->form == ReplicaGroups::Form::kAbsent) out->pos = group_pos;
  out->form = ReplicaGroups::Form::kExplicit;
  std::vector<int64_t>* ids = out->MutableIds();
  std::vector<TextPos> pos;  // of this field's ids, kept as a layout
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("ReplicaGroup", &field, &wt)) {
    if (field != 1) {
      if (!r.Skip("a ReplicaGroup field", wt)) return false;
      continue;
    }
    const size_t before = ids->size();
    const int64_t room = kMaxExplicitIds - out->explicit_id_count;
    pos.clear();
    if (!r.ReadInt64s("ReplicaGroup.replica_ids", wt,
                      static_cast<int64_t>(before) + room, ids, &pos)) {
      return false;
    }
    for (size_t i = before; i < ids->size(); ++i) {
      out->id_layout.Add(static_cast<int64_t>(i), (*ids)[i], pos[i - before]);
    }
    out->explicit_id_count = static_cast<int64_t>(ids->size());
  }
  out->EndGroup(group_pos);
  return r.Leave(saved);
}

bool ReadDeviceList(WireReader& r, int wire_type, ReplicaGroups* out) {
  const TextPos at = r.pos();
  int saved = 0;
  if (!r.Enter("collective_device_list (87)", wire_type, &saved)) {
    return false;
  }
  out->pos = at;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("CollectiveDeviceListProto", &field, &wt)) {
    bool ok;
    if (field == 1) {
      ok = ReadReplicaGroup(r, wt, out);
    } else if (field == 2) {  // iota_replica_group_list, before 2026-02
      ok = ReadIotaList(r, wt, r.pos(), out);
    } else {
      ok = r.Skip("a CollectiveDeviceListProto field", wt);
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  if (out->form == ReplicaGroups::Form::kAbsent) {
    out->form = ReplicaGroups::Form::kExplicit;  // an empty list: {}
  }
  return r.Leave(saved);
}

bool ReadIotaList(WireReader& r, int wire_type, TextPos field_pos,
                  ReplicaGroups* out) {
  int saved = 0;
  if (!r.Enter("an IotaReplicaGroupListProto", wire_type, &saved)) {
    return false;
  }
  IotaSpec& iota = out->iota;
  iota = IotaSpec();
  out->form = ReplicaGroups::Form::kIota;
  out->pos = field_pos;
  TextPos perm_pos = field_pos;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("IotaReplicaGroupListProto", &field, &wt)) {
    bool ok;
    if (field == 1) {
      ok = r.ReadInt64("num_replica_groups", wt, &iota.num_groups);
    } else if (field == 2) {
      ok = r.ReadInt64("num_devices_per_group", wt, &iota.group_size);
    } else if (field == 3) {
      ok = r.ReadInt64s("iota_reshape_dims", wt, 64, &iota.reshape_dims,
                        nullptr);
    } else if (field == 4) {
      perm_pos = r.pos();
      ok = r.ReadInt64s("iota_transpose_perm", wt, 64, &iota.perm, nullptr);
    } else {
      ok = r.Skip("an IotaReplicaGroupListProto field", wt);
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  const int64_t at = field_pos.byte_offset();
  if (iota.num_groups < 1 || iota.group_size < 1) {
    return r.FailAt(at, fmt::format("iota num_groups and group_size must be "
                                    "positive, found [{},{}]",
                                    iota.num_groups, iota.group_size));
  }
  int64_t total = 0;
  if (__builtin_mul_overflow(iota.num_groups, iota.group_size, &total) ||
      total > kMaxExpandedIds) {
    return r.FailAt(
        at, fmt::format("iota replica_groups [{},{}] expand to "
                        "more than the limit of {} ids",
                        iota.num_groups, iota.group_size, kMaxExpandedIds));
  }
  // An absent reshape is the plain iota [G*S]; an absent transpose the
  // identity (XLA's defaults).
  if (iota.reshape_dims.empty()) iota.reshape_dims.push_back(total);
  for (size_t i = 0; i < iota.reshape_dims.size(); ++i) {
    if (iota.reshape_dims[i] < 1) {
      return r.FailAt(at, fmt::format("iota reshape dim {} must be positive, "
                                      "found {}",
                                      i, iota.reshape_dims[i]));
    }
  }
  int64_t held = 0;
  if (!CheckedProduct(iota.reshape_dims, &held) || held != total) {
    return r.FailAt(at, fmt::format("iota replica_groups [{},{}] hold {} ids "
                                    "but the reshape dims [{}] do not; "
                                    "expected the same number",
                                    iota.num_groups, iota.group_size, total,
                                    absl::StrJoin(iota.reshape_dims, ",")));
  }
  const size_t rank = iota.reshape_dims.size();
  if (rank == 1) {
    if (!iota.perm.empty() && !(iota.perm.size() == 1 && iota.perm[0] == 0)) {
      return CheckPerm(r, perm_pos, iota.perm, 1, "iota transpose");
    }
    iota.perm.clear();
  } else {
    if (iota.perm.empty()) {
      for (size_t i = 0; i < rank; ++i) {
        iota.perm.push_back(static_cast<int64_t>(i));
      }
    }
    if (!CheckPerm(r, perm_pos, iota.perm, rank, "iota transpose")) {
      return false;
    }
  }
  return r.Leave(saved);
}

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

// The checks the text parser makes on `mesh[...] {...}`.
bool CheckMesh(WireReader& r, int64_t at, const std::vector<int64_t>& index,
               MeshSpec* mesh) {
  int64_t devices = 1;
  for (size_t i = 0; i < mesh->axes.size(); ++i) {
    const MeshAxis& a = mesh->axes[i];
    if (a.size < 1) {
      return r.FailAt(at, fmt::format("mesh axis '{}' must have a positive "
                                      "size, found {}",
                                      a.name, a.size));
    }
    for (size_t j = 0; j < i; ++j) {
      if (mesh->axes[j].name == a.name) {
        return r.FailAt(
            at, fmt::format("mesh axis '{}' is declared twice", a.name));
      }
    }
    if (__builtin_mul_overflow(devices, a.size, &devices) ||
        devices > kMaxExpandedIds) {
      return r.FailAt(at, fmt::format("mesh has more devices than the limit "
                                      "of {}",
                                      kMaxExpandedIds));
    }
  }
  if (!mesh->device_ids.empty() &&
      static_cast<int64_t>(mesh->device_ids.size()) != devices) {
    return r.FailAt(at, fmt::format("mesh has {} devices but device_ids "
                                    "lists {}",
                                    devices, mesh->device_ids.size()));
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
    if (ref.pre_size == 0 && ref.size == 0) {
      ref.size = axis.size;
    } else {
      int64_t span = 0;
      if (ref.pre_size < 1 || ref.size < 2 ||
          __builtin_mul_overflow(ref.pre_size, ref.size, &span) ||
          axis.size % span != 0 || ref.size >= axis.size) {
        return r.FailAt(at, fmt::format("sub-axis '{}':({}){} does not divide "
                                        "mesh axis '{}' of size {}",
                                        ref.name, ref.pre_size, ref.size,
                                        axis.name, axis.size));
      }
    }
    for (size_t j = 0; j < k; ++j) {
      const MeshAxisRef& other = mesh->grouped[j];
      if (other.name != ref.name) continue;
      bool overlap = ref.pre_size == 0 || other.pre_size == 0 ||
                     (ref.pre_size * ref.size > other.pre_size &&
                      other.pre_size * other.size > ref.pre_size);
      if (overlap) {
        return r.FailAt(
            at, fmt::format("mesh axis '{}' is grouped twice", ref.name));
      }
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

bool ReadSourceTarget(WireReader& r, int wire_type, SourceTargetPairs* out) {
  const TextPos pair_pos = r.pos();
  if (static_cast<int64_t>(out->pairs.size()) * 2 >= kMaxExplicitIds) {
    return r.Fail(fmt::format("expected at most {} source_target_pairs ids",
                              kMaxExplicitIds));
  }
  int saved = 0;
  if (!r.Enter("a SourceTarget", wire_type, &saved)) return false;
  int64_t source = 0;
  int64_t target = 0;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("SourceTarget", &field, &wt)) {
    bool ok;
    if (field == 1) {
      ok = r.ReadInt64("SourceTarget.source", wt, &source);
    } else if (field == 2) {
      ok = r.ReadInt64("SourceTarget.target", wt, &target);
    } else {
      ok = r.Skip("a SourceTarget field", wt);
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  out->pairs.emplace_back(source, target);
  out->pair_pos.push_back(pair_pos);
  return r.Leave(saved);
}

bool ParsePairsText(WireReader& r, const std::string& text, TextPos pos,
                    SourceTargetPairs* out) {
  // {{a,b},{c,d},...}: integers, braces, commas and blanks only.
  auto fail = [&](size_t i, const char* expected) {
    return r.FailAt(
        pos.byte_offset(),
        fmt::format("expected {} at character {} of the {} "
                    "frontend attribute value",
                    expected, i + 1, "_xla_send_recv_source_target_pairs"));
  };
  size_t i = 0;
  auto blanks = [&]() {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
  };
  auto number = [&](int64_t* v) {
    blanks();
    const size_t start = i;
    bool neg = i < text.size() && text[i] == '-';
    if (neg) ++i;
    int64_t n = 0;
    while (i < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (__builtin_mul_overflow(n, 10, &n) ||
          __builtin_add_overflow(n, text[i] - '0', &n)) {
        return false;
      }
      ++i;
    }
    *v = neg ? -n : n;
    return i > start + (neg ? 1 : 0);
  };
  out->present = true;
  out->pos = pos;
  out->pairs.clear();
  out->pair_pos.clear();
  blanks();
  if (i >= text.size() || text[i] != '{') return fail(i, "'{'");
  ++i;
  blanks();
  if (i < text.size() && text[i] == '}') return true;
  for (;;) {
    blanks();
    if (i >= text.size() || text[i] != '{')
      return fail(i, "'{' to start a pair");
    ++i;
    int64_t a = 0;
    int64_t b = 0;
    if (!number(&a)) return fail(i, "an integer source");
    blanks();
    if (i >= text.size() || text[i] != ',') return fail(i, "','");
    ++i;
    if (!number(&b)) return fail(i, "an integer target");
    blanks();
    if (i >= text.size() || text[i] != '}') return fail(i, "'}' to end a pair");
    ++i;
    if (static_cast<int64_t>(out->pairs.size()) * 2 >= kMaxExplicitIds) {
      return fail(i, "fewer pairs");
    }
    out->pairs.emplace_back(a, b);
    out->pair_pos.push_back(pos);
    blanks();
    if (i < text.size() && text[i] == ',') {
      ++i;
      continue;
    }
    if (i < text.size() && text[i] == '}') return true;
    return fail(i, "',' or '}'");
  }
}

void DescribeGroups(ReplicaGroups* rg) {
  std::string& t = rg->text;
  t.clear();
  switch (rg->form) {
    case ReplicaGroups::Form::kAbsent:
      return;
    case ReplicaGroups::Form::kExplicit:
      t = "{";
      for (int64_t g = 0; g < rg->num_groups() && t.size() < 256; ++g) {
        if (g > 0) t += ",";
        t += "{" + absl::StrJoin(rg->group(g), ",") + "}";
      }
      t += "}";
      break;
    case ReplicaGroups::Form::kIota:
      t = fmt::format("[{},{}]<=[{}]", rg->iota.num_groups, rg->iota.group_size,
                      absl::StrJoin(rg->iota.reshape_dims, ","));
      if (!rg->iota.perm.empty()) {
        t += "T(" + absl::StrJoin(rg->iota.perm, ",") + ")";
      }
      break;
    case ReplicaGroups::Form::kMesh: {
      std::vector<std::string> axes;
      for (const MeshAxis& a : rg->mesh.axes) {
        axes.push_back(fmt::format("'{}'={}", a.name, a.size));
      }
      std::vector<std::string> refs;
      for (const MeshAxisRef& a : rg->mesh.grouped) {
        refs.push_back(a.pre_size == 0 ? fmt::format("'{}'", a.name)
                                       : fmt::format("'{}':({}){}", a.name,
                                                     a.pre_size, a.size));
      }
      t = fmt::format("mesh[{}] {{{}}}", absl::StrJoin(axes, ","),
                      absl::StrJoin(refs, ", "));
      break;
    }
  }
  if (t.size() > 256) t.resize(256);
}

}  // namespace topolint::hlo::proto
