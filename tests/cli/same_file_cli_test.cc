// One file, one identity (issue 43, section 8), end to end: a module
// hard-linked or symlinked under a second name in its unit is checked once
// and still compared with its def.json; a file named twice is checked once.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const fs::path kMismatch = fs::path(TOPOLINT_SOURCE_DIR) /
                           "fixtures/xref-topology-mismatch/fail-group-differs";

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// d/u: model.hlo, its second name `copy.hlo` (made by `link`), def.json
// whose topology differs from the module's groups.
void WriteUnit(const TempDir& d, bool symlink) {
  const std::string model =
      d.Write("u/model.hlo", ReadAll((kMismatch / "model.hlo").string()));
  d.Write("u/def.json", ReadAll((kMismatch / "def.json").string()));
  const std::string copy = d.path() + "/u/copy.hlo";
  if (symlink) {
    fs::create_symlink("model.hlo", copy);
  } else {
    ASSERT_EQ(::link(model.c_str(), copy.c_str()), 0);
  }
}

TEST(SameFileCliTest, AHardLinkedModuleIsStillComparedWithItsDefJson) {
  for (const bool symlink : {false, true}) {
    TempDir d;
    WriteUnit(d, symlink);
    // Streamed (one directory) and planned (the directory named twice).
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"check", "u"},
          std::vector<std::string>{"check", "u", "u"}}) {
      CliResult r = RunTopolint(args, d.path());
      EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
      EXPECT_EQ(Count(r.out, "[xref-topology-mismatch]"), 1u) << r.out;
      EXPECT_THAT(r.out, Not(HasSubstr("unchecked-input")));
      EXPECT_THAT(r.err, HasSubstr("(1 unit, 2 files checked, 1 skipped)"));
      std::vector<std::string> verbose = args;
      verbose.push_back("-v");
      r = RunTopolint(verbose, d.path());
      EXPECT_THAT(r.err,
                  HasSubstr(symlink ? "copy.hlo is model.hlo (same file"
                                    : "model.hlo is copy.hlo (same file"))
          << r.err;
      EXPECT_THAT(r.err, HasSubstr("checked once"));
    }
  }
}

TEST(SameFileCliTest, AFileNamedTwiceIsCheckedOnce) {
  TempDir d;
  WriteUnit(d, /*symlink=*/false);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"check", "u/model.hlo", "./u/model.hlo"},
        std::vector<std::string>{"check", "u/model.hlo", "u//model.hlo",
                                 d.path() + "/u/model.hlo"},
        std::vector<std::string>{"check", "u/model.hlo", "u/copy.hlo"}}) {
    const CliResult r = RunTopolint(args, d.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("1 file checked")) << args[2];
  }
  // A file and its directory: the directory's unit, once, compared.
  const CliResult r = RunTopolint({"check", "u/def.json", "u"}, d.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Count(r.out, "[xref-topology-mismatch]"), 1u) << r.out;
  EXPECT_THAT(r.err, HasSubstr("2 files checked"));
}

// A module in directory a/ and the same file (hard link or symlink) in b/,
// beside b's own pair: without the identity check b/ held two modules and
// one def.json, so pairing gave up (unchecked-input) and b's mismatch was
// never found; now b/model.hlo is a/model.hlo, checked once, and b/other.hlo
// pairs with b/def.json. Streamed (one root) and planned (two roots).
TEST(SameFileCliTest, ASecondNameInAnotherDirectoryDoesNotBreakPairing) {
  for (const bool symlink : {false, true}) {
    TempDir d;
    const std::string model =
        d.Write("t/a/model.hlo", ReadAll((kMismatch / "model.hlo").string()));
    d.Write("t/a/def.json", ReadAll((kMismatch / "def.json").string()));
    d.Write("t/b/other.hlo", ReadAll((kMismatch / "model.hlo").string()));
    d.Write("t/b/def.json", ReadAll((kMismatch / "def.json").string()));
    const std::string second = d.path() + "/t/b/model.hlo";
    if (symlink) {
      fs::create_symlink("../a/model.hlo", second);
    } else {
      ASSERT_EQ(::link(model.c_str(), second.c_str()), 0);
    }
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"check", "t"},
          std::vector<std::string>{"check", "t/a", "t/b"}}) {
      CliResult r = RunTopolint(args, d.path());
      EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
      EXPECT_THAT(r.out, Not(HasSubstr("unchecked-input"))) << r.out;
      EXPECT_EQ(Count(r.out, "[xref-topology-mismatch]"), 2u) << r.out;
      EXPECT_THAT(r.out, HasSubstr("t/b/other.hlo")) << r.out;
      EXPECT_THAT(r.out, Not(HasSubstr("t/b/model.hlo"))) << r.out;
      EXPECT_THAT(r.err, HasSubstr("(2 units, 4 files checked, 1 skipped)"));
      std::vector<std::string> verbose = args;
      verbose.push_back("-v");
      r = RunTopolint(verbose, d.path());
      EXPECT_THAT(r.err, HasSubstr("skipped t/b/model.hlo: same file as "
                                   "t/a/model.hlo (one device and inode); "
                                   "checked once, as t/a/model.hlo"))
          << r.err;
    }
  }
}

// Reports: the findings of a file reached under two names in two
// directories come once, under the name checked (JSON, SARIF).
TEST(SameFileCliTest, AFileInTwoDirectoriesIsReportedOnce) {
  TempDir d;
  const std::string model =
      d.Write("t/a/model.hlo",
              "HloModule m, replica_count=4\n\nENTRY e {\n  p = f32[8] "
              "parameter(0)\n  ROOT ar = f32[8] all-reduce(p), "
              "replica_groups={{0,1},{1,2}}, to_apply=add\n}\n");
  fs::create_directories(d.path() + "/t/b");
  ASSERT_EQ(::link(model.c_str(), (d.path() + "/t/b/model.hlo").c_str()), 0);
  const CliResult once =
      RunTopolint({"check", "--format", "json", "t/a"}, d.path());
  ASSERT_FALSE(once.out.empty());
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"check", "--format", "json", "t"},
        std::vector<std::string>{"check", "--format", "json", "t/a", "t/b"}}) {
    const CliResult r = RunTopolint(args, d.path());
    EXPECT_EQ(r.out, once.out);
    EXPECT_THAT(r.err, HasSubstr("(1 unit, 1 file checked, 1 skipped)"))
        << r.err;
  }
}

// --fix: a stale suppression in a file reached as t/a/m.hlo and t/b/m.hlo
// is one finding and one edit: "1 fixed", the comment removed once.
TEST(SameFileCliTest, AFileInTwoDirectoriesIsFixedOnce) {
  for (const bool symlink : {false, true}) {
    TempDir d;
    const std::string text =
        "HloModule m, replica_count=2\n\nENTRY e {\n  p = f32[8] "
        "parameter(0)\n  // topolint: disable-next-line=hlo-group-coverage\n"
        "  ROOT ar = f32[8] all-reduce(p), replica_groups={{0,1}}, "
        "to_apply=add\n}\n";
    const std::string model = d.Write("t/a/m.hlo", text);
    fs::create_directories(d.path() + "/t/b");
    const std::string second = d.path() + "/t/b/m.hlo";
    if (symlink) {
      fs::create_symlink("../a/m.hlo", second);
    } else {
      ASSERT_EQ(::link(model.c_str(), second.c_str()), 0);
    }
    const CliResult diff = RunTopolint({"check", "--diff", "t"}, d.path());
    EXPECT_EQ(Count(diff.out, "+++ "), 1u) << diff.out;
    EXPECT_EQ(Count(diff.out, "-  // topolint:"), 1u) << diff.out;
    const CliResult r = RunTopolint({"check", "--fix", "t"}, d.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("topolint: 1 fixed, ")) << r.err;
    EXPECT_EQ(ReadAll(model).find("topolint:"), std::string::npos);
    if (symlink) {
      EXPECT_TRUE(fs::is_symlink(second));
      EXPECT_THAT(r.err, HasSubstr("topolint: 1 fixed, 0 remaining"));
    } else {
      // As docs/fixes.md says, the fixed file gets a new inode: the other
      // name keeps the old text (and is a file of its own from then on).
      EXPECT_EQ(ReadAll(second), text);
    }
  }
}

}  // namespace
}  // namespace topolint::testing
