// `topolint check` in a git work tree leaves out what .gitignore ignores
// (--no-ignore reads it), lists it under --verbose, and still reads a file
// named on the command line.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char kBad[] = R"({"CCInfo": {"replica_groups": [[[0,1]], []]}})"
                    "\n";

class GitignoreCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    d_.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
    d_.Write("repo/.gitignore", "build/\n/scratch.json\n");
    d_.Write("repo/models/.gitignore", "tmp_*/\n");
    d_.Write("repo/models/m/def.json", kBad);
    d_.Write("repo/models/tmp_1/def.json", kBad);
    d_.Write("repo/build/out/def.json", kBad);
    d_.Write("repo/scratch.json", kBad);
    repo_ = d_.path() + "/repo";
  }
  TempDir d_;
  std::string repo_;
};

TEST_F(GitignoreCliTest, IgnoredFilesAreLeftOutOfASearch) {
  CliResult r = RunTopolint({"check", "-v", "."}, repo_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("models/m/def.json"));
  EXPECT_THAT(r.out, Not(HasSubstr("tmp_1")));
  EXPECT_THAT(r.out, Not(HasSubstr("build/")));
  EXPECT_THAT(r.out, Not(HasSubstr("scratch.json")));
  EXPECT_THAT(r.err, HasSubstr("skipped ./build/out/def.json: ignored by "
                               ".gitignore"));
  EXPECT_THAT(r.err, HasSubstr("1 error"));

  // From a subdirectory the root's .gitignore still applies.
  r = RunTopolint({"check", "."}, repo_ + "/models");
  EXPECT_THAT(r.err, HasSubstr("1 error")) << r.out;
}

TEST_F(GitignoreCliTest, NoIgnoreReadsEverything) {
  CliResult r = RunTopolint({"check", "--no-ignore", "."}, repo_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("4 errors")) << r.out;
}

TEST_F(GitignoreCliTest, NamedFilesAreReadEvenWhenIgnored) {
  CliResult r =
      RunTopolint({"check", "scratch.json", "build/out/def.json"}, repo_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("2 errors")) << r.out;
}

TEST_F(GitignoreCliTest, OutsideAWorkTreeNothingIsIgnored) {
  TempDir plain;
  plain.Write(".gitignore", "*.json\n");
  plain.Write("m/def.json", kBad);
  CliResult r = RunTopolint({"check", "."}, plain.path());
  EXPECT_THAT(r.err, HasSubstr("1 error"));
}

}  // namespace
}  // namespace topolint::testing
