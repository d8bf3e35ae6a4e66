// Malformed input must yield a located error, never a crash or a position
// outside the document. Deterministic pseudo-random inputs.
#include <cstdint>
#include <random>
#include <string>

#include "checker/json/json_loader.h"
#include "gtest/gtest.h"

namespace topolint::json {
namespace {

int64_t LineCount(const std::string& s) {
  int64_t n = 1;
  for (char c : s) n += c == '\n';
  return n;
}

void ExpectSane(const std::string& text) {
  ParseResult r = Parse(text);
  if (r.ok) return;
  EXPECT_GE(r.error.pos.line, 1) << text;
  EXPECT_LE(r.error.pos.line, LineCount(text)) << text;
  EXPECT_GE(r.error.pos.column, 1) << text;
  EXPECT_LE(r.error.pos.column, static_cast<int64_t>(text.size()) + 1) << text;
  EXPECT_FALSE(r.error.message.empty()) << text;
  EXPECT_EQ(r.error.message.find("json.exception"), std::string::npos)
      << r.error.message;
}

TEST(JsonRobustnessTest, RandomBytes) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 2000; ++i) {
    std::string text(rng() % 64, '\0');
    for (char& c : text) c = static_cast<char>(rng() & 0xff);
    ExpectSane(text);
  }
}

TEST(JsonRobustnessTest, MutatedDocuments) {
  const std::string base =
      "{\"CCInfo\": {\"replica_groups\": [[[0, 1], [2, 3]]],\n"
      "  \"src_target_pairs\": [[0, 1]], \"#rank_world_size\": 4,\n"
      "  \"x\": [\"a\\\"b\", -1.5e3, true, false, null, NaN, -Infinity]}}\n";
  const std::string alphabet =
      "{}[]:,\"\\ \n\r\t0123456789-+.eEtrufalsnNI\x80\xff";
  std::mt19937 rng(777);
  ASSERT_TRUE(Parse(base).ok);
  for (int i = 0; i < 5000; ++i) {
    std::string text = base;
    const int edits = 1 + rng() % 3;
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text.erase(at, 1);
          break;
        case 1:
          text.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
        default:
          text[at] = alphabet[rng() % alphabet.size()];
      }
      if (text.empty()) text = "x";
    }
    ExpectSane(text);
  }
}

TEST(JsonRobustnessTest, TruncatedPrefixes) {
  const std::string base =
      "{\"a\": [1, 2.5, \"s\\u00e9\", {\"b\": [true, null]}], \"c\": -0}";
  for (size_t n = 0; n < base.size(); ++n) {
    ParseResult r = Parse(base.substr(0, n));
    EXPECT_FALSE(r.ok) << base.substr(0, n);
    EXPECT_EQ(r.error.pos.line, 1);
    EXPECT_LE(r.error.pos.column, static_cast<int64_t>(n) + 1);
  }
}

}  // namespace
}  // namespace topolint::json
