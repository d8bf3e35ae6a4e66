// `--include` / `--exclude` / `--force-exclude` and the config's "include" /
// "exclude", end to end (docs/filters.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kBadHlo[] = R"(HloModule m, replica_count=4

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %ar = f32[8]{0} all-reduce(f32[8]{0} %p), replica_groups={{0,1},{2,0}}, to_apply=%add
}
)";

// A tree as a repository holds it: deliberate mistakes under fixtures/, one
// real module under src/.
void MakeTree(const TempDir& dir, const std::string& top = "") {
  dir.Write(top + "fixtures/bad/model.hlo", kBadHlo);
  dir.Write(top + "fixtures/other/model.hlo", kBadHlo);
  dir.Write(top + "src/fixtures/model.hlo", kBadHlo);
}

TEST(FilterCliTest, ExcludeIsAnchoredSearchOnTheRelativePath) {
  TempDir dir;
  MakeTree(dir);
  CliResult r =
      RunTopolint({"check", "--color", "never", "--exclude", "^fixtures/", "."},
                  dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // As pre-commit's `exclude: ^fixtures/`: the top-level fixtures are out,
  // src/fixtures (no match at the start) is in.
  EXPECT_THAT(r.out, HasSubstr("src/fixtures/model.hlo:"));
  EXPECT_THAT(r.out, Not(HasSubstr("./fixtures/")));
  EXPECT_THAT(r.err, HasSubstr("2 skipped"));
  // Unanchored, it matches anywhere in the path.
  r = RunTopolint({"check", "--exclude", "fixtures/", "."}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // --include: only what matches.
  r = RunTopolint(
      {"check", "--color", "never", "--include", "^fixtures/bad/", "."},
      dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("fixtures/bad/model.hlo:"));
  EXPECT_THAT(r.out, Not(HasSubstr("other")));
}

TEST(FilterCliTest, VerboseSaysWhy) {
  TempDir dir;
  MakeTree(dir);
  CliResult r = RunTopolint(
      {"check", "-v", "--exclude", "^fixtures/", "--exclude", "^src/", "."},
      dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("skipped fixtures/bad/model.hlo: excluded "
                               "by --exclude '^fixtures/'"));
  EXPECT_THAT(r.err, HasSubstr("excluded by --exclude '^src/'"));
}

// In a git work tree the path is relative to its root, wherever topolint
// runs (pre-commit runs at the root).
TEST(FilterCliTest, PathsAreRelativeToTheGitWorkTree) {
  TempDir dir;
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  MakeTree(dir, "pkg/");
  CliResult r =
      RunTopolint({"check", "--exclude", "^pkg/", "."}, dir.path() + "/pkg");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = RunTopolint({"check", "--exclude", "^fixtures/", "."},
                  dir.path() + "/pkg");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
}

TEST(FilterCliTest, ConfigExcludeAppliesBelowIt) {
  TempDir dir;
  MakeTree(dir);
  dir.Write(".topolint.json", R"({"exclude": ["^fixtures/", "^src/"]})");
  CliResult r = RunTopolint({"check", "."}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Two levels, as pre-commit's top-level and per-hook filters: a file
  // must pass both.
  dir.Write(".topolint.json", R"({"include": "^fixtures/"})");
  r = RunTopolint({"check", "--color", "never", "--exclude", "other", "."},
                  dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("fixtures/bad/model.hlo"));
  EXPECT_THAT(r.out, Not(HasSubstr("other")));
  EXPECT_THAT(r.out, Not(HasSubstr("src/")));
  // --config FILE's patterns apply to every file.
  const std::string cfg =
      dir.Write("cfg/filters.json", R"({"exclude": "model\\.hlo$"})");
  r = RunTopolint({"check", "--config", cfg, "."}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

// A file named on the command line is checked whatever the filters say,
// unless --force-exclude (ruff's rule; what a pre-commit hook that passes
// file names wants).
TEST(FilterCliTest, NamedFilesAndForceExclude) {
  TempDir dir;
  MakeTree(dir);
  CliResult r = RunTopolint(
      {"check", "--exclude", "^fixtures/", "fixtures/bad/model.hlo"},
      dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  r = RunTopolint({"check", "--force-exclude", "--exclude", "^fixtures/",
                   "fixtures/bad/model.hlo"},
                  dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("no HLO"));
}

TEST(FilterCliTest, InvalidPatternIsUsageErrorWithColumn) {
  TempDir dir;
  MakeTree(dir);
  CliResult r =
      RunTopolint({"check", "--exclude", "^fix(tures/", "."}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--exclude: invalid regular expression "
                               "'^fix(tures/' at column 5: missing )"));
  r = RunTopolint({"check", "--include", "a**", "."}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("at column 2: bad repetition operator: **"));
  dir.Write(".topolint.json", "{\"exclude\": \"(?<=x)\"}");
  r = RunTopolint({"check", "."}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(".topolint.json:1:13: \"exclude\": invalid"));
}

TEST(FilterCliTest, ExplainTakesTheFiltersToo) {
  TempDir dir;
  MakeTree(dir);
  CliResult r =
      RunTopolint({"explain", "--include", "^fixtures/bad/", "."}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("fixtures/bad"));
  EXPECT_THAT(r.out, Not(HasSubstr("other")));
}

}  // namespace
}  // namespace topolint::testing
