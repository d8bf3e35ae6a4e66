#include "checker/hlo/binary_op_spans.h"

#include <string>
#include <vector>

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

// `i` in letters ("ba" for 26): a name without a number, which is packed
// into the chunks.
std::string Letters(int i) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('a' + i % 26));
    i /= 26;
  } while (i > 0);
  return s;
}

TEST(BinaryOpSpansTest, NamesAcrossChunksAndLongNamesStayWhole) {
  BinaryOpSpans spans;
  // Enough names to fill several 64 KiB chunks, and names longer than a
  // chunk, which get one of their own.
  const std::string huge(200 << 10, 'h');
  for (int i = 0; i < 20000; ++i) {
    const std::string name =
        i % 5000 == 0 ? huge + std::to_string(i) : "%op-" + Letters(i);
    spans.Add(int64_t{i} * 10, int64_t{i} * 10 + 5, i % 7, name);
  }
  ASSERT_EQ(spans.size(), 20000u);
  for (int i = 0; i < 20000; ++i) {
    const BinaryOpSpans::Span s = spans[static_cast<size_t>(i)];
    const std::string want =
        i % 5000 == 0 ? huge + std::to_string(i) : "%op-" + Letters(i);
    ASSERT_EQ(s.op, want) << i;
    ASSERT_EQ(s.begin, int64_t{i} * 10);
    ASSERT_EQ(s.end, int64_t{i} * 10 + 5);
    ASSERT_EQ(s.computation, i % 7);
    ASSERT_EQ(spans.Find(s.begin + 4)->op, want);
  }
}

// Names are kept as XLA writes them whether they are a prefix and a number
// (kept as such) or not (packed into chunks): every one comes back as it
// was added.
TEST(BinaryOpSpansTest, NumberedAndOtherNamesComeBackAsAdded) {
  std::vector<std::string> names = {
      "%all-reduce.0", "%all-reduce.12",       "%x.007",
      "%x.7",          "%n.123456789",         "%n.1234567890",
      "%n.4294967295", "%n.99999999999999999", "7",
      "%all-reduce",   "%all-reduce.",         "",
      "%a.1b",         "%\xc3\xa9.5",          "%all-reduce.12"};
  // More distinct prefixes than are interned: the rest go to the chunks.
  for (int i = 0; i < 5000; ++i) {
    names.push_back("%p" + std::to_string(i) + "x.1");
    names.push_back("%name-without-number-" + std::string(1, 'a' + i % 26));
  }
  BinaryOpSpans spans;
  for (size_t i = 0; i < names.size(); ++i) {
    spans.Add(static_cast<int64_t>(i) * 4, static_cast<int64_t>(i) * 4 + 3, 0,
              names[i]);
  }
  ASSERT_EQ(spans.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    ASSERT_EQ(spans[i].op, names[i]) << i;
    ASSERT_EQ(spans.Find(static_cast<int64_t>(i) * 4 + 2)->op, names[i]);
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
