// Path filters (checker/core/path_filter.h): RE2 patterns with pre-commit's
// search semantics, error columns, levels, roots, named files.
#include "checker/core/path_filter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "checker/core/project_config.h"
#include "fmt/format.h"
#include "re2/re2.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;
using topolint::testing::TempDir;

std::string Reject(const std::vector<std::string>& include,
                   const std::vector<std::string>& exclude,
                   const std::string& path) {
  auto level = PathFilterLevel::Make("/r", include, exclude, "");
  EXPECT_TRUE(level.ok()) << level.status();
  return level.ok() ? level->Reject(path) : "";
}

// pre-commit's `files` / `exclude` are Python `re.search` on the path: not
// anchored unless the pattern says so.
TEST(PathFilterTest, SearchesAsPythonReSearchDoes) {
  struct Case {
    const char* pattern;
    const char* path;
    bool matches;  // re.search(pattern, path) is not None
  };
  const Case cases[] = {
      {"^fixtures/", "fixtures/a/model.hlo", true},
      {"^fixtures/", "src/fixtures/model.hlo", false},
      {"fixtures/", "src/fixtures/model.hlo", true},
      {"\\.hlo$", "a/model.hlo", true},
      {"\\.hlo$", "a/model.hlo.txt", false},
      {"model", "a/my_model.neff", true},
      {"^a/[^/]*\\.json$", "a/b/def.json", false},
      {"^(a|b)/", "b/x.hlo", true},
      {"(?i)MODEL", "a/model.hlo", true},
      {"MODEL", "a/model.hlo", false},
  };
  for (const Case& c : cases) {
    const bool kept = Reject({}, {c.pattern}, c.path).empty();
    EXPECT_EQ(kept, !c.matches) << c.pattern << " on " << c.path;
    const bool included = Reject({c.pattern}, {}, c.path).empty();
    EXPECT_EQ(included, c.matches) << c.pattern << " on " << c.path;
  }
}

TEST(PathFilterTest, ExcludeWinsOverInclude) {
  EXPECT_EQ(Reject({"\\.hlo$"}, {"^legacy/"}, "src/m.hlo"), "");
  EXPECT_THAT(Reject({"\\.hlo$"}, {"^legacy/"}, "legacy/m.hlo"),
              HasSubstr("excluded by --exclude '^legacy/'"));
  EXPECT_THAT(Reject({"\\.hlo$"}, {}, "def.json"),
              HasSubstr("matches no --include pattern"));
  // Several includes: any one is enough.
  EXPECT_EQ(Reject({"\\.hlo$", "\\.json$"}, {}, "def.json"), "");
}

TEST(PathFilterTest, InvalidPatternNamesTheColumn) {
  auto bad = CompilePathPattern("src/a**", "--exclude");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("--exclude: invalid regular expression 'src/a**' at "
                        "column 6: bad repetition operator"));
  auto range = CompilePathPattern("x[z-a]", "--include");
  ASSERT_FALSE(range.ok());
  EXPECT_THAT(std::string(range.status().message()),
              HasSubstr("column 3: invalid character class range: z-a"));
  auto paren = CompilePathPattern("^fix(tures/(a)", "--exclude");
  ASSERT_FALSE(paren.ok());
  EXPECT_THAT(std::string(paren.status().message()),
              HasSubstr("at column 5: missing )"));
  // A fragment RE2 quotes that also occurs earlier, where it is valid: the
  // column is that of the refused one.
  for (const auto& [pattern, column] : std::vector<std::pair<std::string, int>>{
           {"(?P=name)", 1},
           {"^(?P<d>[a-z]+)/(?P=d)\\.hlo$", 16},
           {"((?P=n))", 2},
           {"(?P<a>x)(?P<b>y)(?P=a)(?P<c>z)", 17},
           {"[(?P](?P=n)", 6},
           {"\\(?P(?P=n)", 5},
           {"[a-z]+/x[z-a](?P=n)", 10},
           {"a***", 2},
           {"a*b**c**", 4}}) {
    auto r = CompilePathPattern(pattern, "--exclude");
    ASSERT_FALSE(r.ok()) << pattern;
    EXPECT_THAT(std::string(r.status().message()),
                HasSubstr(fmt::format("at column {}:", column)))
        << pattern;
  }
  // Python-only syntax RE2 refuses, with the reason.
  for (const char* p : {"(?x) a", "(a)\\1", "a(?=b)", "(unclosed"}) {
    auto r = CompilePathPattern(p, "--exclude");
    EXPECT_FALSE(r.ok()) << p;
  }
}

// RE2 matches in linear time: the classic catastrophic pattern on a long
// name that does not match returns (Python's re would backtrack for ever).
TEST(PathFilterTest, PathologicalPatternOnLongNameFinishes) {
  const std::string name = std::string(100 * 1024, 'a') + "!";
  EXPECT_EQ(Reject({}, {"(a+)+$"}, name), "");
  EXPECT_NE(Reject({}, {"(a+)+!$"}, name), "");
  EXPECT_NE(Reject({"(x+x+)+y"}, {}, std::string(100 * 1024, 'x')), "");
}

TEST(PathFilterTest, RelativeToRoot) {
  EXPECT_EQ(RelativeToRoot("/r/a/./b/c.hlo", "/r"), "a/b/c.hlo");
  EXPECT_EQ(RelativeToRoot("/r/a/../c.hlo", "/r/"), "c.hlo");
  EXPECT_EQ(RelativeToRoot("/s/c.hlo", "/r"), "../s/c.hlo");
  // What std::filesystem gives, whether the string form applies or not.
  auto by_filesystem = [](const std::string& path, const std::string& root) {
    const auto absolute = [](const std::string& x) {
      std::filesystem::path q(x.empty() ? "." : x);
      if (q.is_relative()) q = std::filesystem::current_path() / q;
      return q.lexically_normal();
    };
    const std::string out =
        absolute(path).lexically_relative(absolute(root)).generic_string();
    return out.empty() ? absolute(path).generic_string() : out;
  };
  const char* const paths[] = {"/r/a/b.hlo", "/r/a/", "/r", "/r/", "/ra/b",
                               "/r/./a",     "a/b",   ".",  "",    "/"};
  const char* const roots[] = {"/r", "/r/", "/", ".", "a", "/r/a"};
  for (const char* path : paths) {
    for (const char* root : roots) {
      EXPECT_EQ(RelativeToRoot(path, root), by_filesystem(path, root))
          << path << " from " << root;
    }
  }
}

TEST(PathFilterTest, NamedFilesAreKeptUnlessForceExclude) {
  TempDir dir;
  PathSelector selector;
  ASSERT_TRUE(selector.SetCommandLine({}, {"\\.hlo$"}).ok());
  selector.set_config(dir.Write(".topolint.json", "{}"));
  FoundFile named{dir.path() + "/m.hlo", nullptr, true};
  FoundFile found{dir.path() + "/n.hlo", nullptr, false};
  EXPECT_EQ(*selector.Reject(named), "");
  EXPECT_THAT(*selector.Reject(found), HasSubstr("excluded by --exclude"));
  selector.set_force_exclude(true);
  EXPECT_THAT(*selector.Reject(named), HasSubstr("excluded by --exclude"));
}

// A config's patterns are relative to the git work tree holding it, else
// to its own directory, and apply below it.
TEST(PathFilterTest, ConfigLevelIsRelativeToTheConfig) {
  TempDir dir;
  dir.Write("proj/.topolint.json", R"({"exclude": "^gen/"})");
  PathSelector selector;
  ASSERT_TRUE(selector.SetCommandLine({}, {}).ok());
  FoundFile gen{dir.path() + "/proj/gen/m.hlo", nullptr, false};
  FoundFile src{dir.path() + "/proj/src/gen/m.hlo", nullptr, false};
  EXPECT_THAT(*selector.Reject(gen),
              HasSubstr("excluded by \"exclude\" of " + dir.path() +
                        "/proj/.topolint.json '^gen/'"));
  EXPECT_EQ(*selector.Reject(src), "");

  // In a git work tree the root is the work tree's.
  dir.Write("repo/.git/HEAD", "");
  dir.Write("repo/proj/.topolint.json", R"({"exclude": "^proj/gen/"})");
  PathSelector in_git;
  ASSERT_TRUE(in_git.SetCommandLine({}, {}).ok());
  FoundFile repo_gen{dir.path() + "/repo/proj/gen/m.hlo", nullptr, false};
  EXPECT_NE(*in_git.Reject(repo_gen), "");
}

// The filters of a `.topolint.json` above a git work tree do not apply to
// the tree's files, as its settings do not: one lookup for both
// (docs/filters.md).
TEST(PathFilterTest, ConfigAboveTheWorkTreeDoesNotApply) {
  TempDir dir;
  dir.Write(".topolint.json", R"({"exclude": "gen/", "include": "\\.pb$"})");
  dir.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  PathSelector selector;
  ASSERT_TRUE(selector.SetCommandLine({}, {}).ok());
  FoundFile gen{dir.path() + "/repo/gen/m.hlo", nullptr, false};
  EXPECT_EQ(*selector.Reject(gen), "");
  // Outside the work tree the file above applies.
  FoundFile plain{dir.path() + "/plain/gen/m.hlo", nullptr, false};
  EXPECT_THAT(*selector.Reject(plain), HasSubstr("excluded by \"exclude\""));
  // The work tree's own file applies, the same one its units' settings
  // come from.
  const std::string own =
      dir.Write("repo/.topolint.json", R"({"exclude": "^gen/"})");
  PathSelector in_repo;
  ASSERT_TRUE(in_repo.SetCommandLine({}, {}).ok());
  EXPECT_THAT(*in_repo.Reject(gen),
              HasSubstr("excluded by \"exclude\" of " + own + " '^gen/'"));
  EXPECT_EQ(FindProjectConfig(dir.path() + "/repo/gen"), own);
}

TEST(PathFilterTest, BrokenConfigIsAnError) {
  TempDir dir;
  dir.Write("p/.topolint.json", R"({"exclude": 3})");
  PathSelector selector;
  ASSERT_TRUE(selector.SetCommandLine({}, {}).ok());
  FoundFile f{dir.path() + "/p/m.hlo", nullptr, false};
  EXPECT_FALSE(selector.Reject(f).ok());
}

TEST(ProjectConfigFilterTest, ParsesIncludeAndExclude) {
  auto cfg = ParseProjectConfig(
      R"({"include": "\\.hlo$", "exclude": ["^a/", "^b/"]})", "t.json");
  ASSERT_TRUE(cfg.ok()) << cfg.status();
  EXPECT_EQ(cfg->include, std::vector<std::string>{"\\.hlo$"});
  EXPECT_EQ(cfg->exclude, (std::vector<std::string>{"^a/", "^b/"}));
}

TEST(ProjectConfigFilterTest, InvalidPatternIsLocated) {
  auto cfg =
      ParseProjectConfig("{\n  \"exclude\": [\"^a/\", \"(b\"]\n}", "t.json");
  ASSERT_FALSE(cfg.ok());
  EXPECT_THAT(std::string(cfg.status().message()),
              HasSubstr("t.json:2:22: \"exclude\": invalid regular "
                        "expression '(b' at column 1: missing )"));
  auto typo = ParseProjectConfig(R"({"exlude": "x"})", "t.json");
  ASSERT_FALSE(typo.ok());
  EXPECT_THAT(std::string(typo.status().message()),
              HasSubstr("did you mean \"exclude\"?"));
}

}  // namespace
}  // namespace topolint
