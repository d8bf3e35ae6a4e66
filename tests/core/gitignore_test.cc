// .gitignore semantics (checker/core/gitignore.h) and the path globs behind
// them and per_file_ignores (checker/core/path_glob.h).
#include "checker/core/gitignore.h"

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>

#include "checker/core/path_glob.h"
#include "checker/core/project_config.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using V = GitignoreRules::Verdict;

// One glob case: does `pattern` match `text`?
struct GlobCase {
  const char* pattern;
  const char* text;
  bool match;
};

// One .gitignore case: the verdict on `path` (a directory when `dir`).
struct PathCase {
  const char* path;
  bool dir;
  V verdict;
};

void ExpectVerdicts(const GitignoreRules& rules,
                    std::initializer_list<PathCase> cases) {
  for (const PathCase& c : cases) {
    EXPECT_EQ(rules.Decide(c.path, c.dir), c.verdict)
        << c.path << (c.dir ? "/" : "");
  }
}

TEST(PathGlobTest, Components) {
  const GlobCase cases[] = {
      {"*.hlo", "model.hlo", true},
      {"*.hlo", "model.hlo.txt", false},
      {"m?del.[hj]lo", "model.hlo", true},
      {"[!a]x", "bx", true},
      {"[^b]x", "bx", false},
      {"MODULE_[0-9]*", "MODULE_12+ab", true},
      {"\\*x", "*x", true},
      {"\\*x", "ax", false},
      {"[x", "[x", true},  // no closing ']': literal
  };
  for (const GlobCase& c : cases) {
    EXPECT_EQ(GlobComponentMatch(c.pattern, c.text), c.match)
        << c.pattern << " on " << c.text;
  }
}

TEST(PathGlobTest, DoubleStar) {
  const GlobCase cases[] = {
      {"**/def.json", "def.json", true},
      {"**/def.json", "a/b/def.json", true},
      {"legacy/**/*.hlo", "legacy/model.hlo", true},
      {"legacy/**/*.hlo", "legacy/a/b/model.hlo", true},
      {"legacy/**/*.hlo", "other/legacy/m.hlo", false},
      {"cache/**", "cache/x", true},
      {"cache/**", "cache/x/y", true},
      {"cache/**", "cache", false},
      {"a/*.hlo", "a/b/c.hlo", false},  // * stops at '/'
      {"a**b/c", "axyb/c", true},       // ** as *
  };
  for (const GlobCase& c : cases) {
    EXPECT_EQ(GlobPathMatch(c.pattern, c.text), c.match)
        << c.pattern << " on " << c.text;
  }
}

// Without `**` a pattern matches component by component (no splitting into
// lists): the counts must agree, empty components count for nothing.
TEST(PathGlobTest, ComponentsInStep) {
  const GlobCase cases[] = {
      {"a/b", "a/b", true},
      {"a/b", "a/b/c", false},
      {"a/b/c", "a/b", false},
      {"a//b", "a/b", true},
      {"/a/", "a", true},
      {"a", "/a//", true},
      {"", "", true},
      {"", "a", false},
      {"a", "", false},
      {"a/*", "a/b", true},
      {"a/*", "a", false},
      {"*", "a/b", false},
      {"*/*.hlo", "x/m.hlo", true},
      {"[ab]/m", "c/m", false},
  };
  for (const GlobCase& c : cases) {
    EXPECT_EQ(GlobPathMatch(c.pattern, c.text), c.match)
        << c.pattern << " on " << c.text;
  }
}

TEST(PathGlobTest, DoubleStarCasesStillSplit) {
  const GlobCase cases[] = {
      {"**", "a/b", true},
      {"a/**/b", "a/b", true},
      {"a/**/b", "a/x/y/b", true},
      {"a/**/b", "a/x/y/c", false},
  };
  for (const GlobCase& c : cases) {
    EXPECT_EQ(GlobPathMatch(c.pattern, c.text), c.match)
        << c.pattern << " on " << c.text;
  }
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
  ExpectVerdicts(r, {
                        {"a/b/x.neff", false, V::kIgnored},  // any depth
                        {"a/keep.neff", false, V::kIncluded},
                        {"build", true, V::kIgnored},
                        {"a/build", true, V::kIgnored},
                        {"build", false, V::kNone},  // a file named build
                        {"top.json", false, V::kIgnored},
                        {"a/top.json", false, V::kNone},  // anchored
                        {"docs/x.json", false, V::kIgnored},
                        {"a/docs/x.json", false, V::kNone},
                        {"#hash.hlo", false, V::kIgnored},
                        {"!bang.hlo", false, V::kIgnored},
                        {"trailing.hlo", false, V::kIgnored},
                        {"space .hlo", false, V::kIgnored},
                        {"x/gen/y/z.hlo", false, V::kIgnored},
                        {"crlf.hlo", false, V::kIgnored},
                        {"model.hlo", false, V::kNone},
                    });
}

TEST(GitignoreRulesTest, NestedFileMatchesBelowItsDirectoryOnly) {
  const GitignoreRules r("*.json\n/local.hlo\n", "models/a");
  ExpectVerdicts(r, {
                        {"models/a/def.json", false, V::kIgnored},
                        {"models/a/b/def.json", false, V::kIgnored},
                        {"models/def.json", false, V::kNone},
                        {"models/ab/def.json", false, V::kNone},
                        {"models/a/local.hlo", false, V::kIgnored},
                        {"models/a/b/local.hlo", false, V::kNone},
                    });
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
  const struct {
    const char* path;
    bool ignored;
  } cases[] = {
      {"x.json", true},
      {"important.json", false},
      // A deeper .gitignore overrides a higher one, and the deepest wins.
      {"m/def.json", false},
      {"m/sub/def.json", true},
      {"m/other.json", true},
      // .git/info/exclude has the lowest precedence.
      {"a.tmp.hlo", true},
      {"m/a.tmp.hlo", false},
      {"excluded.hlo", true},
      // Nothing below an ignored directory comes back, not even by `!`.
      {"out/model.hlo", true},
      {"out/important.json", true},
      {"m/model.hlo", false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(f.Ignored(c.path, false), c.ignored) << c.path;
  }
}

// The filter's caches are emptied past a bound (memory flat over a large
// tree): verdicts stay the same, through many directories and back.
TEST(GitignoreFilterTest, VerdictsSurviveEmptiedCaches) {
  testing::TempDir d;
  const std::string root = d.path();
  Write(root + "/.gitignore", "*.tmp\nout/\n");
  for (int i = 0; i < 20; ++i) {
    Write(root + "/d" + std::to_string(i) + "/.gitignore",
          i % 2 == 0 ? "x.json\n" : "!a.tmp\n");
  }
  GitignoreFilter small(root, /*max_cached_dirs=*/3);
  GitignoreFilter big(root);
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 20; ++i) {
      const std::string dir = "d" + std::to_string(i);
      for (const std::string& name :
           {dir + "/x.json", dir + "/a.tmp", dir + "/b.tmp", dir + "/m.hlo",
            dir + "/out/m.hlo", dir + "/sub/deeper/x.json"}) {
        ASSERT_EQ(small.Ignored(name, false), big.Ignored(name, false)) << name;
      }
      EXPECT_EQ(small.Ignored(dir + "/x.json", false), i % 2 == 0);
      EXPECT_EQ(small.Ignored(dir + "/a.tmp", false), i % 2 == 0);
      EXPECT_TRUE(small.Ignored(dir + "/out/m.hlo", false));
    }
  }
}

// Paths of one directory reuse what was found for the directories above
// them and the ignore files that apply there; a directory found ignored is
// never taken as clear for the next path in it, and a deeper ignore file
// met later still decides first.
TEST(GitignoreFilterTest, PathsOfOneDirectoryInARow) {
  testing::TempDir d;
  const std::string root = d.path();
  Write(root + "/.gitignore", "gone/\n*.tmp\n");
  Write(root + "/keep/.gitignore", "!a.tmp\n");
  GitignoreFilter f(root);
  for (int pass = 0; pass < 2; ++pass) {
    EXPECT_TRUE(f.Ignored("gone/x/m.hlo", false));
    EXPECT_TRUE(f.Ignored("gone/x/n.hlo", false));
    EXPECT_FALSE(f.Ignored("gone/x/n.hlo", false, "gone/x"));
    EXPECT_TRUE(f.Ignored("gone/x/n.hlo", false));
    EXPECT_FALSE(f.Ignored("keep/a.tmp", false));
    EXPECT_TRUE(f.Ignored("keep/b.tmp", false));
    EXPECT_FALSE(f.Ignored("keep/m.hlo", false));
    EXPECT_TRUE(f.Ignored("a.tmp", false));
    EXPECT_FALSE(f.Ignored("m.hlo", false));
    EXPECT_TRUE(f.Ignored("keep/gone", true));
  }
}

// The directory a search started from, and those above it, are not judged;
// what is below it is.
TEST(GitignoreFilterTest, TheSearchRootAndWhatIsAboveItAreNotJudged) {
  testing::TempDir d;
  const std::string root = d.path();
  Write(root + "/.gitignore", "build/\n*.tmp.hlo\n");
  Write(root + "/build/out/.gitignore", "skip/\n");
  GitignoreFilter f(root);
  EXPECT_TRUE(f.Ignored("build/out/m.hlo", false));
  EXPECT_FALSE(f.Ignored("build/out/m.hlo", false, "build"));
  EXPECT_FALSE(f.Ignored("build/out/m.hlo", false, "build/out"));
  EXPECT_TRUE(f.Ignored("build/out/skip/m.hlo", false, "build/out"));
  EXPECT_TRUE(f.Ignored("build/out/a.tmp.hlo", false, "build/out"));
  // A search root that does not hold the path changes nothing.
  EXPECT_TRUE(f.Ignored("build/out/m.hlo", false, "bui"));
  EXPECT_TRUE(f.Ignored("build/out/m.hlo", false, "models"));

  EXPECT_EQ(GitignoreSearchRoot("/r", "/r"), "");
  EXPECT_EQ(GitignoreSearchRoot("/r", "/r/build/out/"), "build/out");
  EXPECT_EQ(GitignoreSearchRoot("/r", "/rb/x"), "");
  EXPECT_EQ(GitignoreSearchRoot("/", "/build"), "build");
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
