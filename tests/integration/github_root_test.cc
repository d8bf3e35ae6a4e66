// `--format github` from a subdirectory of a repository: annotation paths
// are relative to the repository root (where GitHub places them), as
// SARIF's URIs are, not to the working directory.
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kBadDef[] = R"({"CCInfo": {"replica_groups": [[[0,1]], []]}})"
                           "\n";

TEST(GithubRootTest, PathsAreRelativeToTheRepositoryRoot) {
  TempDir d;
  const std::string root = d.path() + "/repo";
  fs::create_directories(root + "/.git");
  WriteAll(root + "/models/m1/def.json", kBadDef);
  // From the unit's own directory: `def.json`, not `./def.json`.
  CliResult r =
      RunTopolint({"check", "--format", "github", "."}, root + "/models/m1");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("::error file=models/m1/def.json,line=1,"));
  EXPECT_THAT(r.out, Not(HasSubstr("file=./")));
  // From a sibling directory, through `..`.
  fs::create_directories(root + "/tools");
  r = RunTopolint({"check", "--format", "github", "../models"},
                  root + "/tools");
  EXPECT_THAT(r.out, HasSubstr("::error file=models/m1/def.json,line=1,"));
  // --sarif-root chooses the root for both formats.
  r = RunTopolint(
      {"check", "--format", "github", "--sarif-root", root + "/models", "."},
      root + "/models/m1");
  EXPECT_THAT(r.out, HasSubstr("::error file=m1/def.json,line=1,"));
}

TEST(GithubRootTest, FileOutsideTheRootIsAbsolute) {
  TempDir d;
  fs::create_directories(d.path() + "/repo/.git");
  const std::string def = d.Write("outside/def.json", kBadDef);
  CliResult r =
      RunTopolint({"check", "--format", "github", def}, d.path() + "/repo");
  EXPECT_THAT(r.out, HasSubstr("::error file=" + def + ",line=1,"));
}

}  // namespace
}  // namespace topolint::testing
