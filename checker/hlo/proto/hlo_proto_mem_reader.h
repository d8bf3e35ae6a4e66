// The wire walker for one message held whole in memory: what WireReader
// does over a CodedInputStream, done with a pointer and a limit. The second
// pass decodes a collective held whole in its input buffer with it
// (InstructionStream::ReadHeld): the decoders of hlo_proto_instruction.cc,
// hlo_proto_groups.cc and hlo_proto_mesh.cc are templates over the reader,
// instantiated for both.
//
// It is a fast path, never the judge: whatever it accepts, WireReader
// accepts, reading the same values at the same offsets; on anything else
// (a malformed or cut varint, a tag over 32 bits, a length past its
// message, nesting past kMaxMessageDepth, a count past its limit) it fails
// and the caller reads the message again with WireReader, which says what
// is wrong and where. Its messages are therefore only for tests.
#ifndef TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_MEM_READER_H_
#define TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_MEM_READER_H_

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checker/diag/location.h"
#include "checker/hlo/proto/hlo_proto_wire.h"

namespace topolint::hlo::proto {

class MemReader {
 public:
  // The `size` bytes at `data` are the fields of one message that starts
  // at byte `base_offset` of the input and is nested `depth` deep (as
  // WireReader::depth() counts it inside that message).
  MemReader(const uint8_t* data, size_t size, int64_t base_offset, int depth)
      : data_(data),
        p_(data),
        limit_(data + size),
        base_(base_offset),
        depth_(depth) {}
  MemReader(const MemReader&) = delete;
  MemReader& operator=(const MemReader&) = delete;

  int64_t offset() const { return base_ + (p_ - data_); }
  TextPos pos() const { return TextPos::AtByte(offset()); }
  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }
  int depth() const { return depth_; }
  int64_t bytes_left() const { return limit_ - p_; }

  bool NextField(const char* /*what*/, uint32_t* field, int* wire_type) {
    if (failed_ || p_ == limit_) return false;
    uint64_t tag = 0;
    size_t n = 0;
    // CodedInputStream reads a tag as a varint of at most 5 bytes.
    if (!DecodeVarint(p_, Left(), &tag, &n) || n > 5 || tag > UINT32_MAX) {
      return Fail("expected a field tag");
    }
    *field = static_cast<uint32_t>(tag >> 3);
    *wire_type = static_cast<int>(tag & 7);
    if (*field == 0 || *wire_type == kStartGroup || *wire_type == kEndGroup ||
        *wire_type > kFixed32) {
      return Fail("expected a field number >= 1 of wire type 0, 1, 2 or 5");
    }
    p_ += n;
    return true;
  }

  bool ReadVarint(const char* /*what*/, uint64_t* v) {
    if (failed_) return false;
    size_t n = 0;
    if (!DecodeVarint(p_, Left(), v, &n)) return Fail("expected a varint");
    p_ += n;
    return true;
  }
  bool ReadInt64(const char* what, int wire_type, int64_t* v) {
    uint64_t u = 0;
    if (wire_type != kVarint) return Fail("expected a varint field");
    if (!ReadVarint(what, &u)) return false;
    *v = static_cast<int64_t>(u);
    return true;
  }
  bool ReadBool(const char* what, int wire_type, bool* v) {
    int64_t u = 0;
    if (!ReadInt64(what, wire_type, &u)) return false;
    *v = u != 0;
    return true;
  }
  bool ReadString(const char* /*what*/, int wire_type, size_t max_keep,
                  std::string* out) {
    size_t len = 0;
    if (wire_type != kLen || !ReadLength(&len)) {
      return Fail("expected a string");
    }
    out->assign(reinterpret_cast<const char*>(p_), std::min(len, max_keep));
    p_ += len;
    return true;
  }
  // As WireReader::ReadInt64s: appends, with each value's offset to `*pos`
  // when given; fails past `max_count` values in `*out`.
  bool ReadInt64s(const char* what, int wire_type, int64_t max_count,
                  std::vector<int64_t>* out, std::vector<TextPos>* pos) {
    if (failed_) return false;
    if (wire_type == kVarint) {
      if (static_cast<int64_t>(out->size()) >= max_count) {
        return Fail("expected fewer values");
      }
      if (pos != nullptr) pos->push_back(this->pos());
      uint64_t u = 0;
      if (!ReadVarint(what, &u)) return false;
      out->push_back(static_cast<int64_t>(u));
      return true;
    }
    size_t len = 0;
    if (wire_type != kLen || !ReadLength(&len)) {
      return Fail("expected packed values");
    }
    const uint8_t* const end = p_ + len;
    // At most one value per byte.
    const size_t room = static_cast<size_t>(
        std::max<int64_t>(0, max_count - static_cast<int64_t>(out->size())));
    out->reserve(out->size() + std::min(len, room));
    while (p_ < end) {
      if (static_cast<int64_t>(out->size()) >= max_count) {
        return Fail("expected fewer values");
      }
      uint64_t u = 0;
      size_t n = 0;
      if (!DecodeVarint(p_, static_cast<size_t>(end - p_), &u, &n)) {
        return Fail("expected a packed varint");
      }
      if (pos != nullptr) pos->push_back(this->pos());
      out->push_back(static_cast<int64_t>(u));
      p_ += n;
    }
    return true;
  }

  // The bytes from the next one to the end of the current message; false
  // when there are none (as WireReader, whose buffer ends at the limit).
  bool PeekBuffer(const uint8_t** data, size_t* size) {
    if (failed_ || p_ == limit_) return false;
    *data = p_;
    *size = Left();
    return true;
  }
  bool SkipBytes(const char* /*what*/, int64_t n) {
    if (failed_) return false;
    if (n < 0 || n > bytes_left()) return Fail("expected bytes to skip");
    p_ += n;
    return true;
  }

  bool Enter(const char* /*what*/, int wire_type, int* saved) {
    size_t len = 0;
    if (wire_type != kLen || !ReadLength(&len)) {
      return Fail("expected a submessage");
    }
    if (depth_ >= kMaxMessageDepth) return Fail("expected less nesting");
    *saved = static_cast<int>(limit_ - data_);
    limit_ = p_ + len;
    ++depth_;
    return true;
  }
  bool Leave(int saved) {
    if (failed_) return false;
    if (p_ != limit_) return Fail("expected the end of a submessage");
    limit_ = data_ + saved;
    --depth_;
    return true;
  }
  bool Skip(const char* what, int wire_type) {
    if (failed_) return false;
    switch (wire_type) {
      case kVarint: {
        uint64_t u = 0;
        return ReadVarint(what, &u);
      }
      case kFixed64:
        return SkipBytes(what, 8);
      case kFixed32:
        return SkipBytes(what, 4);
      case kLen: {
        size_t len = 0;
        if (!ReadLength(&len)) return false;
        p_ += len;
        return true;
      }
      default:
        return Fail("expected wire type 0, 1, 2 or 5");
    }
  }

  bool Fail(std::string message) {
    return FailAt(offset(), std::move(message));
  }
  bool FailAt(int64_t /*at*/, std::string message) {
    if (!failed_) {
      failed_ = true;
      error_ = std::move(message);
    }
    return false;
  }

 private:
  size_t Left() const { return static_cast<size_t>(limit_ - p_); }
  // A length prefix that fits what is left of the current message (and
  // protobuf's 2 GiB), p_ moved past it.
  bool ReadLength(size_t* len) {
    if (failed_) return false;
    uint64_t v = 0;
    size_t n = 0;
    if (!DecodeVarint(p_, Left(), &v, &n) || v > Left() - n || v > INT_MAX) {
      return Fail("expected a length within the message");
    }
    p_ += n;
    *len = static_cast<size_t>(v);
    return true;
  }

  const uint8_t* const data_;
  const uint8_t* p_;
  const uint8_t* limit_;
  const int64_t base_;
  int depth_;
  bool failed_ = false;
  std::string error_;
};

}  // namespace topolint::hlo::proto

#endif  // TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_MEM_READER_H_
