// The binary front end's id -> shape table (proto::ShapeTable): ids that
// grow (a binary search over the entries in order), ids that do not (an
// index built on the first one), the same id kept again, raw and decoded
// shapes of one id, and dropping the older half when full.
#include <string>
#include <vector>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/shape_builders.h"
#include "tests/hlo/hlo_debug.h"

namespace topolint::hlo::proto {
namespace {

using testing::ArrayShape;

std::string Bytes(const Shape& s) {
  return testing::proto_writer::ShapeProto(s);
}

// "f32[4,8]" for the shape the table holds for `id`, "" when none.
std::string Lookup(const ShapeTable& t, int64_t id) {
  google::protobuf::io::ArrayInputStream empty(nullptr, 0);
  WireReader r(&empty);
  Shape out;
  EXPECT_TRUE(t.Find(r, id, &out)) << r.error();
  return out.known ? ShapeToString(out) : "";
}

void KeepRaw(ShapeTable* t, int64_t id, const Shape& s) {
  const std::string b = Bytes(s);
  t->KeepRaw(id, true, b, 0);
}

TEST(ProtoShapeTableTest, GrowingIdsWithGaps) {
  ShapeTable t;
  for (int64_t id = 10; id < 5000; id += 3) {
    KeepRaw(&t, id, ArrayShape("f32", {id}));
  }
  EXPECT_EQ(Lookup(t, 10), "f32[10]");
  EXPECT_EQ(Lookup(t, 13), "f32[13]");
  EXPECT_EQ(Lookup(t, 4999), "f32[4999]");
  EXPECT_EQ(Lookup(t, 11), "");
  EXPECT_EQ(Lookup(t, 9), "");
  EXPECT_EQ(Lookup(t, 5002), "");
}

TEST(ProtoShapeTableTest, IdsThatDoNotGrowAreStillFound) {
  ShapeTable t;
  KeepRaw(&t, 5, ArrayShape("f32", {5}));
  KeepRaw(&t, 7, ArrayShape("f32", {7}));
  KeepRaw(&t, 3, ArrayShape("bf16", {3}));  // smaller than the last: indexed
  KeepRaw(&t, 9, ArrayShape("s32", {9}));
  EXPECT_EQ(Lookup(t, 5), "f32[5]");
  EXPECT_EQ(Lookup(t, 7), "f32[7]");
  EXPECT_EQ(Lookup(t, 3), "bf16[3]");
  EXPECT_EQ(Lookup(t, 9), "s32[9]");
  EXPECT_EQ(Lookup(t, 4), "");
}

TEST(ProtoShapeTableTest, TheLastShapeKeptForAnIdWins) {
  ShapeTable t;
  KeepRaw(&t, 1, ArrayShape("f32", {1}));
  KeepRaw(&t, 2, ArrayShape("f32", {2}));
  KeepRaw(&t, 2, ArrayShape("bf16", {2, 2}));  // the same id again
  EXPECT_EQ(Lookup(t, 2), "bf16[2,2]");
  t.KeepDecoded(1, ArrayShape("s8", {1}));  // decoded after raw
  EXPECT_EQ(Lookup(t, 1), "s8[1]");
  KeepRaw(&t, 1, ArrayShape("u8", {1}));  // raw after decoded
  EXPECT_EQ(Lookup(t, 1), "u8[1]");
  t.KeepRaw(2, false, "", 0);  // no shape at all
  EXPECT_EQ(Lookup(t, 2), "");
}

// Decoded shapes among growing ids (a collective the full decoder read):
// the raw shapes kept after them take the inline path past the largest
// decoded id and the slow one (which drops a decoded entry of the same id)
// up to it; every lookup gives the shape kept last for its id.
TEST(ProtoShapeTableTest, DecodedShapesAmongGrowingIds) {
  ShapeTable t;
  for (int64_t id = 1; id <= 10; ++id) KeepRaw(&t, id, ArrayShape("f32", {id}));
  t.KeepDecoded(20, ArrayShape("s8", {20}));
  t.KeepDecoded(5, ArrayShape("s8", {5}));  // decoded after raw
  for (int64_t id = 11; id <= 30; ++id) {
    KeepRaw(&t, id, ArrayShape("bf16", {id}));
  }
  EXPECT_EQ(Lookup(t, 3), "f32[3]");
  EXPECT_EQ(Lookup(t, 5), "s8[5]");
  EXPECT_EQ(Lookup(t, 15), "bf16[15]");
  EXPECT_EQ(Lookup(t, 20), "bf16[20]");  // raw after decoded
  EXPECT_EQ(Lookup(t, 30), "bf16[30]");
  KeepRaw(&t, 5, ArrayShape("u8", {5}));  // an id that does not grow
  EXPECT_EQ(Lookup(t, 5), "u8[5]");
  KeepRaw(&t, 31, ArrayShape("u8", {31}));
  EXPECT_EQ(Lookup(t, 31), "u8[31]");
  EXPECT_EQ(Lookup(t, 29), "bf16[29]");
}

TEST(ProtoShapeTableTest, ClearAndRefill) {
  ShapeTable t;
  KeepRaw(&t, 1, ArrayShape("f32", {1}));
  t.Clear();
  EXPECT_EQ(Lookup(t, 1), "");
  KeepRaw(&t, 0,
          ArrayShape("f32", {0}));  // a smaller id after a clear: in order
  EXPECT_EQ(Lookup(t, 0), "f32[0]");
}

// A full table drops its older half: the newest half-budget of entries is
// always held, the oldest are gone, and memory stays within the budget.
TEST(ProtoShapeTableTest, AFullTableDropsItsOlderHalfAndKeepsTheNewest) {
  ShapeTable t;
  const std::string one = Bytes(ArrayShape("f32", {1}));
  // Entries per generation: half the budget at 48 bytes plus the shape's.
  const int64_t per_generation =
      static_cast<int64_t>(kMaxBinaryShapeTableBytes / 2 / (48 + one.size()));
  const int64_t n = 3 * per_generation + 100;  // past the budget, twice
  for (int64_t id = 0; id < n; ++id) t.KeepRaw(id, true, one, 0);
  EXPECT_EQ(Lookup(t, 0), "");  // dropped on the way
  EXPECT_EQ(Lookup(t, per_generation), "");
  // The last full generation and the current one are held, in order.
  for (int64_t id = n - per_generation - 100; id < n; ++id) {
    ASSERT_EQ(Lookup(t, id), "f32[1]") << id;
  }
  // An id kept again in the current generation wins over the old one's.
  const int64_t old_id = n - per_generation - 50;
  t.KeepRaw(old_id, true, Bytes(ArrayShape("s32", {2})), 0);
  EXPECT_EQ(Lookup(t, old_id), "s32[2]");
  // ... and a decoded shape likewise.
  t.KeepDecoded(old_id + 1, ArrayShape("bf16", {3}));
  EXPECT_EQ(Lookup(t, old_id + 1), "bf16[3]");
}

TEST(ProtoShapeTableTest, ABadShapeFailsTheReaderAtItsByte) {
  ShapeTable t;
  const std::string bad("\x12\xff", 2);  // a length past the end
  t.KeepRaw(4, true, bad, 100);
  google::protobuf::io::ArrayInputStream empty(nullptr, 0);
  WireReader r(&empty);
  Shape out;
  EXPECT_FALSE(t.Find(r, 4, &out));
  EXPECT_TRUE(r.failed());
  EXPECT_GE(r.error_offset(), 100);
}

}  // namespace
}  // namespace topolint::hlo::proto
