// scripts/new-rule.sh: --dry-run lists every file of a scaffold and writes
// nothing; on a copy of the tree (--root) it writes the table row, a stub
// wired into its family, a test, fixtures that cannot pass yet and a docs
// page with the standard sections; bad arguments exit 2 and write nothing.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
const fs::path kRoot = TOPOLINT_SOURCE_DIR;

// Runs scripts/new-rule.sh with `args` (already shell-quoted).
CliResult RunNewRule(const std::string& args, const std::string& scratch) {
  const std::string out = scratch + "/script.out",
                    err = scratch + "/script.err";
  const std::string cmd =
      "bash " + ShellQuote((kRoot / "scripts/new-rule.sh").string()) + " " +
      args + " >" + ShellQuote(out) + " 2>" + ShellQuote(err);
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  r.out = ReadAll(out);
  r.err = ReadAll(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

// A copy of what the script reads and writes: rules/, the passing fixtures
// of one neff rule, and an empty docs/rules (the script makes
// tests/rules/neff).
std::string CopyTree(const TempDir& dir) {
  const fs::path to = fs::path(dir.path()) / "tree";
  fs::create_directories(to / "fixtures");
  fs::create_directories(to / "docs" / "rules");
  fs::copy(kRoot / "rules", to / "rules", fs::copy_options::recursive);
  fs::copy(kRoot / "fixtures" / "neff-schema", to / "fixtures" / "neff-schema",
           fs::copy_options::recursive);
  return to.string();
}

const char* const kSections[] = {"## What it checks",  "## Why it matters",
                                 "## Failing example", "## Passing example",
                                 "## How to fix",      "## Options"};

TEST(NewRuleScriptTest, DryRunListsEveryFileAndWritesNothing) {
  TempDir scratch;
  const CliResult r = RunNewRule(
      "--dry-run hlo-foo-bar hlo warning 'a foo is barred'", scratch.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* want :
       {"X(kHloFooBar, \"hlo-foo-bar\", W, \"hlo\",",
        "would add to rules/hlo_rules.cc, before CheckHlo",
        "void CheckHloFooBar(", "  CheckHloFooBar(unit, emit);",
        "would write tests/rules/hlo/hlo_foo_bar_test.cc", "\"[hlo-foo-bar]\"",
        "would write fixtures/hlo-foo-bar/fail-basic/expected.txt",
        "would write fixtures/hlo-foo-bar/pass-basic/expected.txt",
        "would write docs/rules/hlo-foo-bar.md", "# hlo-foo-bar\n",
        "Severity: warning"}) {
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
  }
  for (const char* section : kSections) {
    EXPECT_NE(r.out.find(section), std::string::npos) << section;
  }
  EXPECT_FALSE(fs::exists(kRoot / "fixtures" / "hlo-foo-bar"));
  EXPECT_FALSE(fs::exists(kRoot / "docs" / "rules" / "hlo-foo-bar.md"));
}

TEST(NewRuleScriptTest, ScaffoldsARuleThatCannotPassYet) {
  TempDir dir;
  const std::string tree = CopyTree(dir);
  const CliResult r =
      RunNewRule("--root " + ShellQuote(tree) +
                     " neff-foo-bar neff error 'a foo is barred'",
                 dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path t = tree;

  // One table row, before the end marker.
  const std::string table = ReadAll((t / "rules/rule_ids.h").string());
  const size_t row = table.find(
      "  X(kNeffFooBar, \"neff-foo-bar\", E, \"neff\",  \\\n"
      "    \"a foo is barred\")  \\\n"
      "  /* new rules above this line */\n");
  EXPECT_NE(row, std::string::npos) << table;

  // The stub, before the family's function, which calls it first.
  const std::string family = ReadAll((t / "rules/neff_rules.cc").string());
  const size_t stub = family.find("void CheckNeffFooBar(");
  const size_t fn = family.find("void CheckNeff(");
  ASSERT_NE(stub, std::string::npos);
  ASSERT_NE(fn, std::string::npos);
  EXPECT_LT(stub, fn);
  EXPECT_NE(family.find("TODO(new-rule): report kNeffFooBar"),
            std::string::npos);
  EXPECT_NE(family.find("CheckNeffFooBar(unit, emit);", fn), std::string::npos);

  // The test asks for the finding on the failing case.
  const std::string test =
      ReadAll((t / "tests/rules/neff/neff_foo_bar_test.cc").string());
  EXPECT_NE(test.find("fixtures/neff-foo-bar/fail-basic"), std::string::npos);
  EXPECT_NE(test.find("EXPECT_NE(r.out.find(\"[neff-foo-bar]\")"),
            std::string::npos);

  // Both cases have inputs of the family and a TODO for expectations.
  for (const char* c : {"fail-basic", "pass-basic"}) {
    const fs::path cdir = t / "fixtures/neff-foo-bar" / c;
    EXPECT_TRUE(fs::exists(cdir / "def.json")) << cdir;
    EXPECT_EQ(ReadAll((cdir / "expected.txt").string()).rfind("TODO(", 0), 0u);
  }

  // The docs page: title, then the standard sections in order.
  const std::string doc = ReadAll((t / "docs/rules/neff-foo-bar.md").string());
  EXPECT_EQ(doc.rfind("# neff-foo-bar\n", 0), 0u);
  size_t last = 0;
  for (const char* section : kSections) {
    const size_t at = doc.find(std::string("\n") + section + "\n");
    ASSERT_NE(at, std::string::npos) << section;
    EXPECT_GT(at, last) << section;
    last = at;
  }

  // The same id a second time is refused.
  const CliResult again =
      RunNewRule("--root " + ShellQuote(tree) + " neff-foo-bar neff error 'x'",
                 dir.path());
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("already"), std::string::npos) << again.err;
}

TEST(NewRuleScriptTest, BadArgumentsExitTwoAndWriteNothing) {
  TempDir dir;
  const std::string tree = CopyTree(dir);
  const std::string table = ReadAll(tree + "/rules/rule_ids.h");
  const std::string root = "--root " + ShellQuote(tree) + " ";
  for (const std::string& args :
       {root + "NeffFoo neff error 's'", root + "neff neff error 's'",
        root + "neff-schema neff error 's'", root + "neff-foo nope error 's'",
        root + "neff-foo core error 's'", root + "neff-foo neff fatal 's'",
        root + "neff-foo neff error ''", root + "neff-foo neff error 'a\"b'",
        root + "neff-foo neff error", std::string("--bogus a b c d")}) {
    const CliResult r = RunNewRule(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find("new-rule.sh"), std::string::npos) << args;
  }
  EXPECT_EQ(ReadAll(tree + "/rules/rule_ids.h"), table);
  EXPECT_FALSE(fs::exists(tree + "/fixtures/neff-foo"));
  EXPECT_FALSE(fs::exists(tree + "/docs/rules/neff-foo.md"));
}

}  // namespace
}  // namespace topolint::testing
