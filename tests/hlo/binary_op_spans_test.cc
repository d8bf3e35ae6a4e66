#include "checker/hlo/binary_op_spans.h"

#include <string>

#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

TEST(BinaryOpSpansTest, FindsTheSpanHoldingAnOffset) {
  BinaryOpSpans spans;
  spans.Add(10, 20, 0, "%a");
  spans.Add(20, 35, 1, "%bb");
  spans.Add(50, 51, -1, "%c");
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_FALSE(spans.Find(9).has_value());
  EXPECT_EQ(spans.Find(10)->op, "%a");
  EXPECT_EQ(spans.Find(19)->op, "%a");
  EXPECT_EQ(spans.Find(20)->op, "%bb");
  EXPECT_EQ(spans.Find(20)->computation, 1);
  EXPECT_EQ(spans.Find(34)->end, 35);
  EXPECT_FALSE(spans.Find(35).has_value());  // between spans
  EXPECT_EQ(spans.Find(50)->computation, -1);
  EXPECT_FALSE(spans.Find(51).has_value());
  EXPECT_EQ(spans.back().op, "%c");
  EXPECT_EQ(spans[1].begin, 20);
}

TEST(BinaryOpSpansTest, NamesAcrossChunksAndLongNamesStayWhole) {
  BinaryOpSpans spans;
  // Enough names to fill several 64 KiB chunks, and names longer than a
  // chunk, which get one of their own.
  const std::string huge(200 << 10, 'h');
  for (int i = 0; i < 20000; ++i) {
    const std::string name =
        i % 5000 == 0 ? huge + std::to_string(i) : "%op." + std::to_string(i);
    spans.Add(int64_t{i} * 10, int64_t{i} * 10 + 5, i % 7, name);
  }
  ASSERT_EQ(spans.size(), 20000u);
  for (int i = 0; i < 20000; ++i) {
    const BinaryOpSpans::Span s = spans[static_cast<size_t>(i)];
    const std::string want =
        i % 5000 == 0 ? huge + std::to_string(i) : "%op." + std::to_string(i);
    ASSERT_EQ(s.op, want) << i;
    ASSERT_EQ(s.begin, int64_t{i} * 10);
    ASSERT_EQ(s.end, int64_t{i} * 10 + 5);
    ASSERT_EQ(s.computation, i % 7);
    ASSERT_EQ(spans.Find(s.begin + 4)->op, want);
  }
}

TEST(BinaryOpSpansTest, EmptyNamesAndEmptySpans) {
  BinaryOpSpans spans;
  EXPECT_TRUE(spans.empty());
  EXPECT_FALSE(spans.Find(0).has_value());
  spans.Add(5, 5, 0, "");  // holds no byte
  spans.Add(5, 9, 0, "");
  EXPECT_EQ(spans.Find(5)->end, 9);
  EXPECT_EQ(spans.Find(5)->op, "");
  spans.Add(9, 3, 0, "%back");  // an end before the begin is an empty span
  EXPECT_EQ(spans.back().end, 9);
  EXPECT_FALSE(spans.Find(9).has_value());
}

}  // namespace
}  // namespace topolint::hlo
