// Protobuf wire-format writing for the test-side writers of binary HLO
// (hlo_proto_writer.h, op_sharding_writer.h): one field at a time, with
// protobuf's CodedOutputStream.
#ifndef TOPOLINT_TESTS_COMMON_PROTO_WIRE_WRITER_H_
#define TOPOLINT_TESTS_COMMON_PROTO_WIRE_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace topolint::testing::proto_wire {

// A varint field.
inline void Varint(std::string* out, uint32_t field, uint64_t v) {
  google::protobuf::io::StringOutputStream so(out);
  google::protobuf::io::CodedOutputStream cos(&so);
  cos.WriteTag(field << 3);
  cos.WriteVarint64(v);
}

// A length-delimited field (a string, bytes or a sub-message).
inline void Bytes(std::string* out, uint32_t field, const std::string& b) {
  google::protobuf::io::StringOutputStream so(out);
  google::protobuf::io::CodedOutputStream cos(&so);
  cos.WriteTag((field << 3) | 2);
  cos.WriteVarint32(static_cast<uint32_t>(b.size()));
  cos.WriteString(b);
}

// A packed repeated integer field.
inline void Packed(std::string* out, uint32_t field,
                   const std::vector<int64_t>& values) {
  std::string body;
  {
    google::protobuf::io::StringOutputStream so(&body);
    google::protobuf::io::CodedOutputStream cos(&so);
    for (int64_t v : values) cos.WriteVarint64(static_cast<uint64_t>(v));
  }
  Bytes(out, field, body);
}

}  // namespace topolint::testing::proto_wire

#endif  // TOPOLINT_TESTS_COMMON_PROTO_WIRE_WRITER_H_
