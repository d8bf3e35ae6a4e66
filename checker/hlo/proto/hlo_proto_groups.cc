// Replica-group and pair fields of HloInstructionProto: replica_groups (49),
// collective_device_list (87, with the old nested iota at 87.2),
// iota_collective_device_list (92), source_target_pairs (52) and the
// send/recv pairs attribute (mesh_axes_replica_group_list, 93, is in
// hlo_proto_mesh.cc). Each value is validated as the text parser validates
// the same form, so the model and the rules see the same guarantees.
#include <algorithm>
#include <string>

#include "checker/hlo/group_checks.h"
#include "checker/hlo/pairs_text.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {

bool ReadReplicaGroup(WireReader& r, int wire_type, ReplicaGroups* out,
                      std::vector<TextPos>* id_pos) {
  const TextPos group_pos = r.pos();
  if (out->num_groups() >= kMaxReplicaGroups) {
    return r.Fail(
        fmt::format("expected at most {} replica groups", kMaxReplicaGroups));
  }
  if (out->form == ReplicaGroups::Form::kAbsent) out->pos = group_pos;
  out->form = ReplicaGroups::Form::kExplicit;
  std::vector<int64_t>* ids = out->MutableIds();
  std::vector<TextPos>& pos = *id_pos;  // this field's ids, kept as a layout
  auto on_field = [&](uint32_t field, int wt) {
    if (field != 1) return r.Skip("a ReplicaGroup field", wt);
    const size_t before = ids->size();
    const int64_t room = kMaxExplicitIds - out->explicit_id_count;
    const bool packed = wt == kLen;
    pos.clear();
    if (!r.ReadInt64s("ReplicaGroup.replica_ids", wt,
                      static_cast<int64_t>(before) + room, ids,
                      packed ? nullptr : &pos)) {
      return false;
    }
    if (packed) {
      // The values lie back to back and end where the reader now is.
      out->id_layout.AddPacked(static_cast<int64_t>(before),
                               absl::MakeConstSpan(*ids).subspan(before),
                               r.offset());
    } else {
      for (size_t i = before; i < ids->size(); ++i) {
        out->id_layout.Add(static_cast<int64_t>(i), (*ids)[i], pos[i - before]);
      }
    }
    out->explicit_id_count = static_cast<int64_t>(ids->size());
    return true;
  };
  if (!ReadMessage(r, "a ReplicaGroup", wire_type, "ReplicaGroup", on_field)) {
    return false;
  }
  out->EndGroup(group_pos);
  return true;
}

bool ReadDeviceList(WireReader& r, int wire_type, ReplicaGroups* out,
                    std::vector<TextPos>* id_pos) {
  out->pos = r.pos();
  auto on_field = [&](uint32_t field, int wt) {
    if (field == 1) return ReadReplicaGroup(r, wt, out, id_pos);
    if (field == 2) {  // iota_replica_group_list, before 2026-02
      return ReadIotaList(r, wt, r.pos(), out);
    }
    return r.Skip("a CollectiveDeviceListProto field", wt);
  };
  if (!ReadMessage(r, "collective_device_list (87)", wire_type,
                   "CollectiveDeviceListProto", on_field)) {
    return false;
  }
  if (out->form == ReplicaGroups::Form::kAbsent) {
    out->form = ReplicaGroups::Form::kExplicit;  // an empty list: {}
  }
  return true;
}

bool ReadIotaList(WireReader& r, int wire_type, TextPos field_pos,
                  ReplicaGroups* out) {
  IotaSpec& iota = out->iota;
  iota = IotaSpec();
  out->form = ReplicaGroups::Form::kIota;
  out->pos = field_pos;
  TextPos perm_pos = field_pos;
  auto on_field = [&](uint32_t field, int wt) {
    switch (field) {
      case 1:
        return r.ReadInt64("num_replica_groups", wt, &iota.num_groups);
      case 2:
        return r.ReadInt64("num_devices_per_group", wt, &iota.group_size);
      case 3:
        return r.ReadInt64s("iota_reshape_dims", wt, 64, &iota.reshape_dims,
                            nullptr);
      case 4:
        perm_pos = r.pos();
        return r.ReadInt64s("iota_transpose_perm", wt, 64, &iota.perm, nullptr);
      default:
        return r.Skip("an IotaReplicaGroupListProto field", wt);
    }
  };
  if (!ReadMessage(r, "an IotaReplicaGroupListProto", wire_type,
                   "IotaReplicaGroupListProto", on_field)) {
    return false;
  }
  const int64_t at = field_pos.byte_offset();
  // XLA's defaults: an absent reshape is the plain iota [G*S] (1 where G*S
  // is not a valid count, which CheckIota reports); an absent transpose the
  // identity, and [0] over one dim is none.
  if (iota.reshape_dims.empty()) {
    int64_t total = 0;
    const bool valid =
        !__builtin_mul_overflow(iota.num_groups, iota.group_size, &total) &&
        total >= 1;
    iota.reshape_dims.push_back(valid ? total : 1);
  }
  const size_t rank = iota.reshape_dims.size();
  bool perm_written = true;
  if (rank == 1) {
    if (iota.perm.empty() || (iota.perm.size() == 1 && iota.perm[0] == 0)) {
      iota.perm.clear();
      perm_written = false;
    } else if (const SpecCheck p =
                   CheckPermutation("iota transpose", iota.perm, 1)) {
      return r.FailAt(perm_pos.byte_offset(), p->message);
    }
  } else if (iota.perm.empty()) {
    for (size_t i = 0; i < rank; ++i) {
      iota.perm.push_back(static_cast<int64_t>(i));
    }
  }
  // The text parser's checks and messages (group_checks.h), placed at the
  // field, or at the transpose for its problems.
  if (const SpecCheck p = CheckIota(iota, perm_written)) {
    const bool perm = p->where == SpecProblem::Where::kPerm ||
                      p->where == SpecProblem::Where::kPermEntry;
    return r.FailAt(perm ? perm_pos.byte_offset() : at, p->message);
  }
  return true;
}

bool ReadSourceTarget(WireReader& r, int wire_type, SourceTargetPairs* out) {
  const TextPos pair_pos = r.pos();
  if (static_cast<int64_t>(out->pairs.size()) * 2 >= kMaxExplicitIds) {
    return r.Fail(fmt::format("expected at most {} source_target_pairs ids",
                              kMaxExplicitIds));
  }
  int64_t source = 0;
  int64_t target = 0;
  auto on_field = [&](uint32_t field, int wt) {
    if (field == 1) return r.ReadInt64("SourceTarget.source", wt, &source);
    if (field == 2) return r.ReadInt64("SourceTarget.target", wt, &target);
    return r.Skip("a SourceTarget field", wt);
  };
  if (!ReadMessage(r, "a SourceTarget", wire_type, "SourceTarget", on_field)) {
    return false;
  }
  out->pairs.emplace_back(source, target);
  out->pair_pos.push_back(pair_pos);
  return true;
}

bool ReadPairsAttribute(WireReader& r, const std::string& text, TextPos pos,
                        SourceTargetPairs* out) {
  out->present = true;
  out->pos = pos;
  out->pairs.clear();
  out->pair_pos.clear();
  std::vector<size_t> offsets;
  if (const std::optional<PairsTextProblem> p =
          ParsePairsText(text, kSendRecvPairs, out, &offsets)) {
    return r.FailAt(pos.byte_offset(),
                    fmt::format("{} (at character {} of the frontend "
                                "attribute value)",
                                p->message, p->offset + 1));
  }
  out->pair_pos.assign(out->pairs.size(), pos);
  return true;
}

}  // namespace topolint::hlo::proto
