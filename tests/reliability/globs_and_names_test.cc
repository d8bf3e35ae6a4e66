// Hardening classes of issue 27: pathological per_file_ignores globs finish
// (each match runs in a child with a time limit: a hang fails the test, no
// speed is measured), and file names with ':', a leading '-', a tab or a
// newline keep every finding attributed to its file in JSON and SARIF.
#include <filesystem>
#include <string>

#include "checker/core/rule_selection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"
#include "tests/reliability/reliability_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;

std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(PathologicalGlobTest, PerFileIgnoresFinishOnHostilePatterns) {
  const std::string deep = Repeat("d/", 60) + std::string(4000, 'a') + ".hlo";
  const std::vector<std::string> globs = {
      Repeat("**/", 50) + "x.hlo",
      Repeat("*a", 25) + "b",
      Repeat("*", 200) + "b",
      Repeat("*/", 50) + "*b",
      "[",
      "[!",
      "{a,b",
      "*[a-",
      Repeat("[0-9]", 100) + "*",
      "\\",
  };
  const IsolatedRun run = RunIsolated(
      [&] {
        for (const std::string& glob : globs) {
          RuleSelection selection;
          selection.AddFileIgnore(glob, {"*"});
          for (int i = 0; i < 20; ++i) {
            EXPECT_FALSE(selection.IgnoredInFile("hlo-syntax", deep)) << glob;
          }
        }
      },
      60);
  EXPECT_TRUE(run.Clean()) << run.Describe();
}

TEST(PathologicalGlobTest, TheCliFinishesWithHostilePatternsInSettings) {
  TempDir dir;
  const std::string name = std::string(200, 'a') + ".hlo";
  dir.Write(Repeat("d/", 30) + name,
            ReadAll(std::string(TOPOLINT_SOURCE_DIR) +
                    "/fixtures/hlo-duplicate-device-id/fail-repeated-replica/"
                    "model.hlo"));
  nlohmann::json ignores;
  ignores[Repeat("**/", 50) + "x.hlo"] = {"*"};
  ignores[Repeat("*a", 25) + "b"] = {"*"};
  ignores["["] = {"*"};
  ignores["{a,b"] = {"*"};
  dir.Write(".topolint.json",
            nlohmann::json{{"per_file_ignores", ignores}}.dump());
  const CliResult check = RunTopolint({"."}, dir.path());
  EXPECT_EQ(check.exit_code, 1) << check.err;
  EXPECT_THAT(check.out, HasSubstr("[hlo-duplicate-device-id]"));
}

// Every finding of `out` (JSON array, or SARIF) names `file`.
void ExpectAllIn(const std::string& out, const std::string& format,
                 const std::string& file) {
  const nlohmann::json doc = nlohmann::json::parse(out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << format << "\n" << out;
  if (format == "json") {
    ASSERT_FALSE(doc.empty());
    for (const auto& f : doc) EXPECT_EQ(f["file"], file) << format;
  } else {
    const auto& results = doc["runs"][0]["results"];
    ASSERT_FALSE(results.empty());
    for (const auto& r : results) {
      const std::string uri =
          r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
      EXPECT_NE(uri.find("model"), std::string::npos) << uri;
    }
  }
}

TEST(OddFileNamesTest, FindingsStayAttributedAndOutputsValid) {
  const std::string hlo = ReadAll(
      std::string(TOPOLINT_SOURCE_DIR) +
      "/fixtures/hlo-duplicate-device-id/fail-repeated-replica/model.hlo");
  for (const std::string name : {"model:12:3.hlo", "-model.hlo", "model\tx.hlo",
                                 "model\nx.hlo", "--model.hlo"}) {
    TempDir dir;
    dir.Write(name, hlo);
    for (const std::string format : {"json", "sarif"}) {
      // A name starting with '-' is a path after `--`.
      const CliResult r =
          RunTopolint({"--format", format, "--", name}, dir.path());
      EXPECT_EQ(r.exit_code, 1) << name << ": " << r.err;
      ExpectAllIn(r.out, format, name);
    }
    // Found by a directory search too (the current directory's entries
    // are named without "./").
    const CliResult found = RunTopolint({"--format", "json", "."}, dir.path());
    EXPECT_EQ(found.exit_code, 1) << name << ": " << found.err;
    ExpectAllIn(found.out, "json", name);
  }
}

}  // namespace
}  // namespace topolint::testing
