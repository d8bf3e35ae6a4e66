// ShapeTable: the per-computation name -> shape-text table behind operands
// written without a shape. Lookups of recent names scan linearly; older ones
// go through the hash index; both must give the latest entry.
#include "checker/hlo/text/shape_table.h"

#include <string>

#include "fmt/format.h"
#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

void Add(ShapeTable& t, std::string_view name, std::string_view shape) {
  t.BeginWithShape(name, shape);
  ASSERT_TRUE(t.Commit());
}

std::string FindOr(ShapeTable& t, std::string_view name) {
  const std::optional<std::string_view> s = t.Find(name);
  return s.has_value() ? std::string(*s) : "<none>";
}

TEST(ShapeTableTest, FindsTheLatestEntryNearAndFar) {
  ShapeTable t(size_t{1} << 20);
  Add(t, "%x", "f32[1]");
  for (int i = 0; i < 500; ++i) Add(t, fmt::format("v.{}", i), "s32[]");
  Add(t, "x", "f32[2]");  // redefined (the '%' does not matter)
  // Far back (index) and near (linear scan) both see the latest `x`.
  EXPECT_EQ(FindOr(t, "%v.3"), "s32[]");
  EXPECT_EQ(FindOr(t, "x"), "f32[2]");
  for (int i = 0; i < 500; ++i) Add(t, fmt::format("w.{}", i), "u8[]");
  EXPECT_EQ(FindOr(t, "%x"), "f32[2]");  // now only reachable by the index
  Add(t, "x", "f32[3]");
  EXPECT_EQ(FindOr(t, "x"), "f32[3]");  // newer than everything indexed
  EXPECT_EQ(FindOr(t, "w.499"), "u8[]");
  EXPECT_EQ(FindOr(t, "nope"), "<none>");
}

TEST(ShapeTableTest, PendingAndAbortedEntriesAreNotFound) {
  ShapeTable t(size_t{1} << 20);
  Add(t, "a", "f32[1]");
  t.BeginWithShape("b", "f32[2]");
  EXPECT_EQ(t.PendingName(), "b");
  EXPECT_EQ(t.PendingShape(), "f32[2]");
  EXPECT_EQ(FindOr(t, "b"), "<none>");
  t.Abort();
  EXPECT_EQ(FindOr(t, "b"), "<none>");
  EXPECT_EQ(FindOr(t, "a"), "f32[1]");
  t.Clear();
  EXPECT_EQ(FindOr(t, "a"), "<none>");
}

TEST(ShapeTableTest, StaysWithinItsBudget) {
  ShapeTable t(4096);
  for (int i = 0; i < 1000; ++i) Add(t, fmt::format("n.{}", i), "f32[8]{0}");
  // Old names were dropped to stay within 4 KiB; the newest remain.
  EXPECT_EQ(FindOr(t, "n.0"), "<none>");
  EXPECT_EQ(FindOr(t, "n.999"), "f32[8]{0}");
}

TEST(ShapeTableTest, ReservesForAShortInputAndStillGrowsPastIt) {
  ShapeTable whole(size_t{8} << 20);
  Add(whole, "a", "f32[1]");
  EXPECT_GT(whole.arena_capacity(), size_t{8} << 20);  // the whole budget

  ShapeTable small(size_t{8} << 20);
  small.set_input_bytes(100);
  Add(small, "a", "f32[1]");
  EXPECT_LT(small.arena_capacity(), size_t{1024});
  // An input that was longer than said (or texts longer than it) still
  // fits: the arena grows, within the budget.
  for (int i = 0; i < 5000; ++i) {
    Add(small, fmt::format("n.{}", i), "f32[8,128]{1,0}");
  }
  EXPECT_EQ(FindOr(small, "a"), "f32[1]");
  EXPECT_EQ(FindOr(small, "n.4999"), "f32[8,128]{1,0}");
  EXPECT_LE(small.arena_capacity(), (size_t{8} << 20) + (size_t{64} << 10));

  ShapeTable tight(4096);
  tight.set_input_bytes(size_t{1} << 30);  // longer than the budget
  Add(tight, "a", "f32[1]");
  EXPECT_LE(tight.arena_capacity(), size_t{4096} + (size_t{64} << 10));
}

}  // namespace
}  // namespace topolint::hlo
