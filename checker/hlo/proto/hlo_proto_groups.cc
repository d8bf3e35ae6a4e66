// Replica-group and pair fields of HloInstructionProto: replica_groups (49),
// collective_device_list (87, with the old nested iota at 87.2),
// iota_collective_device_list (92), source_target_pairs (52) and the
// send/recv pairs attribute (mesh_axes_replica_group_list, 93, is in
// hlo_proto_mesh.cc). Each value is validated as the text parser validates
// the same form, so the model and the rules see the same guarantees.
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "checker/hlo/group_checks.h"
#include "checker/hlo/pairs_text.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_mem_reader.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {

template <class Reader>
bool ReadReplicaGroup(Reader& r, int wire_type, ReplicaGroups* out,
                      std::vector<TextPos>* id_pos) {
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
  std::vector<TextPos>& pos = *id_pos;  // this field's ids, kept as a layout
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField("ReplicaGroup", &field, &wt)) {
    if (field != 1) {
      if (!r.Skip("a ReplicaGroup field", wt)) return false;
      continue;
    }
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
  }
  out->EndGroup(group_pos);
  return r.Leave(saved);
}

namespace {

// Whether a run of groups goes on after `used` of the `n` bytes at `p`:
// the tag of another group field of the run follows (length-delimited:
// replica_groups 49 in two bytes, CollectiveDeviceListProto.replica_groups
// 1 in one), with a byte after it.
bool GroupRunGoesOn(GroupRun run, const uint8_t* p, size_t n, size_t used) {
  if (run == GroupRun::kDeviceList) return n - used > 1 && p[used] == 0x0a;
  return n - used > 2 && p[used] == 0x8a && p[used + 1] == 0x03;
}

// The length of the tag GroupRunGoesOn found.
size_t GroupTagBytes(GroupRun run) {
  return run == GroupRun::kDeviceList ? 1 : 2;
}

// Decodes the run of plain groups at `p` (`n` bytes held, from the first
// group's length) into `memo`; false when the first group is not plain.
// A group is plain when its only field is replica_ids, packed and not
// empty, and its ids fit the limits.
bool ParseGroupRun(GroupRun run, const uint8_t* p, size_t n, GroupsMemo* memo) {
  memo->bytes.clear();
  memo->ids.clear();
  memo->sizes.clear();
  memo->starts.clear();
  memo->id_begins.clear();
  memo->ends.clear();
  size_t i = 0;
  for (;;) {
    if (static_cast<int64_t>(memo->sizes.size()) >= kMaxReplicaGroups) break;
    size_t len = 0;
    size_t k = 0;
    if (!DecodeHeldLength(p + i, n - i, &k, &len) || len < 3) break;
    const size_t start = i;
    const size_t c = i + k;
    const size_t end = c + len;
    uint64_t packed = 0;
    size_t k2 = 0;
    if (p[c] != 0x0a ||  // replica_ids (1), length-delimited
        !DecodeVarint(p + c + 1, end - c - 1, &packed, &k2) || packed == 0 ||
        packed != end - c - 1 - k2) {
      break;
    }
    const size_t before = memo->ids.size();
    bool plain = true;
    for (size_t d = c + 1 + k2; d < end;) {
      uint64_t v = 0;
      size_t kv = 0;
      if (static_cast<int64_t>(memo->ids.size()) >= kMaxExplicitIds ||
          !DecodeVarint(p + d, end - d, &v, &kv)) {
        plain = false;
        break;
      }
      memo->ids.push_back(static_cast<int64_t>(v));
      d += kv;
    }
    if (!plain) {
      memo->ids.resize(before);
      break;
    }
    memo->sizes.push_back(static_cast<int64_t>(memo->ids.size() - before));
    memo->starts.push_back(static_cast<int64_t>(start));
    memo->id_begins.push_back(static_cast<int64_t>(c + 1 + k2));
    memo->ends.push_back(static_cast<int64_t>(end));
    i = end;
    if (!GroupRunGoesOn(run, p, n, i)) break;
    i += GroupTagBytes(run);
  }
  if (memo->sizes.empty()) return false;
  memo->bytes.assign(reinterpret_cast<const char*>(p),
                     static_cast<size_t>(memo->ends.back()));
  return true;
}

}  // namespace

template <class Reader>
bool ReadGroupRunInPlace(Reader& r, GroupRun run, ReplicaGroups* out,
                         GroupsMemo* memo) {
  const uint8_t* p = nullptr;
  size_t n = 0;
  // (ReadReplicaGroup enters each group: at the nesting limit it fails.)
  if (out->num_groups() != 0 || out->explicit_id_count != 0 ||
      r.depth() >= kMaxMessageDepth || !r.PeekBuffer(&p, &n)) {
    return false;
  }
  // (A run that goes on past the remembered one is parsed whole and
  // remembered instead: the memo would only ever recall its start.)
  const bool recalled =
      !memo->bytes.empty() && memo->bytes.size() <= n &&
      std::memcmp(p, memo->bytes.data(), memo->bytes.size()) == 0 &&
      !GroupRunGoesOn(run, p, n, memo->bytes.size());
  if (!recalled && !ParseGroupRun(run, p, n, memo)) return false;
  const int64_t base = r.offset();
  if (out->form == ReplicaGroups::Form::kAbsent) {
    out->pos = TextPos::AtByte(base);
  }
  out->form = ReplicaGroups::Form::kExplicit;
  std::vector<int64_t>* ids = out->MutableIds();
  size_t next = 0;
  for (size_t g = 0; g < memo->sizes.size(); ++g) {
    const size_t before = ids->size();
    const size_t count = static_cast<size_t>(memo->sizes[g]);
    ids->insert(ids->end(), memo->ids.begin() + static_cast<ptrdiff_t>(next),
                memo->ids.begin() + static_cast<ptrdiff_t>(next + count));
    next += count;
    out->id_layout.AddPacked(static_cast<int64_t>(before),
                             absl::MakeConstSpan(*ids).subspan(before),
                             base + memo->id_begins[g], base + memo->ends[g]);
    out->explicit_id_count = static_cast<int64_t>(ids->size());
    out->EndGroup(TextPos::AtByte(base + memo->starts[g]));
  }
  return r.SkipBytes("a ReplicaGroup",
                     static_cast<int64_t>(memo->bytes.size()));
}

template <class Reader>
bool ReadDeviceList(Reader& r, int wire_type, ReplicaGroups* out,
                    std::vector<TextPos>* id_pos, GroupsMemo* memo) {
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
      ok = (memo != nullptr && wt == kLen &&
            ReadGroupRunInPlace(r, GroupRun::kDeviceList, out, memo)) ||
           ReadReplicaGroup(r, wt, out, id_pos);
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

template <class Reader>
bool ReadIotaList(Reader& r, int wire_type, TextPos field_pos,
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
  return r.Leave(saved);
}

namespace {

// One SourceTarget message held whole in p[0, n), from its length: fields
// 1 and 2 as varints, nothing else. The bytes it takes (with the length),
// or 0 when the full reader must read it.
size_t DecodeSourceTarget(const uint8_t* p, size_t n, int64_t* source,
                          int64_t* target) {
  uint64_t len = 0;
  size_t i = 0;
  if (!DecodeVarint(p, n, &len, &i) || len > n - i) return 0;
  const size_t end = i + static_cast<size_t>(len);
  int64_t values[2] = {0, 0};
  while (i < end) {
    const uint8_t tag = p[i++];
    if (tag != 0x08 && tag != 0x10) return 0;  // field 1 or 2, varint
    uint64_t v = 0;
    size_t k = 0;
    if (!DecodeVarint(p + i, end - i, &v, &k)) return 0;
    values[tag >> 4] = static_cast<int64_t>(v);
    i += k;
  }
  *source = values[0];
  *target = values[1];
  return end;
}

// The tag of source_target_pairs (52, length-delimited) as two bytes.
constexpr uint8_t kPairTag[2] = {0xa2, 0x03};

// The pair at the reader, and the pairs that follow it in the input
// buffer (each after its own tag: XLA writes them in a row), decoded in
// place and skipped. False, having read nothing, when the first is not
// held whole or is not plain; the first that is not stops the run, for
// the caller's loop to read. A run that starts the instruction's pairs
// and has the bytes of the one `memo` holds is recalled from it (the same
// bytes decode to the same pairs), unless it goes on past them: the
// remembered run is then only its start, and the whole run is decoded and
// remembered instead, as one that differs is.
// Whether ReadSourceTargetsInPlace's run goes on after `used` bytes of
// the `n` at `p`, `pairs` read: another pair's tag follows, and there is
// room for more ids.
bool RunGoesOn(const uint8_t* p, size_t n, size_t used, size_t pairs) {
  return n - used > 2 && p[used] == kPairTag[0] && p[used + 1] == kPairTag[1] &&
         static_cast<int64_t>(pairs) * 2 < kMaxExplicitIds;
}

template <class Reader>
bool ReadSourceTargetsInPlace(Reader& r, TextPos pair_pos,
                              SourceTargetPairs* out, PairsMemo* memo) {
  const uint8_t* p = nullptr;
  size_t n = 0;
  if (r.depth() >= kMaxMessageDepth || !r.PeekBuffer(&p, &n)) return false;
  const int64_t base = r.offset();
  const bool first = out->pairs.empty();
  if (memo != nullptr && first && !memo->bytes.empty() &&
      memo->bytes.size() <= n &&
      std::memcmp(p, memo->bytes.data(), memo->bytes.size()) == 0 &&
      !RunGoesOn(p, n, memo->bytes.size(), memo->pairs.size())) {
    out->pairs = memo->pairs;
    out->pair_pos.push_back(pair_pos);
    for (size_t i = 1; i < memo->offsets.size(); ++i) {
      out->pair_pos.push_back(TextPos::AtByte(base + memo->offsets[i]));
    }
    return r.SkipBytes("a SourceTarget",
                       static_cast<int64_t>(memo->bytes.size()));
  }
  int64_t source = 0;
  int64_t target = 0;
  size_t used = DecodeSourceTarget(p, n, &source, &target);
  if (used == 0) return false;
  out->pairs.emplace_back(source, target);
  out->pair_pos.push_back(pair_pos);
  const bool remember = memo != nullptr && first;
  if (remember) {
    memo->bytes.clear();
    memo->offsets.assign(1, 0);
  }
  while (RunGoesOn(p, n, used, out->pairs.size())) {
    const size_t more =
        DecodeSourceTarget(p + used + 2, n - used - 2, &source, &target);
    if (more == 0) break;
    out->pairs.emplace_back(source, target);
    out->pair_pos.push_back(
        TextPos::AtByte(base + static_cast<int64_t>(used) + 2));
    if (remember) memo->offsets.push_back(static_cast<int64_t>(used) + 2);
    used += 2 + more;
  }
  if (remember && used <= PairsMemo::kMaxBytes) {
    memo->bytes.assign(reinterpret_cast<const char*>(p), used);
    memo->pairs = out->pairs;
  }
  return r.SkipBytes("a SourceTarget", static_cast<int64_t>(used));
}

}  // namespace

template <class Reader>
bool ReadSourceTarget(Reader& r, int wire_type, SourceTargetPairs* out,
                      PairsMemo* memo) {
  const TextPos pair_pos = r.pos();
  if (static_cast<int64_t>(out->pairs.size()) * 2 >= kMaxExplicitIds) {
    return r.Fail(fmt::format("expected at most {} source_target_pairs ids",
                              kMaxExplicitIds));
  }
  if (wire_type == kLen) {
    if (ReadSourceTargetsInPlace(r, pair_pos, out, memo)) return true;
    if (r.failed()) return false;
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

template <class Reader>
bool ReadPairsAttribute(Reader& r, const std::string& text, TextPos pos,
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

// The two wire walkers (hlo_proto_internal.h), each given every reader of
// this file.
#define TOPOLINT_GROUP_READERS(Reader)                                       \
  template bool ReadReplicaGroup<Reader>(Reader & r, int wire_type,          \
                                         ReplicaGroups* out,                 \
                                         std::vector<TextPos>* id_pos);      \
  template bool ReadGroupRunInPlace<Reader>(                                 \
      Reader & r, GroupRun run, ReplicaGroups * out, GroupsMemo * memo);     \
  template bool ReadDeviceList<Reader>(                                      \
      Reader & r, int wire_type, ReplicaGroups* out,                         \
      std::vector<TextPos>* id_pos, GroupsMemo* memo);                       \
  template bool ReadIotaList<Reader>(Reader & r, int wire_type,              \
                                     TextPos field_pos, ReplicaGroups* out); \
  template bool ReadSourceTarget<Reader>(                                    \
      Reader & r, int wire_type, SourceTargetPairs* out, PairsMemo* memo);   \
  template bool ReadPairsAttribute<Reader>(                                  \
      Reader & r, const std::string& text, TextPos pos,                      \
      SourceTargetPairs* out);
TOPOLINT_GROUP_READERS(WireReader)
TOPOLINT_GROUP_READERS(MemReader)
#undef TOPOLINT_GROUP_READERS

}  // namespace topolint::hlo::proto
