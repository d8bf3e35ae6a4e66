// SARIF for GitHub code scanning, run from a subdirectory of a repository:
// it validates against the schema and every URI resolves from the
// repository root (tests/integration/check_sarif_github.py), including a
// finding inside a .neff archive.
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;

constexpr char kBadDef[] = R"({"CCInfo": {"replica_groups": [[[0,1]], []]}})"
                           "\n";

bool HaveJsonschema() {
  return std::system("python3 -c 'import jsonschema' >/dev/null 2>&1") == 0;
}

int CheckForGithub(const std::string& log, const std::string& root) {
  const std::string src = TOPOLINT_SOURCE_DIR;
  const std::string cmd =
      "python3 " +
      ShellQuote(src + "/tests/integration/check_sarif_github.py") + " " +
      ShellQuote(log) + " " +
      ShellQuote(src + "/tests/data/sarif-2.1.0-rtm.5.json") + " " +
      ShellQuote(root);
  return std::system(cmd.c_str());
}

class SarifRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = d_.path() + "/repo";
    fs::create_directories(root_ + "/.git");  // what GitRoot looks for
    WriteAll(root_ + "/models/a b/def.json", kBadDef);
    fs::create_directories(root_ + "/models/n");
    fs::copy_file(std::string(TOPOLINT_SOURCE_DIR) +
                      "/fixtures/neff-graphs-disagree/fail-rank-differs/"
                      "model.neff",
                  root_ + "/models/n/model.neff");
    fs::create_directories(root_ + "/tools/ci");
  }
  TempDir d_;
  std::string root_;
};

TEST_F(SarifRootTest, FromASubdirectoryEveryUriResolvesFromTheRoot) {
  if (!HaveJsonschema()) GTEST_SKIP() << "python3 jsonschema is missing";
  const std::string log = d_.path() + "/out.sarif";
  CliResult r =
      RunTopolint({"check", "--format", "sarif", "-o", log, "../../models",
                   "--docs-url", "https://example.invalid/docs/rules"},
                  root_ + "/tools/ci");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(CheckForGithub(log, root_), 0);
  nlohmann::json doc = nlohmann::json::parse(ReadAll(log));
  const auto& run = doc["runs"][0];
  std::string uris;
  for (const auto& res : run["results"]) {
    uris += res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .get<std::string>() +
            " ";
  }
  EXPECT_THAT(uris, ::testing::HasSubstr("models/a%20b/def.json"));
  EXPECT_THAT(uris, ::testing::HasSubstr("models/n/model.neff"));
  EXPECT_THAT(uris, ::testing::Not(::testing::HasSubstr(".neff%3A")));
  // The rules with results, the first first.
  EXPECT_EQ(run["tool"]["driver"]["rules"][0]["helpUri"],
            "https://example.invalid/docs/rules/neff-empty-topology.md");
}

TEST_F(SarifRootTest, SarifRootOptionAndTheDefaultHelpUri) {
  if (!HaveJsonschema()) GTEST_SKIP() << "python3 jsonschema is missing";
  const std::string log = d_.path() + "/out.sarif";
  // Outside the repository, with the root given.
  CliResult r = RunTopolint({"check", "--format", "sarif", "-o", log,
                             "--sarif-root", root_, root_ + "/models"},
                            d_.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(CheckForGithub(log, root_), 0);
  nlohmann::json doc = nlohmann::json::parse(ReadAll(log));
  // Without --docs-url: the pages on GitHub, and each rule's page once.
  ASSERT_FALSE(doc["runs"][0]["tool"]["driver"]["rules"].empty());
  for (const auto& rule : doc["runs"][0]["tool"]["driver"]["rules"]) {
    EXPECT_EQ(rule["helpUri"],
              "https://github.com/topolint/topolint/blob/main/docs/rules/" +
                  rule["id"].get<std::string>() + ".md");
    EXPECT_NE(
        rule["help"]["markdown"].get<std::string>().find("## What it checks"),
        std::string::npos)
        << rule["id"];
    EXPECT_EQ(rule["fullDescription"], rule["shortDescription"]);
  }
}

TEST(SarifOptionsTest, DocsUrlMustBeAbsolute) {
  CliResult r = RunTopolint({"check", "--docs-url", "docs/rules", "."});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("--docs-url must be an absolute"));
}

}  // namespace
}  // namespace topolint::testing
