// The one lookup of `.topolint.json` (settings of the CLI and the C++ API,
// and the config's path filters).
#include "checker/core/project_config_finder.h"

#include <filesystem>
#include <string>

#include "checker/core/project_config.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using topolint::testing::TempDir;

// Paths come back absolute and lexically normal: "./x" and "a/../b" name
// the directory they lead to, and ".." is not taken for the parent.
TEST(ProjectConfigFinderTest, PathsAreLexicallyNormal) {
  TempDir d;
  d.Write("b/.topolint.json", "{}");
  d.Write("c/m/def.json", "{}");
  // c's ancestors are d and above, not b.
  EXPECT_EQ(FindProjectConfig(d.path() + "/b/../c/m"), "");
  EXPECT_EQ(FindProjectConfig(d.path() + "/c/../b/"),
            d.path() + "/b/.topolint.json");
  std::error_code ec;
  const std::string rel =
      std::filesystem::path(d.path())
          .lexically_relative(std::filesystem::current_path(ec))
          .generic_string();
  ASSERT_FALSE(ec);
  EXPECT_EQ(FindProjectConfig("./" + rel + "/b"),
            d.path() + "/b/.topolint.json");
}

// A work tree's root is searched, nothing above it; the root of the file
// system is searched last.
TEST(ProjectConfigFinderTest, StopsAfterTheWorkTreeRoot) {
  TempDir d;
  d.Write(".topolint.json", "{}");
  d.Write("wt/.git", "gitdir: /elsewhere\n");  // a linked worktree
  d.Write("wt/a/b/def.json", "{}");
  ProjectConfigFinder finder;
  EXPECT_EQ(finder.Find(d.path() + "/wt/a/b"), "");
  d.Write("wt/.topolint.json", "{}");
  ProjectConfigFinder again;
  EXPECT_EQ(again.Find(d.path() + "/wt/a/b"), d.path() + "/wt/.topolint.json");
  EXPECT_EQ(again.Find(d.path() + "/wt"), d.path() + "/wt/.topolint.json");
  EXPECT_EQ(again.Find(d.path()), d.path() + "/.topolint.json");
}

// What a walk saw in a directory is taken without a stat(), and each
// directory above is looked at once: a settings file created later is not
// seen by the same finder.
TEST(ProjectConfigFinderTest, LooksAtEachDirectoryOnce) {
  TempDir d;
  d.Write("top/.git/HEAD", "ref: refs/heads/main\n");
  d.Write("top/p/u1/def.json", "{}");
  d.Write("top/p/u2/def.json", "{}");
  d.Write("top/p/u1/.topolint.json", "{}");
  ProjectConfigFinder finder;
  const SeenDir nothing;
  // The walk said u1 holds no settings file: taken as said.
  EXPECT_EQ(finder.Find(d.path() + "/top/p/u1", &nothing), "");
  d.Write("top/p/.topolint.json", "{}");
  // p was looked at (and remembered) when u1 was.
  EXPECT_EQ(finder.Find(d.path() + "/top/p/u2", &nothing), "");
  const SeenDir git{false, true};
  EXPECT_EQ(finder.Find(d.path() + "/top/p/u2", &git), "");  // last answer
  EXPECT_EQ(finder.Find(d.path() + "/top/p/u1"),
            d.path() + "/top/p/u1/.topolint.json");
  // A new finder sees the new file.
  ProjectConfigFinder fresh;
  EXPECT_EQ(fresh.Find(d.path() + "/top/p/u2", &nothing),
            d.path() + "/top/p/.topolint.json");
  // A walk's `.git` in the unit's directory stops the search there.
  ProjectConfigFinder other;
  EXPECT_EQ(other.Find(d.path() + "/top/p/u2", &git), "");
}

}  // namespace
}  // namespace topolint
