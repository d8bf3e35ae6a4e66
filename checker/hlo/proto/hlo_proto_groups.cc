// Replica-group and pair fields of HloInstructionProto: replica_groups (49),
// collective_device_list (87, with the old nested iota at 87.2),
// iota_collective_device_list (92), source_target_pairs (52) and the
// send/recv pairs attribute (mesh_axes_replica_group_list, 93, is in
// hlo_proto_mesh.cc). Each value is validated as the text parser validates
// the same form, so the model and the rules see the same guarantees.
#include <algorithm>
#include <string>

#include "checker/hlo/fast_path_check.h"
#include "checker/hlo/group_checks.h"
#include "checker/hlo/pairs_text.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {

namespace {

// RE2's inconsistency check (checker/hlo/fast_path_check.h) of
// ReadPlainGroup below, which read the `size` bytes at `held` (from byte
// `at`) into the last group of `fast`: ReadReplicaGroup reads the same ids
// at the same bytes.
void CheckPlainGroup(const WireReader& r, const uint8_t* held, size_t size,
                     int64_t at, const ReplicaGroups& fast) {
  WireReader sub(held, size, at, r.depth());
  ReplicaGroups exact;
  std::vector<TextPos> id_pos;
  const int64_t g = fast.num_groups() - 1;
  bool same = ReadReplicaGroup(sub, kLen, &exact, &id_pos, false) &&
              exact.num_groups() == 1 &&
              std::equal(exact.group(0).begin(), exact.group(0).end(),
                         fast.group(g).begin(), fast.group(g).end());
  // Cursors, not IdPos per id: a list of n ids is checked in O(n).
  IdLayout::Cursor exact_at(exact.id_layout, exact.ids());
  IdLayout::Cursor fast_at(fast.id_layout, fast.ids());
  const int64_t begin =
      g == 0 ? 0 : fast.group_ends[static_cast<size_t>(g) - 1];
  for (size_t k = 0; same && k < exact.group(0).size(); ++k) {
    const int64_t i = static_cast<int64_t>(k);
    same = exact_at.At(i).byte_offset() == fast_at.At(begin + i).byte_offset();
  }
  if (!same) FastPathInconsistency("ReadPlainGroup", at, "other ids");
}

// The fast path of ReadReplicaGroup (ParseOptions::binary_fast_path): a
// ReplicaGroup held whole in the buffer whose only field is its ids,
// packed, as XLA writes it, read in place with no sub-message entered.
// False, having read nothing, on anything else or past a limit.
bool ReadPlainGroup(WireReader& r, TextPos group_pos, ReplicaGroups* out) {
  const uint8_t* p = nullptr;
  size_t n = 0;
  size_t k = 0;
  size_t len = 0;
  uint64_t packed = 0;
  size_t k2 = 0;
  if (r.depth() >= kMaxMessageDepth || !r.PeekBuffer(&p, &n) ||
      !DecodeHeldLength(p, n, &k, &len) || len < 3 || p[k] != 0x0a ||
      !DecodeVarint(p + k + 1, len - 1, &packed, &k2) || packed == 0 ||
      packed != len - 1 - k2) {
    return false;
  }
  const size_t end = k + len;
  std::vector<int64_t>* ids = out->MutableIds();
  const size_t before = ids->size();
  const size_t room =
      static_cast<size_t>(kMaxExplicitIds - out->explicit_id_count);
  const uint8_t* q = p + k + 1 + k2;
  const uint8_t* const q_end = p + end;
  // At most one id per byte: within the limit, else the exact reader.
  const size_t most = static_cast<size_t>(q_end - q);
  if (most > room) return false;
  if (ids->capacity() < before + most) ids->reserve(before + most);
  while (q < q_end) {
    // Ids of one or two bytes, minimally encoded (a device id below
    // 16,384, as XLA writes it); anything else goes to the exact reader.
    if (*q < 0x80) {
      ids->push_back(*q++);
    } else if (q_end - q >= 2 && q[1] < 0x80 && q[1] != 0) {
      ids->push_back((q[0] & 0x7f) | (int64_t{q[1]} << 7));
      q += 2;
    } else {
      ids->resize(before);
      return false;
    }
  }
  if (out->form == ReplicaGroups::Form::kAbsent) out->pos = group_pos;
  out->form = ReplicaGroups::Form::kExplicit;
  const int64_t base = r.offset();
  out->id_layout.AddPacked(static_cast<int64_t>(before),
                           absl::MakeConstSpan(*ids).subspan(before),
                           base + static_cast<int64_t>(k + 1 + k2),
                           base + static_cast<int64_t>(end));
  out->explicit_id_count = static_cast<int64_t>(ids->size());
  out->EndGroup(group_pos);
  if (kCheckFastPaths) CheckPlainGroup(r, p, end, base, *out);
  return r.SkipBytes("a ReplicaGroup", static_cast<int64_t>(end));
}

// The same for a SourceTarget (fields 1 and 2 as varints, nothing else),
// and for each one that follows it back to back (its tag, 52
// length-delimited, between them), as XLA writes a collective-permute's
// pairs: all read in place and skipped in one step. A value that is not
// plain, or one past the id limit, is left for the caller (its tag too,
// if it follows one read), and so is the first, making this false.
bool ReadPlainPair(WireReader& r, SourceTargetPairs* out) {
  const uint8_t* p = nullptr;
  size_t n = 0;
  if (r.depth() >= kMaxMessageDepth || !r.PeekBuffer(&p, &n)) return false;
  const int64_t base = r.offset();
  size_t i = 0;     // the next value's length prefix
  size_t read = 0;  // the end of the last value read
  for (;;) {
    size_t k = 0;
    size_t len = 0;
    if (static_cast<int64_t>(out->pairs.size()) * 2 >= kMaxExplicitIds ||
        !DecodeHeldLength(p + i, n - i, &k, &len)) {
      break;
    }
    const size_t end = i + k + len;
    int64_t values[2] = {0, 0};
    size_t j = i + k;
    while (j < end) {
      const uint8_t tag = p[j];
      uint64_t v = 0;
      size_t kv = 0;
      if ((tag != 0x08 && tag != 0x10) ||  // field 1 or 2, varint
          !DecodeVarint(p + j + 1, end - j - 1, &v, &kv)) {
        break;
      }
      values[tag >> 4] = static_cast<int64_t>(v);
      j += 1 + kv;
    }
    if (j != end) break;
    out->pairs.emplace_back(values[0], values[1]);
    out->pair_pos.push_back(TextPos::AtByte(base + static_cast<int64_t>(i)));
    if (kCheckFastPaths) {  // RE2's inconsistency check (fast_path_check.h)
      WireReader sub(p + i, end - i, base + static_cast<int64_t>(i), r.depth());
      SourceTargetPairs exact;
      if (!ReadSourceTarget(sub, kLen, &exact, false) ||
          exact.pairs.back() != out->pairs.back()) {
        FastPathInconsistency("ReadPlainPair", base + static_cast<int64_t>(i),
                              "another pair");
      }
    }
    read = end;
    // The next value of source_target_pairs (52) right after it?
    if (n - end < 2 || p[end] != 0xa2 || p[end + 1] != 0x03) break;
    i = end + 2;
  }
  return read > 0 && r.SkipBytes("a SourceTarget", static_cast<int64_t>(read));
}

}  // namespace

bool ReadReplicaGroup(WireReader& r, int wire_type, ReplicaGroups* out,
                      std::vector<TextPos>* id_pos, bool fast) {
  const TextPos group_pos = r.pos();
  if (out->num_groups() >= kMaxReplicaGroups) {
    return r.Fail(
        fmt::format("expected at most {} replica groups", kMaxReplicaGroups));
  }
  if (fast && wire_type == kLen && ReadPlainGroup(r, group_pos, out)) {
    return true;
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
                    std::vector<TextPos>* id_pos, bool fast) {
  out->pos = r.pos();
  auto on_field = [&](uint32_t field, int wt) {
    if (field == 1) return ReadReplicaGroup(r, wt, out, id_pos, fast);
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

bool ReadSourceTarget(WireReader& r, int wire_type, SourceTargetPairs* out,
                      bool fast) {
  const TextPos pair_pos = r.pos();
  if (static_cast<int64_t>(out->pairs.size()) * 2 >= kMaxExplicitIds) {
    return r.Fail(fmt::format("expected at most {} source_target_pairs ids",
                              kMaxExplicitIds));
  }
  if (fast && wire_type == kLen && ReadPlainPair(r, out)) {
    return true;
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
