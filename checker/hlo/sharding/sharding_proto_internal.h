// The protobuf wire reader and the decoder behind DecodeOpSharding
// (internal to checker/hlo/sharding: sharding_proto.cc decodes OpSharding,
// sharding_named_proto.cc NamedShardingProto and its mesh).
#ifndef TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_PROTO_INTERNAL_H_
#define TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_PROTO_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checker/hlo/sharding/sharding.h"

namespace topolint::hlo::sharding_internal {

inline constexpr size_t kMaxProtoValues = size_t{1} << 21;
inline constexpr int kMaxProtoNesting = 64;

enum WireType { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

class Wire {
 public:
  Wire(std::string_view bytes, size_t base) : b_(bytes), base_(base) {}

  bool done() const { return p_ >= b_.size(); }
  size_t offset() const { return base_ + p_; }

  bool Varint(uint64_t* v) {
    uint64_t out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= b_.size()) return false;
      const uint8_t byte = static_cast<uint8_t>(b_[p_++]);
      out |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) {
        *v = out;
        return true;
      }
    }
    return false;
  }

  bool Tag(uint32_t* field, int* wire_type) {
    uint64_t t = 0;
    if (!Varint(&t) || (t >> 3) == 0 || (t >> 3) > 0x1fffffff) return false;
    *field = static_cast<uint32_t>(t >> 3);
    *wire_type = static_cast<int>(t & 7);
    return true;
  }

  // A length-delimited payload; false when it runs past the end.
  bool Bytes(std::string_view* out, size_t* at) {
    uint64_t n = 0;
    if (!Varint(&n) || n > b_.size() - p_) return false;
    *at = base_ + p_;
    *out = b_.substr(p_, static_cast<size_t>(n));
    p_ += static_cast<size_t>(n);
    return true;
  }

  bool Skip(int wire_type) {
    uint64_t v = 0;
    std::string_view s;
    size_t at = 0;
    switch (wire_type) {
      case kVarint:
        return Varint(&v);
      case kFixed64:
        if (b_.size() - p_ < 8) return false;
        p_ += 8;
        return true;
      case kFixed32:
        if (b_.size() - p_ < 4) return false;
        p_ += 4;
        return true;
      case kLen:
        return Bytes(&s, &at);
      default:
        return false;
    }
  }

 private:
  std::string_view b_;
  size_t base_;
  size_t p_ = 0;
};

// Decodes one message tree; the first error wins (message and offset).
class Decoder {
 public:
  bool Op(std::string_view bytes, size_t base, int depth, Sharding* out);
  const std::string& error() const { return error_; }
  size_t error_offset() const { return error_offset_; }

  // Helpers shared by the two files.
  bool Fail(size_t at, std::string message);
  // A repeated integer field, packed (kLen) or one value (kVarint).
  bool Ints(Wire& w, int wire_type, const char* name,
            std::vector<int64_t>* out);
  bool Int(Wire& w, int wire_type, const char* name, int64_t* out);
  bool Message(Wire& w, int wire_type, const char* name, std::string_view* out,
               size_t* at);
  // NamedShardingProto (sharding_named_proto.cc).
  bool Named(std::string_view bytes, size_t base, int depth, Sharding* out);

 private:
  struct PendingRef {
    std::vector<NamedAxisRef>* list;
    size_t index_in_list;
    int64_t axis;
    size_t at;
  };
  bool Tiled(Sharding s, bool replicate_last, size_t dims_at, size_t devices_at,
             size_t iota_at, Sharding* out);
  bool AxisRef(std::string_view bytes, size_t base, int64_t* index,
               NamedAxisRef* ref);
  bool AxisRefs(Wire& w, int wt, const char* name,
                std::vector<NamedAxisRef>* list,
                std::vector<PendingRef>* pending);
  bool Mesh(std::string_view bytes, size_t base, NamedSharding* n);

  std::string error_;
  size_t error_offset_ = 0;
};

}  // namespace topolint::hlo::sharding_internal

#endif  // TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_PROTO_INTERNAL_H_
