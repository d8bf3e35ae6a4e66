// The binary reader's first pass: the wrappers around the HloModuleProto
// and the module's own fields (name, entry computation, config, device
// assignment, each computation's name, id and root), every instruction
// skipped. The config comes after the computations in the wire order, but
// the second pass needs it before the first collective.
#include <algorithm>
#include <cstdint>

#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_wire.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {
namespace {

// Skips the instructions (field 2, length-delimited: tag byte 0x12) that
// follow in the input buffer and are held in it whole, in one step: the
// first pass reads only their tags and lengths. What is not such an
// instruction, or is cut by the buffer's end, is left to NextField and
// Skip, which say what is wrong with it.
bool SkipHeldInstructions(WireReader& r) {
  const uint8_t* p = nullptr;
  size_t n = 0;
  if (!r.PeekBuffer(&p, &n)) return !r.failed();
  size_t i = 0;
  while (i < n && p[i] == 0x12) {
    uint64_t len = 0;
    size_t k = 0;
    if (!DecodeVarint(p + i + 1, n - i - 1, &len, &k) || len > n - i - 1 - k) {
      break;
    }
    i += 1 + k + static_cast<size_t>(len);
  }
  return i == 0 ||
         r.SkipBytes("an HloInstructionProto", static_cast<int64_t>(i));
}

bool ReadComputationHeader(WireReader& r, int wt, Header* h) {
  if (static_cast<int64_t>(h->computations.size()) >= kMaxComputations) {
    return r.Fail(
        fmt::format("expected at most {} computations", kMaxComputations));
  }
  int saved = 0;
  if (!r.Enter("HloModuleProto.computations (3)", wt, &saved)) return false;
  ComputationInfo& c = h->computations.emplace_back();
  uint32_t field = 0;
  int w = 0;
  while (r.NextField("HloComputationProto", &field, &w)) {
    bool ok;
    if (field == 1) {
      ok = r.ReadString("HloComputationProto.name", w, kMaxNameBytes, &c.name);
    } else if (field == 5) {
      c.has_id = true;
      ok = r.ReadInt64("HloComputationProto.id", w, &c.id);
    } else if (field == 6) {
      c.has_root = true;
      ok = r.ReadInt64("HloComputationProto.root_id", w, &c.root_id);
    } else if (field == 2) {
      ok = r.Skip("an HloInstructionProto", w) && SkipHeldInstructions(r);
    } else {
      ok = r.Skip("an HloComputationProto field", w);
    }
    if (!ok) return false;
  }
  h->names.Keep(&c.name);
  return !r.failed() && r.Leave(saved);
}

// A replica or partition count, as the text header's: at least 1 (an int32
// in the proto, so -1 arrives as 2^64-1 read as int64 -1).
bool PositiveCount(WireReader& r, TextPos at, const char* what, int64_t v) {
  if (v >= 1) return true;
  return r.FailAt(
      at.byte_offset(),
      fmt::format("{} must be a positive integer, found {}", what, v));
}

bool ReadDeviceAssignment(WireReader& r, int wt, Header* h) {
  int saved = 0;
  if (!r.Enter("device_assignment (15)", wt, &saved)) return false;
  uint32_t field = 0;
  int w = 0;
  while (r.NextField("DeviceAssignmentProto", &field, &w)) {
    const TextPos at = r.pos();
    int64_t v = 0;
    bool ok;
    if (field == 1 || field == 2) {
      const char* what = field == 1 ? "DeviceAssignmentProto.replica_count"
                                    : "DeviceAssignmentProto.computation_count";
      ok = r.ReadInt64(what, w, &v) && PositiveCount(r, at, what, v);
      (field == 1 ? h->da_replicas : h->da_computations) = v;
      (field == 1 ? h->da_replicas_pos : h->da_computations_pos) = at;
    } else {
      ok = r.Skip("a DeviceAssignmentProto field", w);
    }
    if (!ok) return false;
  }
  return !r.failed() && r.Leave(saved);
}

bool ReadConfig(WireReader& r, int wt, Header* h) {
  int saved = 0;
  if (!r.Enter("HloModuleProtoWithConfig.config (2)", wt, &saved)) {
    return false;
  }
  h->saw_config = true;
  uint32_t field = 0;
  int w = 0;
  while (r.NextField("HloModuleConfigProto", &field, &w)) {
    const TextPos at = r.pos();
    int64_t v = 0;
    bool ok;
    if (field == 4) {
      ok = r.ReadInt64("HloModuleConfigProto.replica_count", w, &v) &&
           PositiveCount(r, at, "HloModuleConfigProto.replica_count", v);
      h->replica_count = v;
      h->replica_count_pos = at;
    } else if (field == 5) {
      ok = r.ReadInt64("HloModuleConfigProto.num_partitions", w, &v) &&
           PositiveCount(r, at, "HloModuleConfigProto.num_partitions", v);
      h->num_partitions = v;
      h->num_partitions_pos = at;
    } else {
      ok = r.Skip("an HloModuleConfigProto field", w);
    }
    if (!ok) return false;
  }
  return !r.failed() && r.Leave(saved);
}

// Keeps a module sharding's bytes (Header::shardings); one of another wire
// type is skipped, as every field the reader does not read.
bool ReadModuleSharding(WireReader& r, uint32_t field, int wt, Header* h) {
  if (wt != kLen || h->shardings_cut) {
    return r.Skip("an HloModuleProto field", wt);
  }
  Header::RawSharding& s = h->shardings.emplace_back();
  s.field = field;
  const size_t room = kMaxHeldShardingBytes - h->sharding_bytes;
  if (!r.ReadString("an HloModuleProto sharding", wt, room + 1, &s.bytes)) {
    return false;
  }
  s.at = r.offset() - static_cast<int64_t>(s.bytes.size());
  if (s.bytes.size() > room) {
    h->shardings.pop_back();
    h->shardings_cut = true;
  } else {
    h->sharding_bytes += s.bytes.size();
  }
  return true;
}

bool ReadModuleField(WireReader& r, uint32_t field, int wt, Header* h) {
  switch (field) {
    case 1:
      return r.ReadString("HloModuleProto.name", wt, kMaxNameBytes, &h->name);
    case 2:
      return r.ReadString("HloModuleProto.entry_computation_name", wt,
                          kMaxNameBytes, &h->entry_name);
    case 3:
      return ReadComputationHeader(r, wt, h);
    case 6:
      h->has_entry_id = true;
      return r.ReadInt64("HloModuleProto.entry_computation_id", wt,
                         &h->entry_id);
    case 15:
      return ReadDeviceAssignment(r, wt, h);
    case 12:  // spmd_output_sharding
    case 14:  // spmd_parameters_shardings
      return ReadModuleSharding(r, field, wt, h);
    default:
      return r.Skip("an HloModuleProto field", wt);
  }
}

// One message level of the first pass. The HloModuleProto and its wrappers
// all start with field 1, length-delimited: a module's is its name (text),
// a wrapper's is a message, whose first byte is a small tag (< 0x20), which
// no module name starts with. `begin` / `size` locate this message.
bool WalkLevel(WireReader& r, int level, int64_t begin, int64_t size,
               Header* h) {
  static constexpr const char* kWhat[] = {
      "the top-level message", "the message in field 1",
      "the message in field 1.1", "the message in field 1.1.1"};
  const char* what = kWhat[std::min(level, 3)];
  bool first = true;
  bool module_here = false;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField(what, &field, &wt)) {
    if (first) {
      first = false;
      module_here = true;
      if (field == 1 && wt == kLen) {
        int saved = 0;
        const int64_t at = r.offset();
        if (!r.Enter(kWhat[std::min(level + 1, 3)], wt, &saved)) return false;
        const int64_t inner = r.offset();
        const uint8_t* b = nullptr;
        size_t n = 0;
        if (r.PeekBuffer(&b, &n) && b[0] < 0x20) {
          if (level >= 2) {
            return r.FailAt(at,
                            "expected an HloModuleProto within two "
                            "wrappers (HloSnapshot > HloProto), found "
                            "deeper nesting");
          }
          module_here = false;
          h->depth = level + 1;
          if (!WalkLevel(r, level + 1, inner, r.bytes_left(), h)) {
            return false;
          }
          if (!r.Leave(saved)) return false;
          continue;
        }
        if (!r.ReadRemaining("HloModuleProto.name", kMaxNameBytes, &h->name) ||
            !r.Leave(saved)) {
          return false;
        }
        h->found_module = true;
        h->module_begin = begin;
        h->module_size = size;
        continue;
      }
      h->found_module = true;
      h->module_begin = begin;
      h->module_size = size;
    }
    bool ok;
    if (module_here) {
      ok = ReadModuleField(r, field, wt, h);
    } else if (field == 2 && h->depth == level + 1) {
      ok = ReadConfig(r, wt, h);  // HloModuleProtoWithConfig.config
    } else {
      ok = r.Skip("a wrapper field", wt);  // buffer assignment, literals
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  if (first && level == 0) {
    return r.FailAt(0, "expected an HLO module proto, found an empty file");
  }
  if (first) {  // an empty field 1: an empty module
    h->found_module = true;
    h->module_begin = begin;
    h->module_size = size;
  }
  return true;
}

}  // namespace

bool ReadHeader(WireReader& r, Header* h) { return WalkLevel(r, 0, 0, -1, h); }

const char* FormatName(const Header& h) {
  switch (h.depth) {
    case 0:
      return "HloModuleProto";
    case 1:
      return h.saw_config ? "HloModuleProtoWithConfig" : "HloProto";
    default:
      return "HloSnapshot";
  }
}

}  // namespace topolint::hlo::proto
