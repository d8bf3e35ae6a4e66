// The decoder's first stage: most instructions are not collectives, and
// all the checker needs of them is their id and shape (for the operands of
// later collectives). ScanInstruction reads those from the instruction's
// bytes without decoding them; ShapeTable keeps the shape's bytes and
// decodes them (ReadShape) only when a collective names the instruction.
#include <algorithm>
#include <array>
#include <string>

#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"

namespace topolint::hlo::proto {
namespace {

// HloInstructionProto field numbers (hlo_proto_internal.h).
using namespace instruction_fields;  // NOLINT(google-build-using-namespace)

// The wire types ReadInstruction accepts for `field` without reporting an
// error, one bit each (1 << wire type): a field it reads as a string or
// message only length-delimited, one it reads as an integer only as a
// varint, a repeated integer either way; a group or pair field (only
// collectives carry them) none, so that the instruction goes to it; any
// other field every wire type Skip takes.
constexpr uint8_t kAnyWireType =
    (1 << kVarint) | (1 << kFixed64) | (1 << kLen) | (1 << kFixed32);
constexpr uint8_t AcceptedWireTypes(uint32_t field) {
  switch (field) {
    case kName:
    case kOpcode:
    case kShape:
    case kMetadata:
    case kFrontendAttributes:
      return 1 << kLen;
    case kChannelId:
    case kId:
    case kUseGlobalDeviceIds:
      return 1 << kVarint;
    case kDimensions:
    case kDynamicSliceSizes:
    case kOperandIds:
    case kCalledComputationIds:
      return (1 << kVarint) | (1 << kLen);
    case kReplicaGroups:
    case kSourceTargetPairs:
    case kCollectiveDeviceList:
    case kIotaCollectiveDeviceList:
    case kMeshAxesReplicaGroupList:
      return 0;
    default:
      return kAnyWireType;
  }
}
// AcceptedWireTypes for the fields below 128 (one- and two-byte tags);
// every field from 128 on is one ReadInstruction skips.
constexpr int kTabledFields = 128;
constexpr std::array<uint8_t, kTabledFields> MakeAcceptedTable() {
  std::array<uint8_t, kTabledFields> t{};
  for (uint32_t f = 0; f < kTabledFields; ++f) t[f] = AcceptedWireTypes(f);
  return t;
}
constexpr std::array<uint8_t, kTabledFields> kAccepted = MakeAcceptedTable();
static_assert(kMeshAxesReplicaGroupList < kTabledFields,
              "every field ReadInstruction reads is in the table");

// The tag at data[*i] of a message held whole in memory, *i moved past it
// (DecodeVarint: one to three bytes inline): false on a varint cut short or
// too long, a tag over 32 bits, or field 0 (the full decoder reports
// those).
inline bool DecodeTag(const uint8_t* data, size_t size, size_t* i,
                      uint32_t* field, int* wt) {
  uint64_t tag = 0;
  size_t n = 0;
  if (!DecodeVarint(data + *i, size - *i, &tag, &n) || tag > UINT32_MAX) {
    return false;
  }
  *i += n;
  *field = static_cast<uint32_t>(tag >> 3);
  *wt = static_cast<int>(tag & 7);
  return *field != 0;
}

}  // namespace

// The first stage's hot loop: one case per wire type (issue 46 §1).
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
bool ScanInstruction(const uint8_t* data, size_t size, InstructionView* v) {
  *v = InstructionView();
  size_t i = 0;
  while (i < size) {
    // The tag: one byte (fields 1-15) or two (16-2047, among them the id
    // and the operand ids) inline, longer ones through DecodeTag.
    uint32_t field = 0;
    int wt = 0;
    const uint32_t b0 = data[i];
    if (b0 < 0x80) {
      field = b0 >> 3;
      wt = static_cast<int>(b0 & 7);
      i += 1;
      if (field == 0) return false;
    } else if (size - i > 1 && data[i + 1] < 0x80 && data[i + 1] != 0) {
      const uint32_t tag = (b0 & 0x7f) | (uint32_t{data[i + 1]} << 7);
      field = tag >> 3;  // >= 16: the second byte is not 0
      wt = static_cast<int>(tag & 7);
      i += 2;
    } else if (!DecodeTag(data, size, &i, &field, &wt)) {
      return false;
    }
    const uint8_t accepted =
        field < kTabledFields ? kAccepted[field] : kAnyWireType;
    if (((accepted >> wt) & 1) == 0) return false;
    if (wt == kLen) {
      size_t len = 0;
      if (i < size && data[i] < 0x80) {
        len = data[i];
        i += 1;
        if (len > size - i) return false;
      } else {
        size_t n = 0;
        if (!DecodeHeldLength(data + i, size - i, &n, &len)) return false;
        i += n;
      }
      const std::string_view bytes(reinterpret_cast<const char*>(data + i),
                                   len);
      switch (field) {
        case kName:
          v->name = bytes;
          break;
        case kOpcode:
          v->opcode = bytes.substr(0, 64);
          break;
        case kShape:
          v->has_shape = true;
          v->shape = bytes;
          break;
        case kSharding:
          v->sharding = bytes;
          break;
        case kDomainEntrySharding:
          v->domain_entry = bytes;
          break;
        case kDomainExitSharding:
          v->domain_exit = bytes;
          break;
        default:
          break;
      }
      i += len;
      continue;
    }
    switch (wt) {
      case kVarint: {
        uint64_t value = 0;
        size_t n = 0;
        if (!DecodeVarint(data + i, size - i, &value, &n)) return false;
        i += n;
        if (field == kId) {
          v->has_id = true;
          v->id = static_cast<int64_t>(value);
        }
        break;
      }
      case kFixed64:
        if (size - i < 8) return false;
        i += 8;
        break;
      default:  // kFixed32: the only other one `accepted` lets through
        if (size - i < 4) return false;
        i += 4;
        break;
    }
  }
  return true;
}

void ShapeTable::Generation::Clear() {
  raw.clear();  // keeps its capacity for the next fill
  ordered = true;
  raw_index.clear();
  decoded.clear();
  bytes.clear();
  held = 0;
}

void ShapeTable::Clear() {
  generations_[0].Clear();
  generations_[1].Clear();
  current_ = 0;
}

void ShapeTable::MakeRoom(size_t bytes) {
  Generation* g = &generations_[current_];
  if (g->held + bytes > kGenerationBytes && g->held > 0) {
    current_ ^= 1;  // the current generation becomes the old one
    g = &generations_[current_];
    g->Clear();
  }
  g->held += bytes;
  if (g->raw.capacity() == 0) {
    // Room for a full generation at once: it never grows by copying, and
    // only the pages used count.
    g->raw.reserve(kGenerationBytes / kEntryBytes);
    g->bytes.reserve(kGenerationBytes);
  }
}

const ShapeTable::Raw* ShapeTable::Generation::FindRaw(int64_t id) const {
  if (!ordered) {
    auto it = raw_index.find(id);
    return it != raw_index.end() ? &raw[it->second] : nullptr;
  }
  // Ids usually go up by one: try the entry that would hold `id` then.
  if (!raw.empty() && id >= raw.front().id) {
    const uint64_t guess = static_cast<uint64_t>(id - raw.front().id);
    if (guess < raw.size() && raw[guess].id == id) return &raw[guess];
  }
  auto it = std::lower_bound(raw.begin(), raw.end(), id,
                             [](const Raw& e, int64_t v) { return e.id < v; });
  return it != raw.end() && it->id == id ? &*it : nullptr;
}

void ShapeTable::KeepRaw(int64_t id, bool has_shape, std::string_view bytes,
                         int64_t at) {
  MakeRoom(kEntryBytes + bytes.size());
  Generation& g = generations_[current_];
  if (!g.decoded.empty()) g.decoded.erase(id);
  if (g.ordered && !g.raw.empty() && id <= g.raw.back().id) {
    // Ids stopped growing: index every entry kept (a later one of the same
    // id wins, as it is read later).
    g.ordered = false;
    g.raw_index.reserve(g.raw.size() + 1);
    for (size_t i = 0; i < g.raw.size(); ++i) {
      g.raw_index[g.raw[i].id] = static_cast<uint32_t>(i);
    }
  }
  if (!g.ordered) g.raw_index[id] = static_cast<uint32_t>(g.raw.size());
  g.raw.push_back(Raw{id, at, static_cast<uint32_t>(g.bytes.size()),
                      static_cast<uint32_t>(bytes.size()), has_shape});
  g.bytes.append(bytes);
}

static size_t ShapeBytes(const Shape& s) {
  size_t n = sizeof(Shape) + s.dims.size() * 8 + s.element_type.size();
  for (const Shape& t : s.tuple) n += ShapeBytes(t);
  return n;
}

void ShapeTable::KeepDecoded(int64_t id, const Shape& shape) {
  MakeRoom(kEntryBytes + ShapeBytes(shape));
  // A raw entry of the same id stays, unreachable: FindIn looks here first,
  // and a later KeepRaw of the id erases this one and appends its own.
  Generation& g = generations_[current_];
  g.max_decoded = g.decoded.empty() ? id : std::max(g.max_decoded, id);
  g.decoded[id] = shape;
}

bool ShapeTable::FindIn(const Generation& g, WireReader& r, int64_t id,
                        Shape* out, bool* ok) const {
  *ok = true;
  if (auto it = g.decoded.find(id); it != g.decoded.end()) {
    *out = it->second;
    return true;
  }
  const Raw* found = g.FindRaw(id);
  if (found == nullptr) return false;
  if (!found->has_shape) return true;
  WireReader sub(
      reinterpret_cast<const uint8_t*>(g.bytes.data()) + found->offset,
      found->size, found->at, 0);
  int64_t nodes = 0;
  if (ReadShape(sub, 0, &nodes, out)) return true;
  *out = Shape();
  *ok = r.FailAt(sub.error_offset(), sub.error());
  return true;
}

bool ShapeTable::Find(WireReader& r, int64_t id, Shape* out) const {
  out->Clear();  // keeps the storage of `out` for the shape found
  bool ok = true;
  if (FindIn(generations_[current_], r, id, out, &ok)) return ok;
  FindIn(generations_[current_ ^ 1], r, id, out, &ok);
  return ok;
}

}  // namespace topolint::hlo::proto
