// .gitignore semantics (checker/core/gitignore.h) and the path globs behind
// them and per_file_ignores (checker/core/path_glob.h).
#include "checker/core/gitignore.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "checker/core/path_glob.h"
#include "checker/core/project_config.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using V = GitignoreRules::Verdict;

TEST(PathGlobTest, Components) {
  EXPECT_TRUE(GlobComponentMatch("*.hlo", "model.hlo"));
  EXPECT_FALSE(GlobComponentMatch("*.hlo", "model.hlo.txt"));
  EXPECT_TRUE(GlobComponentMatch("m?del.[hj]lo", "model.hlo"));
  EXPECT_TRUE(GlobComponentMatch("[!a]x", "bx"));
  EXPECT_FALSE(GlobComponentMatch("[^b]x", "bx"));
  EXPECT_TRUE(GlobComponentMatch("MODULE_[0-9]*", "MODULE_12+ab"));
  EXPECT_TRUE(GlobComponentMatch("\\*x", "*x"));
  EXPECT_FALSE(GlobComponentMatch("\\*x", "ax"));
  EXPECT_TRUE(GlobComponentMatch("[x", "[x"));  // no closing ']': literal
}

TEST(PathGlobTest, DoubleStar) {
  EXPECT_TRUE(GlobPathMatch("**/def.json", "def.json"));
  EXPECT_TRUE(GlobPathMatch("**/def.json", "a/b/def.json"));
  EXPECT_TRUE(GlobPathMatch("legacy/**/*.hlo", "legacy/model.hlo"));
  EXPECT_TRUE(GlobPathMatch("legacy/**/*.hlo", "legacy/a/b/model.hlo"));
  EXPECT_FALSE(GlobPathMatch("legacy/**/*.hlo", "other/legacy/m.hlo"));
  EXPECT_TRUE(GlobPathMatch("cache/**", "cache/x"));
  EXPECT_TRUE(GlobPathMatch("cache/**", "cache/x/y"));
  EXPECT_FALSE(GlobPathMatch("cache/**", "cache"));
  EXPECT_FALSE(GlobPathMatch("a/*.hlo", "a/b/c.hlo"));  // * stops at '/'
  EXPECT_TRUE(GlobPathMatch("a**b/c", "axyb/c"));       // ** as *
}

TEST(GitignoreRulesTest, PatternForms) {
  const GitignoreRules r(
      "# comment\n"
      "\n"
      "*.neff\n"
      "!keep.neff\n"
      "build/\n"
      "/top.json\n"
      "docs/*.json\n"
      "\\#hash.hlo\n"
      "\\!bang.hlo\n"
      "trailing.hlo   \n"
      "space\\ .hlo\n"
      "**/gen/**\n"
      "crlf.hlo\r\n",
      "");
  EXPECT_EQ(r.Decide("a/b/x.neff", false), V::kIgnored);  // any depth
  EXPECT_EQ(r.Decide("a/keep.neff", false), V::kIncluded);
  EXPECT_EQ(r.Decide("build", true), V::kIgnored);
  EXPECT_EQ(r.Decide("a/build", true), V::kIgnored);
  EXPECT_EQ(r.Decide("build", false), V::kNone);  // a file named build
  EXPECT_EQ(r.Decide("top.json", false), V::kIgnored);
  EXPECT_EQ(r.Decide("a/top.json", false), V::kNone);  // anchored
  EXPECT_EQ(r.Decide("docs/x.json", false), V::kIgnored);
  EXPECT_EQ(r.Decide("a/docs/x.json", false), V::kNone);
  EXPECT_EQ(r.Decide("#hash.hlo", false), V::kIgnored);
  EXPECT_EQ(r.Decide("!bang.hlo", false), V::kIgnored);
  EXPECT_EQ(r.Decide("trailing.hlo", false), V::kIgnored);
  EXPECT_EQ(r.Decide("space .hlo", false), V::kIgnored);
  EXPECT_EQ(r.Decide("x/gen/y/z.hlo", false), V::kIgnored);
  EXPECT_EQ(r.Decide("crlf.hlo", false), V::kIgnored);
  EXPECT_EQ(r.Decide("model.hlo", false), V::kNone);
}

TEST(GitignoreRulesTest, NestedFileMatchesBelowItsDirectoryOnly) {
  const GitignoreRules r("*.json\n/local.hlo\n", "models/a");
  EXPECT_EQ(r.Decide("models/a/def.json", false), V::kIgnored);
  EXPECT_EQ(r.Decide("models/a/b/def.json", false), V::kIgnored);
  EXPECT_EQ(r.Decide("models/def.json", false), V::kNone);
  EXPECT_EQ(r.Decide("models/ab/def.json", false), V::kNone);
  EXPECT_EQ(r.Decide("models/a/local.hlo", false), V::kIgnored);
  EXPECT_EQ(r.Decide("models/a/b/local.hlo", false), V::kNone);
}

void Write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(
      std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

TEST(GitignoreFilterTest, PrecedenceAndIgnoredDirectories) {
  testing::TempDir d;
  const std::string root = d.path();
  Write(root + "/.git/info/exclude", "*.tmp.hlo\nexcluded.hlo\n");
  Write(root + "/.gitignore", "*.json\nout/\n!important.json\n");
  Write(root + "/m/.gitignore", "!def.json\nexcluded.hlo\n!*.tmp.hlo\n");
  Write(root + "/m/sub/.gitignore", "def.json\n");
  GitignoreFilter f(root);
  EXPECT_TRUE(f.Ignored("x.json", false));
  EXPECT_FALSE(f.Ignored("important.json", false));
  // A deeper .gitignore overrides a higher one, and the deepest wins.
  EXPECT_FALSE(f.Ignored("m/def.json", false));
  EXPECT_TRUE(f.Ignored("m/sub/def.json", false));
  EXPECT_TRUE(f.Ignored("m/other.json", false));
  // .git/info/exclude has the lowest precedence.
  EXPECT_TRUE(f.Ignored("a.tmp.hlo", false));
  EXPECT_FALSE(f.Ignored("m/a.tmp.hlo", false));
  EXPECT_TRUE(f.Ignored("excluded.hlo", false));
  // Nothing below an ignored directory comes back, not even by `!`.
  EXPECT_TRUE(f.Ignored("out/model.hlo", false));
  EXPECT_TRUE(f.Ignored("out/important.json", false));
  EXPECT_FALSE(f.Ignored("m/model.hlo", false));
}

}  // namespace
}  // namespace topolint

namespace topolint {
namespace {

// The library's lookup (the C++ and C APIs) stops at the repository root
// as the CLI's does (tests/cli/project_scope_cli_test.cc).
TEST(ProjectConfigLookupTest, StopsAtTheRepositoryRoot) {
  testing::TempDir d;
  Write(d.path() + "/.topolint.json", "{}");
  Write(d.path() + "/repo/.git/HEAD", "ref: refs/heads/main\n");
  Write(d.path() + "/repo/m/def.json", "{}");
  EXPECT_EQ(FindProjectConfig(d.path() + "/repo/m"), "");
  EXPECT_EQ(FindProjectConfig(d.path() + "/repo"), "");
  Write(d.path() + "/repo/.topolint.json", "{}");
  EXPECT_EQ(FindProjectConfig(d.path() + "/repo/m"),
            d.path() + "/repo/.topolint.json");
  // Outside a work tree the lookup goes up as before.
  Write(d.path() + "/plain/m/def.json", "{}");
  EXPECT_EQ(FindProjectConfig(d.path() + "/plain/m"),
            d.path() + "/.topolint.json");
}

}  // namespace
}  // namespace topolint
