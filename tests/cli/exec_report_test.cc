// The merge of exec's per-check documents (checker/cli/exec_report.h): one
// JSON array, one SARIF run whose later artifacts and the indices that
// name them come after the first run's.
#include "checker/cli/exec_report.h"

#include <string>

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

}  // namespace
}  // namespace topolint::cli
