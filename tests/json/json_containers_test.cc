// The compact pieces of json::Value (checker/json/json_containers.h) and
// the memory bound of a parsed document.
#include "checker/json/json_containers.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "checker/json/json_loader.h"
#include "checker/json/json_value.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::json {
namespace {

using ::testing::HasSubstr;

TEST(JsonStringTest, HoldsInlineAndHeapLengths) {
  for (size_t n : {0, 1, 6, 7, 8, 9, 15, 16, 100, 5000}) {
    SCOPED_TRACE(n);
    std::string want;
    for (size_t i = 0; i < n; ++i) want += static_cast<char>('a' + i % 26);
    const String s(want);
    EXPECT_EQ(s.size(), n);
    EXPECT_EQ(s.empty(), n == 0);
    EXPECT_EQ(std::string(s), want);
    EXPECT_EQ(s.view(), want);
    String copy = s;
    EXPECT_EQ(copy, want);
    String moved = std::move(copy);
    EXPECT_EQ(moved, want);
    EXPECT_TRUE(copy.empty());  // NOLINT: moved-from is empty by contract
    String assigned;
    assigned = moved;
    String& alias = assigned;
    assigned = alias;  // self-assignment keeps the text
    EXPECT_EQ(assigned, want);
  }
}

TEST(JsonStringTest, ReadsLikeAStdString) {
  const String s("tp_degree_and_more");
  const std::string text = "tp_degree_and_more";
  EXPECT_TRUE(s == "tp_degree_and_more");
  EXPECT_TRUE("tp_degree_and_more" == s);
  EXPECT_TRUE(s == text);
  EXPECT_TRUE(s == std::string_view(text));
  EXPECT_TRUE(s != "tp");
  EXPECT_FALSE(s == "tp_degree_and_mor");
  EXPECT_EQ(s[0], 't');
  EXPECT_EQ(s.substr(3, 6), "degree");
  EXPECT_EQ(s.substr(13), "_more");
  EXPECT_EQ("\"" + s + "\"", "\"tp_degree_and_more\"");
  EXPECT_EQ(fmt::format("[{}]", s), "[tp_degree_and_more]");
  EXPECT_EQ(fmt::format("[{:>4}]", String("ab")), "[  ab]");
  EXPECT_TRUE(absl::EndsWith(s, "_more"));
  const std::string copied = s;
  EXPECT_EQ(copied, text);
  std::string assigned;
  assigned = s;
  EXPECT_EQ(assigned, text);
  const std::string shown = s.size() > 4 ? s.substr(0, 4) + "..." : s;
  EXPECT_EQ(shown, "tp_d...");
}

TEST(JsonStringTest, AssigningAPartOfItselfIsSafe) {
  String s(std::string(100, 'x') + "tail");
  s = s.view().substr(100);
  EXPECT_EQ(s, "tail");
  String t("a longer text here");
  t = std::string_view(t).substr(2, 6);
  EXPECT_EQ(t, "longer");
}

TEST(JsonChildrenTest, GrowsCopiesAndMovesLikeAVector) {
  Children<String> list;
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.begin(), list.end());
  for (int i = 0; i < 1000; ++i) list.push_back(String(std::to_string(i)));
  ASSERT_EQ(list.size(), 1000u);
  EXPECT_EQ(list[0], "0");
  EXPECT_EQ(list.back(), "999");
  list.push_back(list[5]);  // an element of the list itself
  EXPECT_EQ(list.back(), "5");
  Children<String> copy = list;
  EXPECT_EQ(copy.size(), 1001u);
  EXPECT_EQ(copy[123], "123");
  Children<String> moved = std::move(copy);
  EXPECT_EQ(moved.size(), 1001u);
  EXPECT_TRUE(copy.empty());  // NOLINT: moved-from is empty by contract
  int n = 0;
  for (const String& s : moved) n += s == "7" ? 1 : 0;
  EXPECT_EQ(n, 1);
  std::vector<String> v = {"a", "b"};
  moved = std::move(v);
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(moved[1], "b");
}

TEST(JsonPackedPosTest, ConvertsToAndFromTextPos) {
  const PackedPos p = TextPos{12, 345};
  const TextPos t = p;
  EXPECT_EQ(t.line, 12);
  EXPECT_EQ(t.column, 345);
  const PackedPos huge(int64_t{1} << 40, -5);
  EXPECT_EQ(huge.line, INT32_MAX);
  EXPECT_EQ(huge.column, 0);
}

TEST(JsonValueTest, IsSmall) {
  // The point of the compact representation (docs/reliability.md bug 4):
  // a value was ~170 bytes.
  EXPECT_LE(sizeof(Value), 56u);
  EXPECT_LE(sizeof(Member), 80u);
}

TEST(JsonValueTest, ParsedListsKeepNoGrowthSlack) {
  std::string text = "{\"k\": [0";
  for (int i = 1; i < 1000; ++i) text += fmt::format(", {}", i);
  text += "], \"a key longer than seven bytes\": \"and a long string value\"}";
  ParseResult r = Parse(text);
  ASSERT_TRUE(r.ok) << r.error.message;
  const Value* k = r.root.Find("k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->array.size(), 1000u);
  EXPECT_EQ(k->array.capacity(), 1000u);
  EXPECT_EQ(k->array[999].int_value, 999);
  EXPECT_EQ(k->array[999].number_text, "999");
  EXPECT_EQ(r.root.object.capacity(), 2u);
  EXPECT_EQ(r.root.object[1].key, "a key longer than seven bytes");
  EXPECT_EQ(r.root.object[1].value.string_value, "and a long string value");
}

// A document of `n` values: one array of n - 1 zeros.
std::string ZerosDocument(size_t n) {
  std::string text = "[0";
  text.reserve(2 * n + 2);
  for (size_t i = 2; i < n; ++i) text += ",0";
  return text + "]";
}

TEST(JsonValueTest, TheValueCapIsASyntaxErrorAtTheFirstValueBeyondIt) {
  ParseResult at_cap = Parse(ZerosDocument(kMaxValueCount));
  EXPECT_TRUE(at_cap.ok) << at_cap.error.message;
  ParseResult beyond = Parse(ZerosDocument(kMaxValueCount + 1));
  ASSERT_FALSE(beyond.ok);
  EXPECT_THAT(beyond.error.message,
              HasSubstr(fmt::format("more than {} values", kMaxValueCount)));
  EXPECT_EQ(beyond.error.pos.line, 1);
  // The last zero: "[0" then ",0" per further value.
  EXPECT_EQ(beyond.error.pos.column, static_cast<int64_t>(2 * kMaxValueCount));
}

}  // namespace
}  // namespace topolint::json
