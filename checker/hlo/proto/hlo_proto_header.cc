// The binary reader's first pass: the wrappers around the HloModuleProto
// and the module's own fields (name, entry computation, config, device
// assignment, each computation's name, id and root), every instruction
// skipped. The config comes after the computations in the wire order, but
// the second pass needs it before the first collective.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_wire.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {
namespace {

bool ReadComputationHeader(WireReader& r, int wt, Header* h) {
  if (static_cast<int64_t>(h->computations.size()) >= kMaxComputations) {
    return r.Fail(
        fmt::format("expected at most {} computations", kMaxComputations));
  }
  int saved = 0;
  if (!r.Enter("HloModuleProto.computations (3)", wt, &saved)) return false;
  ComputationInfo& c = h->computations.emplace_back();
  auto on_field = [&](uint32_t field, int w) {
    switch (field) {
      case 1:
        return r.ReadString("HloComputationProto.name", w, kMaxNameBytes,
                            &c.name);
      case 2:  // the first pass reads only their tags and lengths
        return r.Skip("an HloInstructionProto", w) &&
               TakeHeldInstructions(r, [](auto&&...) { return true; });
      case 5:
        return r.ReadInt64("HloComputationProto.id", w, &c.id.emplace());
      case 6:
        return r.ReadInt64("HloComputationProto.root_id", w,
                           &c.root_id.emplace());
      default:
        return r.Skip("an HloComputationProto field", w);
    }
  };
  if (!ReadFields(r, "HloComputationProto", on_field)) return false;
  h->names.Keep(&c.name);
  return r.Leave(saved);
}

// A replica or partition count, as the text header's: at least 1 (an int32
// in the proto, so -1 arrives as 2^64-1 read as int64 -1). Set (with its
// place) even when it is not.
bool ReadCount(WireReader& r, int wt, const char* what,
               std::optional<int64_t>* count, TextPos* pos) {
  const TextPos at = r.pos();
  int64_t v = 0;
  const bool ok =
      r.ReadInt64(what, wt, &v) &&
      (v >= 1 || r.FailAt(at.byte_offset(),
                          fmt::format("{} must be a positive integer, found {}",
                                      what, v)));
  *count = v;
  *pos = at;
  return ok;
}

bool ReadDeviceAssignment(WireReader& r, int wt, Header* h) {
  auto on_field = [&](uint32_t field, int w) {
    if (field == 1) {
      return ReadCount(r, w, "DeviceAssignmentProto.replica_count",
                       &h->da_replicas, &h->da_replicas_pos);
    }
    if (field == 2) {
      return ReadCount(r, w, "DeviceAssignmentProto.computation_count",
                       &h->da_computations, &h->da_computations_pos);
    }
    return r.Skip("a DeviceAssignmentProto field", w);
  };
  return ReadMessage(r, "device_assignment (15)", wt, "DeviceAssignmentProto",
                     on_field);
}

bool ReadConfig(WireReader& r, int wt, Header* h) {
  auto on_field = [&](uint32_t field, int w) {
    if (field == 4) {
      return ReadCount(r, w, "HloModuleConfigProto.replica_count",
                       &h->replica_count, &h->replica_count_pos);
    }
    if (field == 5) {
      return ReadCount(r, w, "HloModuleConfigProto.num_partitions",
                       &h->num_partitions, &h->num_partitions_pos);
    }
    return r.Skip("an HloModuleConfigProto field", w);
  };
  int saved = 0;
  if (!r.Enter("HloModuleProtoWithConfig.config (2)", wt, &saved)) {
    return false;
  }
  h->saw_config = true;
  return ReadFields(r, "HloModuleConfigProto", on_field) && r.Leave(saved);
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
      return r.ReadInt64("HloModuleProto.entry_computation_id", wt,
                         &h->entry_id.emplace());
    case 15:
      return ReadDeviceAssignment(r, wt, h);
    case 17:
      return ReadStackFrameIndex(r, wt, &h->stack_frames);
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
  auto found = [&] {
    h->found_module = true;
    h->module_begin = begin;
    h->module_size = size;
  };
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
          if (!WalkLevel(r, level + 1, inner, r.bytes_left(), h) ||
              !r.Leave(saved)) {
            return false;
          }
          continue;
        }
        if (!r.ReadRemaining("HloModuleProto.name", kMaxNameBytes, &h->name) ||
            !r.Leave(saved)) {
          return false;
        }
        found();
        continue;
      }
      found();
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
  if (first) found();  // an empty field 1: an empty module
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
