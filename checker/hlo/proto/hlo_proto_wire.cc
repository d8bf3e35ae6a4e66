#include "checker/hlo/proto/hlo_proto_wire.h"

#include <algorithm>
#include <climits>
#include <utility>

#include "fmt/format.h"

namespace topolint::hlo::proto {
namespace {

const char* WireTypeName(int wire_type) {
  static constexpr const char* kNames[] = {"varint",           "64-bit",
                                           "length-delimited", "start-group",
                                           "end-group",        "32-bit"};
  return wire_type >= 0 && wire_type <= kFixed32 ? kNames[wire_type]
                                                 : "invalid";
}

// The limit as a message says it: protobuf's own (2 GiB, the default), or
// the lower one a test set.
std::string LimitName(int64_t max_bytes) {
  if (max_bytes >= INT_MAX) return "2 GiB (the protobuf message limit)";
  return fmt::format("{} bytes (the limit set for binary modules)", max_bytes);
}

}  // namespace

bool DecodeLongVarint(const uint8_t* p, size_t size, uint64_t* v, size_t* len) {
  uint64_t result = 0;
  const size_t n = size < 10 ? size : 10;
  for (size_t i = 0; i < n; ++i) {
    result |= static_cast<uint64_t>(p[i] & 0x7f) << (7 * i);
    if (p[i] < 0x80) {
      // The tenth byte holds only the top bit of a 64-bit value.
      if (i == 9 && p[i] > 1) return false;
      *v = result;
      *len = i + 1;
      return true;
    }
  }
  return false;
}

WireReader::WireReader(google::protobuf::io::ZeroCopyInputStream* in,
                       int64_t end_hint, int64_t max_bytes)
    : in_(in),
      end_hint_(end_hint),
      // Protobuf messages are at most 2 GiB; CodedInputStream counts in int.
      max_bytes_(std::clamp<int64_t>(max_bytes, 0, INT_MAX)) {
  in_.SetTotalBytesLimit(static_cast<int>(max_bytes_));
  // A known size bounds the top-level message, so that a declared length
  // past the end is refused before anything is read.
  if (end_hint >= 0 && end_hint <= INT_MAX) {
    in_.PushLimit(static_cast<int>(end_hint));
  }
  SyncEnd();
}

WireReader::WireReader(const uint8_t* data, size_t size, int64_t at, int depth,
                       int64_t end_hint, int64_t max_bytes)
    : in_(data, static_cast<int>(std::min<size_t>(size, INT_MAX))),
      base_(at),
      end_hint_(end_hint),
      max_bytes_(std::clamp<int64_t>(max_bytes, 0, INT_MAX)),
      depth_(depth) {
  // Inside a message, as Enter leaves a reader of the whole input.
  in_.PushLimit(static_cast<int>(std::min<size_t>(size, INT_MAX)));
  limit_at_ = at + static_cast<int64_t>(std::min<size_t>(size, INT_MAX));
}

bool WireReader::Fail(std::string message) {
  return FailAt(offset(), std::move(message));
}

bool WireReader::FailAt(int64_t at, std::string message) {
  if (!failed_) {
    failed_ = true;
    error_ = std::move(message);
    error_offset_ = at;
  }
  return false;
}

bool WireReader::Truncated(const char* what) {
  if (offset() >= max_bytes_) {
    return Fail(
        fmt::format("expected the input to end within {} while "
                    "reading {}",
                    LimitName(max_bytes_), what));
  }
  return Fail(fmt::format(
      "expected more bytes: the input ends inside {} (truncated file?)", what));
}

bool WireReader::AtEnd() {
  const void* data = nullptr;
  int size = 0;
  return !in_.GetDirectBufferPointer(&data, &size);
}

bool WireReader::WrongWireType(const char* what, int wire_type, int expected) {
  return Fail(fmt::format("expected {} to be {}, found wire type {} ({})", what,
                          WireTypeName(expected), wire_type,
                          WireTypeName(wire_type)));
}

bool WireReader::NextFieldSlow(const char* what, uint32_t* field,
                               int* wire_type) {
  if (failed_) return false;
  const int until = in_.BytesUntilLimit();
  if (until == 0) return false;  // the message ends here
  const int64_t at = offset();
  // The tag first (inline for one-byte tags); only a zero tag, which is
  // also what the end of the input reads as, needs a closer look.
  const uint32_t tag = in_.ReadTag();
  if (tag == 0 && offset() == at && AtEnd()) {
    if (until > 0 || (end_hint_ >= 0 && offset() < end_hint_) ||
        offset() >= max_bytes_) {
      return Truncated(what);
    }
    return false;  // the input ends between top-level fields
  }
  if (tag == 0 && offset() >= max_bytes_) return Truncated(what);
  if (tag == 0) {
    return FailAt(at, fmt::format("expected a field tag in {}, found {}", what,
                                  AtEnd() ? "the end of the input"
                                          : "an invalid one (0 or malformed)"));
  }
  *field = tag >> 3;
  *wire_type = static_cast<int>(tag & 7);
  if (*field == 0) {
    return FailAt(at, fmt::format("expected a field number >= 1 in {}", what));
  }
  if (*wire_type == kStartGroup || *wire_type == kEndGroup ||
      *wire_type > kFixed32) {
    return FailAt(at, fmt::format("expected a field of wire type 0, 1, 2 or 5 "
                                  "in {}, found {} (field {})",
                                  what, *wire_type, *field));
  }
  return true;
}

bool WireReader::VarintFailed(const char* what) {
  if (AtEnd()) return Truncated(what);
  return Fail(
      fmt::format("expected a varint for {}, found a malformed one", what));
}

bool WireReader::ReadLengthSlow(const char* what, int* len) {
  const int64_t at = offset();
  uint64_t u = 0;
  if (!ReadVarint(what, &u)) return false;
  const int until = in_.BytesUntilLimit();
  if (u > static_cast<uint64_t>(INT_MAX) ||
      (until >= 0 && u > static_cast<uint64_t>(until))) {
    return FailAt(
        at,
        until >= 0
            ? fmt::format(
                  "expected {} to fit in the {} bytes left of the {}, "
                  "found a length of {} (truncated or corrupt input)",
                  what, until,
                  offset() + until == end_hint_ ? "file" : "enclosing message",
                  u)
            : fmt::format("expected the length of {} to be at most 2 GiB, "
                          "found {}",
                          what, u));
  }
  *len = static_cast<int>(u);
  return true;
}

bool WireReader::ReadKept(const char* what, int len, size_t max_keep,
                          std::string* out) {
  const size_t keep = std::min(static_cast<size_t>(len), max_keep);
  const void* data = nullptr;
  int size = 0;
  in_.GetDirectBufferPointerInline(&data, &size);
  if (data != nullptr && len <= size) {  // held in the buffer: copied
    out->clear();  // (append: no overlap to allow for, unlike assign)
    out->append(static_cast<const char*>(data), keep);
    in_.Skip(len);
    return true;
  }
  out->resize(keep);
  if (keep > 0 && !in_.ReadRaw(out->data(), static_cast<int>(keep))) {
    return Truncated(what);
  }
  if (static_cast<size_t>(len) > keep &&
      !in_.Skip(len - static_cast<int>(keep))) {
    return Truncated(what);
  }
  return true;
}

bool WireReader::ReadString(const char* what, int wire_type, size_t max_keep,
                            std::string* out) {
  int len = 0;
  return ExpectWireType(what, wire_type, kLen) && ReadLength(what, &len) &&
         ReadKept(what, len, max_keep, out);
}

bool WireReader::ReadInt64sSlow(const char* what, int wire_type,
                                int64_t max_count, std::vector<int64_t>* out,
                                std::vector<TextPos>* pos) {
  if (failed_) return false;
  auto too_many = [&](int64_t at) {
    return FailAt(
        at, fmt::format("expected at most {} values in {}", max_count, what));
  };
  auto one = [&]() {
    if (static_cast<int64_t>(out->size()) >= max_count) {
      return too_many(offset());
    }
    if (pos != nullptr) pos->push_back(this->pos());
    uint64_t u = 0;
    if (!ReadVarint(what, &u)) return false;
    out->push_back(static_cast<int64_t>(u));
    return true;
  };
  if (wire_type == kVarint) return one();
  if (wire_type != kLen) return ExpectWireType(what, wire_type, kLen);
  int len = 0;
  if (!ReadLength(what, &len)) return false;
  // The values held in the input buffer are decoded in place; one that is
  // cut by the buffer's end, or malformed, goes to one() (which reads it
  // through CodedInputStream, within a limit at the field's end).
  const uint8_t* p = nullptr;
  size_t n = 0;
  size_t i = 0;
  if (len > 0 && PeekBuffer(&p, &n)) {
    const int64_t base = offset();
    n = std::min(n, static_cast<size_t>(len));
    // At most one value per byte, within max_count.
    const size_t room = static_cast<size_t>(
        std::max<int64_t>(0, max_count - static_cast<int64_t>(out->size())));
    out->reserve(out->size() + std::min(n, room));
    if (pos != nullptr) pos->reserve(pos->size() + std::min(n, room));
    while (i < n) {
      if (static_cast<int64_t>(out->size()) >= max_count) {
        return too_many(base + static_cast<int64_t>(i));
      }
      uint64_t u = 0;
      size_t k = 0;
      if (!DecodeVarint(p + i, n - i, &u, &k)) break;
      if (pos != nullptr) {
        pos->push_back(TextPos::AtByte(base + static_cast<int64_t>(i)));
      }
      out->push_back(static_cast<int64_t>(u));
      i += k;
    }
    in_.Skip(static_cast<int>(i));
  }
  if (i == static_cast<size_t>(len)) return true;
  const auto limit = in_.PushLimit(len - static_cast<int>(i));
  while (in_.BytesUntilLimit() > 0) {
    if (!one()) return false;
  }
  in_.PopLimit(limit);
  return true;
}

bool WireReader::ReadRemaining(const char* what, size_t max_keep,
                               std::string* out) {
  if (failed_) return false;
  const int until = in_.BytesUntilLimit();
  if (until < 0) return Fail(fmt::format("expected {} inside a message", what));
  return ReadKept(what, until, max_keep, out);
}

bool WireReader::SkipFailed(const char* what, int64_t n) {
  if (failed_) return false;
  if (n < 0 || n > INT_MAX) return Fail(fmt::format("cannot reach {}", what));
  return Truncated(what);  // (Skip went as far as the input goes)
}

void WireReader::LimitTo(int64_t size) {
  if (size >= 0 && size <= INT_MAX) {
    in_.PushLimit(static_cast<int>(size));
    SyncEnd();
  }
}

bool WireReader::Enter(const char* what, int wire_type, int* saved) {
  int len = 0;
  if (!ExpectWireType(what, wire_type, kLen) || !ReadLength(what, &len)) {
    return false;
  }
  if (depth_ >= kMaxMessageDepth) {
    return Fail(
        fmt::format("expected messages nested at most {} deep, found "
                    "{} deeper",
                    kMaxMessageDepth, what));
  }
  // (len is within the enclosing message: in_ now ends there. Without one,
  // past 2 GiB, in_ keeps no limit; limit_at_ is then never reached, as
  // none.)
  const int64_t at = offset();
  *saved = in_.PushLimit(len);
  limit_at_ = at + len;
  ++depth_;
  return true;
}

bool WireReader::Leave(int saved) {
  if (failed_) return false;
  if (offset() != limit_at_) return Fail("expected the end of a submessage");
  in_.PopLimit(saved);
  SetEnd(saved);
  --depth_;
  return true;
}

bool WireReader::Skip(const char* what, int wire_type) {
  if (failed_) return false;
  switch (wire_type) {
    case kVarint: {
      uint64_t u = 0;
      return ReadVarint(what, &u);
    }
    case kFixed64:
      return in_.Skip(8) || Truncated(what);
    case kFixed32:
      return in_.Skip(4) || Truncated(what);
    case kLen: {
      int len = 0;
      if (!ReadLength(what, &len)) return false;
      return in_.Skip(len) || Truncated(what);
    }
    default:
      return Fail(
          fmt::format("expected {} to have wire type 0, 1, 2 or 5, "
                      "found {}",
                      what, wire_type));
  }
}

}  // namespace topolint::hlo::proto
