// A bounded walker over the protobuf wire format, for the binary HLO reader.
//
// It wraps protobuf's CodedInputStream over any ZeroCopyInputStream (a file,
// a gzip stream, bytes in memory) and adds what a checker of untrusted input
// needs: every length is checked against the enclosing message before it is
// used, nothing is allocated from a declared length (strings are kept up to a
// cap and the rest is skipped), the first problem is recorded with its byte
// offset and every later call fails fast, so callers can simply return on
// `false`. No generated code: the HLO reader knows its field numbers.
#ifndef TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_WIRE_H_
#define TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_WIRE_H_

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "checker/diag/location.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream.h"

namespace topolint::hlo::proto {

enum WireType : int {
  kVarint = 0,
  kFixed64 = 1,
  kLen = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

// Decodes a varint held in memory, from at most `size` bytes: its value
// and length. False when it does not end within them, or is not one that
// fits 64 bits in at most 10 bytes (CodedInputStream then decides).
// Varints of up to three bytes (tags, lengths, ids, dims) inline, the rest
// in DecodeLongVarint.
bool DecodeLongVarint(const uint8_t* p, size_t size, uint64_t* v, size_t* len);
inline bool DecodeVarint(const uint8_t* p, size_t size, uint64_t* v,
                         size_t* len) {
  if (size > 0 && p[0] < 0x80) {
    *v = p[0];
    *len = 1;
    return true;
  }
  if (size > 1 && p[1] < 0x80) {
    *v = (p[0] & 0x7fu) | (static_cast<uint64_t>(p[1]) << 7);
    *len = 2;
    return true;
  }
  if (size > 2 && p[1] >= 0x80 && p[2] < 0x80) {  // ids past 16,383
    *v = (p[0] & 0x7fu) | (static_cast<uint64_t>(p[1] & 0x7fu) << 7) |
         (static_cast<uint64_t>(p[2]) << 14);
    *len = 3;
    return true;
  }
  return DecodeLongVarint(p, size, v, len);
}

// The length prefix at `p` of a length-delimited value whose bytes all lie
// within the `n` held there: the prefix's size and the value's length.
// False when either does not fit (the value is not held whole).
inline bool DecodeHeldLength(const uint8_t* p, size_t n, size_t* prefix,
                             size_t* len) {
  uint64_t v = 0;
  if (!DecodeVarint(p, n, &v, prefix) || v > n - *prefix) return false;
  *len = static_cast<size_t>(v);
  return true;
}

// Messages may nest at most this deep (tuple shapes, wrappers).
inline constexpr int kMaxMessageDepth = 96;

class WireReader {
 public:
  // `end_hint` is the input's size when known (-1 otherwise): a file that
  // ends early is then "truncated" rather than merely ended.
  // Reading stops after `max_bytes` (at most INT_MAX, protobuf's message
  // limit), with an error naming that limit.
  explicit WireReader(google::protobuf::io::ZeroCopyInputStream* in,
                      int64_t end_hint = -1, int64_t max_bytes = INT_MAX);
  // Over one message held whole in memory (`size` bytes at `data`, at most
  // INT_MAX), which starts at byte `at` of the input and is nested `depth`
  // deep: reading it says what a reader of the whole input, entered into
  // that message, says, at the same offsets (`end_hint` and `max_bytes`
  // are the whole input's). The bytes must outlive the reader.
  WireReader(const uint8_t* data, size_t size, int64_t at, int depth,
             int64_t end_hint = -1, int64_t max_bytes = INT_MAX);
  WireReader(const WireReader&) = delete;
  WireReader& operator=(const WireReader&) = delete;

  // Offset of the next byte from the start of the input.
  int64_t offset() const { return base_ + in_.CurrentPosition(); }
  TextPos pos() const { return TextPos::AtByte(offset()); }

  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }
  int64_t error_offset() const { return error_offset_; }

  // Reads the next field's tag inside the current message. Returns false
  // at the end of the message (or of the input at top level) and on error
  // (then failed() is true). `what` names the message for errors.
  // One- and two-byte tags of wire type 0, 1, 2 or 5 held in the buffer
  // inline; everything else (and every error) in NextFieldSlow.
  bool NextField(const char* what, uint32_t* field, int* wire_type) {
    const void* data = nullptr;
    int size = 0;
    if (!failed_) in_.GetDirectBufferPointerInline(&data, &size);
    if (size > 0) {
      const uint8_t* p = static_cast<const uint8_t*>(data);
      uint32_t tag = p[0];
      int len = 1;
      if (tag >= 0x80) {  // two bytes (a field >= 16), or the slow path
        if (size < 2 || p[1] >= 0x80 || p[1] == 0) {
          return NextFieldSlow(what, field, wire_type);
        }
        tag = (tag & 0x7f) | (uint32_t{p[1]} << 7);
        len = 2;
      }
      const uint32_t wt = tag & 7;
      if (tag < 0x4000 && (tag >> 3) != 0 &&
          (wt == kVarint || wt == kFixed64 || wt == kLen || wt == kFixed32)) {
        in_.Skip(len);
        *field = tag >> 3;
        *wire_type = static_cast<int>(wt);
        return true;
      }
    } else if (!failed_ && offset() == limit_at_) {
      return false;  // the message ends here
    }
    return NextFieldSlow(what, field, wire_type);
  }

  // Whether the next field of the current message is `field` of
  // `wire_type`, its tag held in the buffer: then its tag is read. For a
  // repeated field, whose values XLA writes back to back, read one after
  // the other without going back to the message's field loop (as
  // protobuf's generated parsers do).
  bool NextFieldIs(uint32_t field, int wire_type) {
    return !failed_ &&
           in_.ExpectTag((field << 3) | static_cast<uint32_t>(wire_type));
  }

  // Values. `what` names the field for errors ("channel_id (26)").
  // Varints of up to three bytes held in the buffer inline (DecodeVarint);
  // the rest through CodedInputStream.
  bool ReadVarint(const char* what, uint64_t* v) {
    if (failed_) return false;
    const void* data = nullptr;
    int size = 0;
    in_.GetDirectBufferPointerInline(&data, &size);
    size_t n = 0;
    if (size > 0 && DecodeVarint(static_cast<const uint8_t*>(data),
                                 static_cast<size_t>(size), v, &n)) {
      in_.Skip(static_cast<int>(n));
      return true;
    }
    return in_.ReadVarint64(v) || VarintFailed(what);
  }
  bool ReadInt64(const char* what, int wire_type, int64_t* v) {
    uint64_t u = 0;
    if (!ExpectWireType(what, wire_type, kVarint) || !ReadVarint(what, &u)) {
      return false;
    }
    *v = static_cast<int64_t>(u);
    return true;
  }
  // A length-delimited string: keeps at most `max_keep` bytes in `*out` (the
  // rest is skipped).
  bool ReadString(const char* what, int wire_type, size_t max_keep,
                  std::string* out);
  // A repeated integer field, packed or not: appends to `*out` (and the
  // offset of each value to `*pos` when given). Fails past `max_count`
  // values in total.
  // Inline: a packed run without positions, its length one byte and its
  // values held in the buffer within max_count (shape dims, operand ids);
  // ReadInt64sSlow otherwise, and for a malformed value.
  bool ReadInt64s(const char* what, int wire_type, int64_t max_count,
                  std::vector<int64_t>* out, std::vector<TextPos>* pos) {
    const void* data = nullptr;
    int size = 0;
    if (wire_type == kLen && pos == nullptr && !failed_) {
      in_.GetDirectBufferPointerInline(&data, &size);
    }
    const uint8_t* p = static_cast<const uint8_t*>(data);
    // (At most one value per byte: within max_count.)
    if (size > 0 && p[0] < 0x80 && p[0] < size &&
        static_cast<int64_t>(out->size()) + p[0] <= max_count) {
      const size_t before = out->size();
      const uint8_t* q = p + 1;
      const uint8_t* const end = q + p[0];
      if (out->capacity() < before + p[0]) out->reserve(before + p[0]);
      while (q < end) {
        uint64_t v = 0;
        size_t k = 0;
        if (!DecodeVarint(q, static_cast<size_t>(end - q), &v, &k)) break;
        out->push_back(static_cast<int64_t>(v));
        q += k;
      }
      if (q == end) {
        in_.Skip(static_cast<int>(end - p));
        return true;
      }
      out->resize(before);
    }
    return ReadInt64sSlow(what, wire_type, max_count, out, pos);
  }

  // Reads the rest of the current message as raw bytes, keeping at most
  // `max_keep` of them.
  bool ReadRemaining(const char* what, size_t max_keep, std::string* out);
  // The bytes of the current buffer from the next one on, within the
  // current message (zero-copy; an empty buffer is refilled); false when
  // none are left.
  bool PeekBuffer(const uint8_t** data, size_t* size) {
    const void* p = nullptr;
    int n = 0;
    if (failed_) return false;
    in_.GetDirectBufferPointerInline(&p, &n);
    if (n <= 0 && (!in_.GetDirectBufferPointer(&p, &n) || n <= 0)) {
      return false;
    }
    *data = static_cast<const uint8_t*>(p);
    *size = static_cast<size_t>(n);
    return true;
  }
  // Skips `n` bytes (to reach a known offset).
  bool SkipBytes(const char* what, int64_t n) {
    if (!failed_ && n >= 0 && n <= INT_MAX && in_.Skip(static_cast<int>(n))) {
      return true;
    }
    return SkipFailed(what, n);
  }
  // Limits reading to the next `size` bytes (none when `size` < 0).
  void LimitTo(int64_t size);

  // Enters a length-delimited submessage; `*saved` restores the enclosing
  // limit on Leave. `what` names the submessage for errors.
  bool Enter(const char* what, int wire_type, int* saved);
  // Leaves a submessage entered with Enter. Fails when it was not read to
  // its end (callers stop early only on error).
  bool Leave(int saved);
  // Skips one field of any wire type (groups are rejected: XLA's protos
  // have none).
  bool Skip(const char* what, int wire_type);

  // Records an error at the current offset (the first one wins). Returns
  // false, for `return r.Fail(...)`.
  bool Fail(std::string message);
  bool FailAt(int64_t at, std::string message);

  int depth() const { return depth_; }
  int64_t end_hint() const { return end_hint_; }
  int64_t max_bytes() const { return max_bytes_; }
  // Bytes left in the current message (-1 at top level).
  int64_t bytes_left() const { return in_.BytesUntilLimit(); }

 private:
  bool NextFieldSlow(const char* what, uint32_t* field, int* wire_type);
  bool ReadInt64sSlow(const char* what, int wire_type, int64_t max_count,
                      std::vector<int64_t>* out, std::vector<TextPos>* pos);
  // A length prefix, checked against the enclosing message. Inline when
  // the value lies within the buffer, which ends at the enclosing
  // message's end or before it (CodedInputStream clips the buffer to its
  // limits); ReadLengthSlow otherwise.
  bool ReadLength(const char* what, int* len) {
    const void* data = nullptr;
    int size = 0;
    if (!failed_) in_.GetDirectBufferPointerInline(&data, &size);
    uint64_t u = 0;
    size_t n = 0;
    if (size > 0 &&
        DecodeVarint(static_cast<const uint8_t*>(data),
                     static_cast<size_t>(size), &u, &n) &&
        u <= static_cast<uint64_t>(size) - n) {
      in_.Skip(static_cast<int>(n));
      *len = static_cast<int>(u);
      return true;
    }
    return ReadLengthSlow(what, len);
  }
  bool ReadLengthSlow(const char* what, int* len);
  // The `len` bytes at the reader: the first `max_keep` of them to `*out`,
  // the rest skipped.
  bool ReadKept(const char* what, int len, size_t max_keep, std::string* out);
  // SkipBytes's errors.
  bool SkipFailed(const char* what, int64_t n);
  // ReadVarint's error: the varint at the reader is cut or malformed.
  bool VarintFailed(const char* what);
  bool ExpectWireType(const char* what, int wire_type, int expected) {
    return wire_type == expected || WrongWireType(what, wire_type, expected);
  }
  bool WrongWireType(const char* what, int wire_type, int expected);
  bool AtEnd();
  // The input ended before the current message did.
  bool Truncated(const char* what);

  // limit_at_ for in_'s limit `limit` (a position of in_; INT_MAX: none).
  void SetEnd(int limit) { limit_at_ = limit == INT_MAX ? -1 : base_ + limit; }
  // limit_at_ from in_ (its limit, however set).
  void SyncEnd() {
    const int until = in_.BytesUntilLimit();
    limit_at_ = until < 0 ? -1 : offset() + until;
  }

  google::protobuf::io::CodedInputStream in_;
  int64_t base_ = 0;  // the offset of in_'s first byte in the input
  // The offset at which in_'s current limit lies (the end of the message
  // being read; -1: none), so that the end of a message is known without
  // asking in_.
  int64_t limit_at_ = -1;
  int64_t end_hint_;
  int64_t max_bytes_;  // the total bytes limit, <= INT_MAX
  int depth_ = 0;
  bool failed_ = false;
  std::string error_;
  int64_t error_offset_ = -1;
};

// Hands each field of the current message to `on_field(field, wire_type)`,
// which reads or skips its value, up to the message's end. False on error
// (r.failed()): NextField's, or `on_field` returning false, which it does
// only having failed `r`.
template <typename OnField>
bool ReadFields(WireReader& r, const char* what, OnField&& on_field) {
  uint32_t field = 0;
  int wire_type = 0;
  while (r.NextField(what, &field, &wire_type)) {
    if (!on_field(field, wire_type)) return false;
  }
  return !r.failed();
}

// Enters the submessage `what` (its tag read), reads its fields (ReadFields,
// `name` naming the message) and leaves it.
template <typename OnField>
bool ReadMessage(WireReader& r, const char* what, int wire_type,
                 const char* name, OnField&& on_field) {
  int saved = 0;
  return r.Enter(what, wire_type, &saved) && ReadFields(r, name, on_field) &&
         r.Leave(saved);
}

}  // namespace topolint::hlo::proto

#endif  // TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_WIRE_H_
