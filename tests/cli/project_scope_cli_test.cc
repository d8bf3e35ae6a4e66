// Project scope: `.topolint.json` is looked up no higher than the git work
// tree's root, and `per_file_ignores` globs take `**`.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;

const char kBad[] = R"({"CCInfo": {"replica_groups": [[[0,1]], []]}})"
                    "\n";

TEST(ProjectScopeCliTest, SettingsAboveTheRepositoryDoNotApply) {
  TempDir d;
  // A settings file above the repository that would silence everything.
  d.Write(".topolint.json", R"({"rules": "-*"})");
  d.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  d.Write("repo/models/m/def.json", kBad);
  const std::string repo = d.path() + "/repo";
  for (const std::string& cwd : {repo, repo + "/models", d.path()}) {
    const std::string path = cwd == d.path() ? "repo/models" : ".";
    CliResult r = RunTopolint({"check", path}, cwd);
    EXPECT_EQ(r.exit_code, 1) << cwd << ": " << r.err;
    EXPECT_THAT(r.out, HasSubstr("[neff-empty-topology]")) << cwd;
  }
  // Named unit directory that is itself the root.
  d.Write("repo2/.git/HEAD", "ref: refs/heads/main\n");
  d.Write("repo2/def.json", kBad);
  CliResult r = RunTopolint({"check", "repo2"}, d.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // Inside the repository, its own settings apply.
  d.Write("repo/.topolint.json", R"({"rules": "-neff-*"})");
  r = RunTopolint({"check", "."}, repo + "/models");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// The "include" / "exclude" of a settings file above the repository do not
// apply either: a unit's filters and settings are one file (docs/filters.md).
TEST(ProjectScopeCliTest, FiltersAboveTheRepositoryDoNotApply) {
  TempDir d;
  d.Write(".topolint.json", R"({"exclude": "models/", "rules": "-*"})");
  d.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  d.Write("repo/models/m/def.json", kBad);
  const std::string repo = d.path() + "/repo";
  CliResult r = RunTopolint({"check", "."}, repo);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("[neff-empty-topology]"));
  EXPECT_THAT(r.err, HasSubstr("1 file checked, 0 skipped")) << r.err;
  // The repository's own file filters its files.
  d.Write("repo/.topolint.json", R"({"exclude": "^models/"})");
  r = RunTopolint({"check", "."}, repo);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.err, HasSubstr("0 files checked, 1 skipped")) << r.err;
  // A nearer one gives both the settings and the filters of the files
  // below it: the repository's "exclude" no longer applies there.
  d.Write("repo/models/.topolint.json", R"({"rules": "-*"})");
  r = RunTopolint({"check", "."}, repo);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.err, HasSubstr("1 file checked, 0 skipped")) << r.err;
  d.Write("repo/models/.topolint.json", R"({"exclude": "^x/"})");
  r = RunTopolint({"check", "."}, repo);
  EXPECT_EQ(r.exit_code, 1) << r.out;
}

TEST(ProjectScopeCliTest, PerFileIgnoresTakeDoubleStar) {
  TempDir d;
  d.Write(".topolint.json",
          R"({"per_file_ignores": {"legacy/**/def.json": ["neff-*"]}})");
  d.Write("legacy/a/b/def.json", kBad);
  d.Write("legacy/def.json", kBad);
  d.Write("current/legacy2/def.json", kBad);
  CliResult r = RunTopolint({"check", "."}, d.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("legacy/a/b/def.json")));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("./legacy/def.json")));
  EXPECT_THAT(r.out, HasSubstr("current/legacy2/def.json"));
}

}  // namespace
}  // namespace topolint::testing
