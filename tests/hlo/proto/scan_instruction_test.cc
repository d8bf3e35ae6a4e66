// ScanInstruction (the second pass's walk of an instruction that is not a
// collective, hlo_proto_scan.cc) against a plain model of its contract
// written here: a field loop that takes every tag and length through
// DecodeVarint and declines a wire type ReadInstruction would refuse for a
// field it reads, and every group or pair field. Both must agree on
// whether the instruction is taken and on what is kept of it (id, opcode,
// the last shape's bytes and offset), on instructions of every kind, each
// cut at every length, with every byte set to a dozen values, and with
// random bytes changed.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "checker/hlo/proto/hlo_proto_internal.h"
#include "gtest/gtest.h"
#include "tests/common/byte_mutations.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/shape_builders.h"

namespace topolint::hlo::proto {
namespace {

using testing::ArrayShape;
using testing::TupleShape;

namespace pw = testing::proto_writer;

// The wire type ReadInstruction expects for `field`: -1 any (skipped),
// -2 varint or length-delimited (repeated integers), -3 refused.
int ExpectedWireType(uint32_t field) {
  switch (field) {
    case 1:   // name
    case 2:   // opcode
    case 3:   // shape
    case 7:   // metadata
    case 68:  // frontend_attributes
      return kLen;
    case 26:  // channel_id
    case 35:  // id
    case 71:  // use_global_device_ids
      return kVarint;
    case 14:  // dimensions
    case 20:  // dynamic_slice_sizes
    case 36:  // operand_ids
    case 38:  // called_computation_ids
      return -2;
    case 49:  // replica_groups
    case 52:  // source_target_pairs
    case 87:  // collective_device_list
    case 92:  // iota_collective_device_list
    case 93:  // mesh_axes_replica_group_list
      return -3;
    default:
      return -1;
  }
}

bool ModelScan(const uint8_t* data, size_t size, InstructionView* v) {
  *v = InstructionView();
  size_t i = 0;
  while (i < size) {
    uint64_t tag = 0;
    size_t n = 0;
    if (!DecodeVarint(data + i, size - i, &tag, &n) || tag > UINT32_MAX) {
      return false;
    }
    i += n;
    const uint32_t field = static_cast<uint32_t>(tag >> 3);
    const int wt = static_cast<int>(tag & 7);
    if (field == 0) return false;
    const int expected = ExpectedWireType(field);
    if (expected == -3 || (expected >= 0 && wt != expected) ||
        (expected == -2 && wt != kVarint && wt != kLen)) {
      return false;
    }
    if (wt == kVarint) {
      uint64_t value = 0;
      if (!DecodeVarint(data + i, size - i, &value, &n)) return false;
      i += n;
      if (field == 35) {
        v->has_id = true;
        v->id = static_cast<int64_t>(value);
      }
    } else if (wt == kFixed64 || wt == kFixed32) {
      const size_t width = wt == kFixed64 ? 8 : 4;
      if (size - i < width) return false;
      i += width;
    } else if (wt == kLen) {
      uint64_t len = 0;
      if (!DecodeVarint(data + i, size - i, &len, &n)) return false;
      i += n;
      if (len > size - i) return false;
      const char* at = reinterpret_cast<const char*>(data + i);
      if (field == 2) {
        v->opcode = std::string_view(at, len < 64 ? len : 64);
      } else if (field == 3) {
        v->has_shape = true;
        v->shape = std::string_view(at, len);
      }
      i += len;
    } else {
      return false;
    }
  }
  return true;
}

// Checks the contract on `bytes`; true when the instruction was taken.
bool Agree(const std::string& bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  InstructionView fast;
  InstructionView model;
  const bool taken = ScanInstruction(data, bytes.size(), &fast);
  EXPECT_EQ(taken, ModelScan(data, bytes.size(), &model));
  if (taken) {
    EXPECT_EQ(fast.has_id, model.has_id);
    EXPECT_EQ(fast.id, model.id);
    EXPECT_EQ(fast.opcode, model.opcode);
    EXPECT_EQ(fast.has_shape, model.has_shape);
    EXPECT_EQ(fast.shape, model.shape);
    EXPECT_EQ(fast.shape.data(), model.shape.data());  // the same bytes
  }
  return taken;
}

std::vector<std::string> Samples() {
  const Shape a = ArrayShape("bf16", {4, 64, 4096});
  const Shape b = ArrayShape("f32", {});
  std::vector<std::string> out;
  // What XLA writes for most instructions: name, opcode, shape, metadata,
  // id (a three-byte varint here) and operand ids.
  std::string plain;
  pw::Bytes(&plain, 1, "multiply.15");
  pw::Bytes(&plain, 2, "multiply");
  pw::Bytes(&plain, 3, pw::ShapeProto(a));
  std::string md;
  pw::Bytes(&md, 2, "jit(step)/mul");
  pw::Varint(&md, 4, 1012);
  pw::Bytes(&plain, 7, md);
  pw::Varint(&plain, 35, 70000);
  pw::Packed(&plain, 36, {69998, 69999});
  out.push_back(plain);
  // A tuple shape, a long name (a two-byte length), fields past 127, a
  // fusion kind, dimensions as varints, fixed-width unknown fields, two
  // shapes (the last one is kept).
  std::string more;
  pw::Bytes(&more, 1, std::string(300, 'n'));
  pw::Bytes(&more, 2, "fusion");
  pw::Bytes(&more, 3, pw::ShapeProto(b));
  pw::Bytes(&more, 3, pw::ShapeProto(TupleShape({a, b})));
  pw::Bytes(&more, 11, "kLoop");
  pw::Varint(&more, 14, 1);
  pw::Varint(&more, 14, 2);
  more += std::string("\x79\x01\x02\x03\x04\x05\x06\x07\x08", 9);  // fixed64
  more += std::string("\x85\x01\x01\x02\x03\x04", 6);              // fixed32
  pw::Varint(&more, 200, 5);
  pw::Bytes(&more, 3000, "far");
  pw::Varint(&more, 35, 12);
  pw::Packed(&more, 38, {3});
  out.push_back(more);
  // A collective: taken up to its group field, then declined.
  std::string ar = plain;
  pw::Varint(&ar, 26, 5);
  pw::Bytes(&ar, 49, pw::Group({0, 1}));
  out.push_back(ar);
  return out;
}

TEST(ScanInstructionTest, TakesPlainInstructionsAsTheModelDoes) {
  const std::vector<std::string> samples = Samples();
  EXPECT_TRUE(Agree(samples[0]));
  EXPECT_TRUE(Agree(samples[1]));
  EXPECT_FALSE(Agree(samples[2]));  // a collective
}

TEST(ScanInstructionTest, EveryCutAndEveryChangedByteAgrees) {
  int taken = 0;
  int declined = 0;
  testing::EveryCutAndChangedByte(Samples(), Agree, &taken, &declined);
  EXPECT_GT(taken, 1000);
  EXPECT_GT(declined, 1000);
}

TEST(ScanInstructionTest, RandomChangesAgree) {
  testing::RandomChanges(Samples(), 2805, 30000, Agree);
  std::mt19937 rng(2805);
  for (int k = 0; k < 20000; ++k) {  // bytes with no structure at all
    std::string t(static_cast<size_t>(rng() % 24), '\0');
    for (char& c : t) c = static_cast<char>(rng() % 256);
    Agree(t);
  }
}

}  // namespace
}  // namespace topolint::hlo::proto
