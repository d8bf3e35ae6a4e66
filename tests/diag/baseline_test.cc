#include "checker/diag/baseline.h"

#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/diag/finding_samples.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> Messages(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.message);
  return out;
}

TEST(BaselineTest, WriteProducesTheDocumentedShape) {
  const Finding f = SampleFinding("hlo-empty-group", {"m.hlo", 3, 9},
                                  "group 0 is empty", Severity::kError, "%ar");
  const nlohmann::json doc = nlohmann::json::parse(WriteBaseline({f}));
  const nlohmann::json expected = {
      {"version", 1},
      {"findings",
       nlohmann::json::array({{{"rule", "hlo-empty-group"},
                               {"file", "m.hlo"},
                               {"fingerprint", RootedFingerprint(f)},
                               {"message", "group 0 is empty"}}})}};
  EXPECT_EQ(doc, expected);
}

TEST(BaselineTest, WriteOrderDoesNotDependOnLines) {
  const Finding a = SampleFinding("r", {"b.hlo", 1, 1}, "x");
  const Finding b = SampleFinding("r", {"a.hlo", 9, 1}, "y");
  Finding a_moved = a;
  a_moved.loc.line = 50;
  EXPECT_EQ(WriteBaseline({a, b}), WriteBaseline({b, a_moved}));
}

TEST(BaselineTest, RoundTripSuppressesEverything) {
  const std::vector<Finding> findings = {
      SampleFinding("r", {"a.hlo", 1, 1}, "one"),
      SampleFinding("s", {"b.json", 0, 0}, "two", Severity::kWarning)};
  std::string error;
  const auto baseline = LoadBaseline(WriteBaseline(findings), &error);
  ASSERT_TRUE(baseline.has_value()) << error;
  ASSERT_EQ(baseline->size, 2);
  const BaselineResult result = ApplyBaseline(findings, *baseline);
  EXPECT_TRUE(result.kept.empty());
  EXPECT_EQ(result.suppressed, 2);
  EXPECT_EQ(result.stale, 0);
}

TEST(BaselineTest, MovedFindingIsStillSuppressed) {
  Finding f =
      SampleFinding("r", {"a.hlo", 10, 4}, "x", Severity::kError, "%ar");
  std::string error;
  const auto baseline = LoadBaseline(WriteBaseline({f}), &error);
  ASSERT_TRUE(baseline.has_value()) << error;
  f.loc.line = 42;  // code was inserted above
  const BaselineResult result = ApplyBaseline({f}, *baseline);
  EXPECT_TRUE(result.kept.empty());
  EXPECT_EQ(result.suppressed, 1);
}

TEST(BaselineTest, MultisetSemantics) {
  // Two identical findings accepted; a third copy appears later.
  const Finding f = SampleFinding("r", {"a.hlo", 1, 1}, "same");
  std::string error;
  const auto baseline = LoadBaseline(WriteBaseline({f, f}), &error);
  ASSERT_TRUE(baseline.has_value()) << error;

  Finding third = f;
  third.loc.line = 3;
  const Finding other = SampleFinding("r", {"a.hlo", 2, 1}, "new");
  const BaselineResult more = ApplyBaseline({f, other, f, third}, *baseline);
  EXPECT_EQ(more.suppressed, 2);
  EXPECT_EQ(more.stale, 0);
  ASSERT_EQ(more.kept.size(), 2u);
  EXPECT_EQ(more.kept[0].message, "new");
  EXPECT_EQ(more.kept[1].loc.line, 3);  // the first two copies were taken

  const BaselineResult fewer = ApplyBaseline({f}, *baseline);
  EXPECT_EQ(fewer.suppressed, 1);
  EXPECT_EQ(fewer.stale, 1);
  EXPECT_TRUE(fewer.kept.empty());
}

TEST(BaselineTest, StaleEntriesAreCounted) {
  std::string error;
  const auto baseline = LoadBaseline(
      WriteBaseline({SampleFinding("r", {"a", 1, 1}, "fixed"),
                     SampleFinding("r", {"a", 2, 1}, "also fixed")}),
      &error);
  ASSERT_TRUE(baseline.has_value()) << error;
  const Finding fresh = SampleFinding("r", {"a", 1, 1}, "fresh");
  const BaselineResult result = ApplyBaseline({fresh}, *baseline);
  EXPECT_EQ(Messages(result.kept), std::vector<std::string>{"fresh"});
  EXPECT_EQ(result.suppressed, 0);
  EXPECT_EQ(result.stale, 2);
}

TEST(BaselineTest, OnlyTheFingerprintIsMatched) {
  const Finding f = SampleFinding("r", {"a.hlo", 1, 1}, "m");
  const std::string text =
      "{\"version\": 1, \"findings\": [{\"fingerprint\": \"" +
      RootedFingerprint(f) + "\", \"message\": \"edited by hand\"}]}";
  std::string error;
  const auto baseline = LoadBaseline(text, &error);
  ASSERT_TRUE(baseline.has_value()) << error;
  EXPECT_EQ(ApplyBaseline({f}, *baseline).suppressed, 1);
}

TEST(BaselineTest, EmptyBaselineKeepsEverything) {
  std::string error;
  const auto baseline = LoadBaseline(WriteBaseline({}), &error);
  ASSERT_TRUE(baseline.has_value()) << error;
  EXPECT_EQ(baseline->size, 0);
  const BaselineResult result =
      ApplyBaseline({SampleFinding("r", {"a", 1, 1}, "m")}, *baseline);
  EXPECT_EQ(result.kept.size(), 1u);
  EXPECT_EQ(result.suppressed, 0);
  EXPECT_EQ(result.stale, 0);
}

struct MalformedCase {
  const char* text;
  const char* error_part;
};

class MalformedBaselineTest : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(MalformedBaselineTest, IsRefusedWithAReason) {
  std::string error;
  EXPECT_EQ(LoadBaseline(GetParam().text, &error), std::nullopt);
  EXPECT_THAT(error, HasSubstr(GetParam().error_part));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedBaselineTest,
    ::testing::Values(
        MalformedCase{"", "not valid JSON"},
        MalformedCase{"{\"version\": 1, \"findings\": [", "not valid JSON"},
        MalformedCase{"\x89PNG\r\n\x1a\n\x00\x01", "not valid JSON"},
        MalformedCase{"[]", "expected a JSON object"},
        MalformedCase{"{\"findings\": []}", "missing \"version\""},
        MalformedCase{"{\"version\": 2, \"findings\": []}",
                      "unsupported baseline version 2"},
        MalformedCase{"{\"version\": \"1\", \"findings\": []}",
                      "unsupported baseline version \"1\""},
        MalformedCase{"{\"version\": 1.0, \"findings\": []}",
                      "unsupported baseline version"},
        MalformedCase{"{\"version\": 1}", "\"findings\": expected an array"},
        MalformedCase{"{\"version\": 1, \"findings\": {}}",
                      "\"findings\": expected an array"},
        MalformedCase{"{\"version\": 1, \"findings\": [7]}",
                      "findings[0]: expected an object"},
        MalformedCase{"{\"version\": 1, \"findings\": [{\"rule\": \"r\"}]}",
                      "findings[0]: missing \"fingerprint\""},
        MalformedCase{
            "{\"version\": 1, \"findings\": [{\"fingerprint\": \"a\"},"
            " {\"fingerprint\": 5}]}",
            "findings[1].fingerprint: expected a string"},
        MalformedCase{
            "{\"version\": 1, \"findings\": [{\"fingerprint\": \"\"}]}",
            "findings[0].fingerprint: must not be empty"},
        MalformedCase{"{\"version\": 1, \"findings\": [{\"fingerprint\": \"a\","
                      " \"message\": null}]}",
                      "findings[0].message: expected a string"}));

TEST(BaselineTest, DeepNestingIsRefusedNotCrashed) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::string error;
  EXPECT_EQ(LoadBaseline(deep, &error), std::nullopt);
  EXPECT_THAT(error, HasSubstr("expected a JSON object"));
}

TEST(BaselineTest, UnknownExtraFieldsAreTolerated) {
  std::string error;
  const auto baseline = LoadBaseline(
      "{\"version\": 1, \"generator\": \"x\", \"findings\": "
      "[{\"fingerprint\": \"ab\", \"line\": 3}]}",
      &error);
  ASSERT_TRUE(baseline.has_value()) << error;
  EXPECT_EQ(baseline->counts.at("ab"), 1);
}

}  // namespace
}  // namespace topolint
