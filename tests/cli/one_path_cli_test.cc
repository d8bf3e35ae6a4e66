// Issue 47 §4: one finding, one path and one fingerprint in every
// machine-read format, whichever directory topolint runs from.
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kBadDef[] = R"({"CCInfo": {"replica_groups": [[[0,1]], []]}})"
                           "\n";

class OnePathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = d_.path() + "/repo";
    fs::create_directories(root_ + "/.git");  // what the root finder seeks
    WriteAll(root_ + "/llama/def.json", kBadDef);
  }
  TempDir d_;
  std::string root_;
};

TEST_F(OnePathTest, SarifFingerprintIsTheSameFromAnyDirectory) {
  auto fingerprint = [&](const std::string& cwd, const std::string& path) {
    const CliResult r = RunTopolint({"check", "--format", "sarif", path}, cwd);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const nlohmann::json log = nlohmann::json::parse(r.out);
    const nlohmann::json& result = log["runs"][0]["results"][0];
    EXPECT_EQ(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "llama/def.json");
    return result["partialFingerprints"]["topolint/v1"].get<std::string>();
  };
  const std::string from_root = fingerprint(root_, ".");
  EXPECT_EQ(fingerprint(root_, "llama"), from_root);
  EXPECT_EQ(fingerprint(root_ + "/llama", "."), from_root);
  EXPECT_EQ(fingerprint(root_ + "/llama", "def.json"), from_root);
}

TEST_F(OnePathTest, TheRootIsNamedWithoutDotSlash) {
  // pre-commit runs `topolint check .` from the root: "llama/def.json" in
  // text, JSON and JUnit alike, as SARIF and GitLab name it.
  CliResult r = RunTopolint({"check", "--color", "never", "."}, root_);
  EXPECT_EQ(r.out.rfind("llama/def.json:1:", 0), 0u) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("./llama")));
  r = RunTopolint({"check", "--format", "json", "."}, root_);
  EXPECT_THAT(r.out, HasSubstr("\"file\": \"llama/def.json\""));
  r = RunTopolint({"check"}, root_);
  EXPECT_THAT(r.out, HasSubstr("llama/def.json:1:"));
  EXPECT_THAT(r.out, Not(HasSubstr("./llama")));
}

TEST_F(OnePathTest, JunitNamesFilesFromTheRoot) {
  const CliResult r =
      RunTopolint({"check", "--format", "junit", "."}, root_ + "/llama");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("file=\"llama/def.json\""));
  EXPECT_THAT(r.out, HasSubstr("name=\"llama/def.json:1:"));
}

}  // namespace
}  // namespace topolint::testing
