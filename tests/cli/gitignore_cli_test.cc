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
  EXPECT_THAT(r.err, HasSubstr("skipped build/out/def.json: ignored by "
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

// A directory named on the command line is searched even when it is
// ignored itself or lies in an ignored directory, as ripgrep searches one
// (a compile cache or workdir under an ignored build/ is what users
// check); the patterns still apply below it.
TEST_F(GitignoreCliTest, NamedDirectoriesAreSearchedEvenWhenIgnored) {
  d_.Write("repo/build/out/tmp_2/def.json", kBad);
  d_.Write("repo/build/out/.gitignore", "skip/\n");
  d_.Write("repo/build/out/skip/def.json", kBad);
  for (const char* dir :
       {"build", "build/out", "./build/out/", "models/tmp_1"}) {
    CliResult r = RunTopolint({"check", "-v", dir}, repo_);
    EXPECT_EQ(r.exit_code, 1) << dir << "\n" << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("no HLO"))) << dir;
  }
  CliResult r = RunTopolint({"check", "-v", "build/out"}, repo_);
  EXPECT_THAT(r.out, HasSubstr("build/out/def.json"));
  EXPECT_THAT(r.out, HasSubstr("build/out/tmp_2/def.json"));
  EXPECT_THAT(r.out, Not(HasSubstr("skip/def.json")));
  EXPECT_THAT(r.err, HasSubstr("2 errors")) << r.out;
  // From inside the ignored directory, and with the ignored directory
  // named absolutely.
  r = RunTopolint({"check", "."}, repo_ + "/build/out");
  EXPECT_THAT(r.err, HasSubstr("2 errors")) << r.out;
  r = RunTopolint({"check", repo_ + "/build"}, repo_);
  EXPECT_THAT(r.err, HasSubstr("2 errors")) << r.out;
  // Two directories named (a planned search, not a streamed one).
  r = RunTopolint({"check", "build/out", "models/tmp_1"}, repo_);
  EXPECT_THAT(r.err, HasSubstr("3 errors")) << r.out;
  // A search from above still leaves the whole of build/ out.
  r = RunTopolint({"check", "."}, repo_);
  EXPECT_THAT(r.err, HasSubstr("1 error")) << r.out;
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
