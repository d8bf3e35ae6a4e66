// The merge of exec's per-check documents (checker/cli/exec_report.h): one
// JSON array, one SARIF run whose later artifacts and the indices that
// name them come after the first run's.
#include "checker/cli/exec_report.h"

#include <string>
#include <vector>

#include "checker/diag/finding.h"
#include "checker/diag/render.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace topolint::cli {
namespace {

using Json = nlohmann::json;

TEST(ExecReportTest, JsonArraysAreJoinedInOrder) {
  const std::string merged = MergeJsonReports(
      {R"([{"rule": "a"}])", "", R"([])", R"([{"rule": "b"}, {"rule": "c"}])"});
  const Json out = Json::parse(merged);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0]["rule"], "a");
  EXPECT_EQ(out[2]["rule"], "c");
  EXPECT_EQ(MergeJsonReports({}), "[]\n");
}

TEST(ExecReportTest, SarifRunsBecomeOneWithArtifactsRenumbered) {
  // Each run: a .neff archive (artifact 0) and a member of it (1), and a
  // result placed at the archive.
  const std::string run = R"({"version": "2.1.0", "runs": [{
      "tool": {"driver": {"name": "topolint", "rules": [{"id": "r"}]}},
      "results": [{"ruleId": "r", "ruleIndex": 0, "locations": [
          {"physicalLocation": {"artifactLocation": {"uri": "X", "index": 0},
                                "region": {"startLine": 1}}}],
          "relatedLocations": [{"physicalLocation": {
              "artifactLocation": {"uri": "X", "index": 0}}}]}],
      "artifacts": [{"location": {"uri": "X"}},
                    {"location": {"uri": "sg00/def.json"}, "parentIndex": 0}]
  }]})";
  std::string second = run;
  second.replace(second.find("\"X\""), 3, "\"Y\"");
  const Json out = Json::parse(MergeSarifReports({run, "", second}));
  ASSERT_EQ(out["runs"].size(), 1u);
  const Json& merged = out["runs"][0];
  ASSERT_EQ(merged["results"].size(), 2u);
  ASSERT_EQ(merged["artifacts"].size(), 4u);
  const Json& later = merged["results"][1];
  EXPECT_EQ(later["ruleIndex"], 0);  // the same rule list
  EXPECT_EQ(
      later["locations"][0]["physicalLocation"]["artifactLocation"]["index"],
      2);
  EXPECT_EQ(later["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
                 ["index"],
            2);
  EXPECT_EQ(merged["artifacts"][3]["parentIndex"], 2);
  EXPECT_EQ(merged["results"][0]["locations"][0]["physicalLocation"]
                  ["artifactLocation"]["index"],
            0);
  EXPECT_EQ(MergeSarifReports({"", "not json"}), "");
}

// A SARIF log of one run holding `n` results of rule r in `uri`, result i
// on line i + 1.
std::string RunOf(size_t n, const std::string& uri) {
  Json results = Json::array();
  for (size_t i = 0; i < n; ++i) {
    results.push_back({{"ruleId", "r"},
                       {"level", "error"},
                       {"message", {{"text", "m"}}},
                       {"locations",
                        {{{"physicalLocation",
                           {{"artifactLocation", {{"uri", uri}}},
                            {"region", {{"startLine", i + 1}}}}}}}}});
  }
  Json log = {{"version", "2.1.0"},
              {"runs",
               {{{"tool", {{"driver", {{"name", "topolint"}}}}},
                 {"results", results}}}}};
  return log.dump();
}

const Json& NoteLocation(const Json& note) {
  return note["locations"][0]["physicalLocation"];
}

// Two checks of 12,600 findings each are one run of 25,000 results at
// most, as one check's run is (checker/diag/render.h, kSarifMaxResults).
TEST(ExecReportTest, MergedSarifRunKeepsTheResultCap) {
  const Json out =
      Json::parse(MergeSarifReports({RunOf(12600, "A"), RunOf(12600, "B")}));
  const Json& run = out["runs"][0];
  ASSERT_EQ(run["results"].size(), kSarifMaxResults);
  const Json& note = run["results"].back();
  EXPECT_EQ(note["ruleId"], "topolint-results-omitted");
  EXPECT_EQ(note["properties"]["omittedResults"], 25200 - 24999);
  EXPECT_THAT(note["message"]["text"].get<std::string>(),
              ::testing::HasSubstr("201 more findings"));
  // At the first finding left out: B's 12,400th.
  EXPECT_EQ(NoteLocation(note)["artifactLocation"]["uri"], "B");
  EXPECT_EQ(NoteLocation(note)["region"]["startLine"], 12400);
  EXPECT_EQ(run["results"][kSarifMaxResults - 2]["locations"][0]
               ["physicalLocation"]["region"]["startLine"],
            12399);
  EXPECT_EQ(
      run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"],
      note["message"]["text"]);

  // Exactly the cap: whole, no note.
  const Json whole =
      Json::parse(MergeSarifReports({RunOf(12500, "A"), RunOf(12500, "B")}));
  EXPECT_EQ(whole["runs"][0]["results"].size(), kSarifMaxResults);
  EXPECT_EQ(whole["runs"][0]["results"].back()["ruleId"], "r");
  EXPECT_FALSE(whole["runs"][0].contains("invocations"));
}

// A check already over the cap: its note's count goes into the merged one.
TEST(ExecReportTest, MergedSarifRunCountsWhatACappedCheckLeftOut) {
  std::vector<Finding> findings;
  for (size_t i = 0; i < kSarifMaxResults + 1; ++i) {
    Finding f;
    f.rule = "hlo-duplicate-device-id";
    f.loc = Location("m.hlo", static_cast<int64_t>(i + 1), 1);
    f.message = fmt::format("finding {}", i);
    findings.push_back(std::move(f));
  }
  const std::string capped = RenderSarif(findings, {}, "1.0");
  const Json out = Json::parse(MergeSarifReports({capped, RunOf(10, "B")}));
  const Json& run = out["runs"][0];
  ASSERT_EQ(run["results"].size(), kSarifMaxResults);
  const Json& note = run["results"].back();
  EXPECT_EQ(note["ruleId"], "topolint-results-omitted");
  EXPECT_EQ(note["properties"]["omittedResults"], 2 + 10);
  EXPECT_EQ(NoteLocation(note)["artifactLocation"]["uri"], "m.hlo");
  EXPECT_EQ(NoteLocation(note)["region"]["startLine"], kSarifMaxResults);
  size_t notes = 0;
  for (const Json& r : run["results"]) {
    notes += r["ruleId"] == "topolint-results-omitted" ? 1 : 0;
  }
  EXPECT_EQ(notes, 1u);
}

}  // namespace
}  // namespace topolint::cli
