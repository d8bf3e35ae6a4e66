// DecodeShape (the in-place fast path of ReadShape) against ReadShape: on
// every input it either declines (false) or gives the very shape ReadShape
// gives, and it never accepts what ReadShape refuses. Inputs: shapes of
// every form the writer makes, each cut at every length, each with one byte
// changed at every position, and unknown fields of every wire type.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "checker/hlo/hlo_debug.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/shape_builders.h"

namespace topolint::hlo::proto {
namespace {

using testing::ArrayShape;
using testing::TupleShape;

namespace pw = testing::proto_writer;

struct Result {
  bool ok = false;
  Shape shape;
};

Result Slow(const std::string& bytes) {
  google::protobuf::io::ArrayInputStream in(bytes.data(),
                                            static_cast<int>(bytes.size()));
  WireReader r(&in);
  r.LimitTo(static_cast<int64_t>(bytes.size()));
  Result res;
  int64_t nodes = 0;
  res.ok = ReadShape(r, 0, &nodes, &res.shape) && !r.failed();
  return res;
}

bool SameShape(const Shape& a, const Shape& b) {
  if (a.known != b.known || a.is_tuple != b.is_tuple ||
      a.element_type != b.element_type || a.dims != b.dims ||
      a.tuple.size() != b.tuple.size()) {
    return false;
  }
  for (size_t i = 0; i < a.tuple.size(); ++i) {
    if (!SameShape(a.tuple[i], b.tuple[i])) return false;
  }
  return true;
}

// Checks the contract on `bytes`; true when the fast path accepted them.
bool Agree(const std::string& bytes) {
  Shape fast;
  int64_t nodes = 0;
  const bool accepted =
      DecodeShape(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                  0, &nodes, &fast);
  const Result slow = Slow(bytes);
  if (accepted) {
    EXPECT_TRUE(slow.ok) << "the fast path accepted what ReadShape refuses";
    EXPECT_TRUE(SameShape(fast, slow.shape))
        << ShapeToString(fast) << " vs " << ShapeToString(slow.shape);
  }
  return accepted;
}

std::vector<std::string> Samples() {
  std::vector<std::string> out;
  const Shape a = ArrayShape("bf16", {4, 64, 4096});
  const Shape b = ArrayShape("f32", {});
  const Shape big = ArrayShape("s32", {1 << 20, 3, 300});
  out.push_back(pw::ShapeProto(a));
  out.push_back(pw::ShapeProto(b));
  out.push_back(pw::ShapeProto(big));
  out.push_back(pw::ShapeProto(TupleShape({a, b})));
  out.push_back(
      pw::ShapeProto(TupleShape({a, TupleShape({b, big}), TupleShape({})})));
  // Unknown fields of every wire type (a layout, is_dynamic_dimension, a
  // fixed64 and a fixed32), dims not packed, and a large element type.
  std::string extra = pw::ShapeProto(a);
  pw::Bytes(&extra, 5, std::string("\x0a\x02\x01\x00", 4));
  pw::Varint(&extra, 6, 1);
  extra += std::string("\x39\x01\x02\x03\x04\x05\x06\x07\x08", 9);  // 7:fixed64
  extra += std::string("\x45\x01\x02\x03\x04", 5);                  // 8:fixed32
  pw::Varint(&extra, 3, 7);
  pw::Varint(&extra, 2, 1000);
  out.push_back(extra);
  return out;
}

TEST(DecodeShapeTest, AcceptsWhatTheWriterMakesWithTheSameShape) {
  for (const std::string& s : Samples()) EXPECT_TRUE(Agree(s));
}

TEST(DecodeShapeTest, EveryCutAndEveryChangedByteAgreesOrDeclines) {
  int accepted = 0;
  for (const std::string& s : Samples()) {
    for (size_t n = 0; n <= s.size(); ++n) accepted += Agree(s.substr(0, n));
    for (size_t i = 0; i < s.size(); ++i) {
      for (int v : {0x00, 0x01, 0x02, 0x05, 0x07, 0x0b, 0x12, 0x1a, 0x22, 0x7f,
                    0x80, 0xff}) {
        std::string t = s;
        t[i] = static_cast<char>(v);
        accepted += Agree(t);
      }
    }
  }
  EXPECT_GT(accepted, 100);  // the contract was exercised both ways
}

TEST(DecodeShapeTest, RandomBytesAgreeOrDecline) {
  std::mt19937 rng(28);
  for (int k = 0; k < 20000; ++k) {
    std::string t(static_cast<size_t>(rng() % 24), '\0');
    for (char& c : t) c = static_cast<char>(rng() % 256);
    Agree(t);
  }
}

// The memo in front of DecodeShape gives, for every input in a sequence
// that repeats, alternates and changes shapes (more than it holds), the
// shape DecodeShape gives, into a Shape that held another one before, and
// declines what DecodeShape declines.
TEST(DecodeShapeTest, TheMemoGivesWhatDecodeShapeGives) {
  std::vector<std::string> inputs = Samples();
  inputs.push_back(std::string("\x10\x0b\x02", 3));  // cut: declined
  // Shapes of the same length that differ in one byte.
  inputs.push_back(pw::ShapeProto(ArrayShape("f32", {4, 64})));
  inputs.push_back(pw::ShapeProto(ArrayShape("s32", {4, 64})));
  inputs.push_back(pw::ShapeProto(ArrayShape("f32", {4, 65})));
  inputs.push_back(pw::ShapeProto(ArrayShape("f32", {5, 64})));
  std::mt19937 rng(5);
  ShapeMemo memo;
  Shape out = ArrayShape("s8", {9, 9, 9});
  int recalled = 0;
  for (int k = 0; k < 2000; ++k) {
    const std::string& in = inputs[rng() % inputs.size()];
    const auto* data = reinterpret_cast<const uint8_t*>(in.data());
    Shape want;
    int64_t nodes = 0;
    const bool ok = DecodeShape(data, in.size(), 0, &nodes, &want);
    const ShapeMemo before = memo;
    out.Clear();
    ASSERT_EQ(DecodeShapeRemembered(data, in.size(), &memo, &out), ok) << k;
    if (!ok) continue;
    EXPECT_TRUE(SameShape(out, want))
        << ShapeToString(out) << " vs " << ShapeToString(want);
    bool held = false;
    for (const ShapeMemo::Entry& e : before.entries) held |= e.bytes == in;
    recalled += held;
  }
  EXPECT_GT(recalled, 500);  // the memo was used
}

TEST(DecodeShapeTest, DeclinesBeyondItsLimits) {
  // Deeper than kMaxFastShapeDepth: declined (ReadShape decodes it).
  Shape s = ArrayShape("f32", {1});
  for (int d = 0; d <= kMaxFastShapeDepth + 1; ++d) s = TupleShape({s});
  EXPECT_FALSE(Agree(pw::ShapeProto(s)));
  EXPECT_TRUE(Slow(pw::ShapeProto(s)).ok);
  // More dims than kMaxShapeDims: declined, and ReadShape refuses them.
  std::vector<int64_t> dims(static_cast<size_t>(kMaxShapeDims) + 1, 2);
  const std::string many = pw::ShapeProto(ArrayShape("f32", dims));
  EXPECT_FALSE(Agree(many));
  EXPECT_FALSE(Slow(many).ok);
}

}  // namespace
}  // namespace topolint::hlo::proto
