// scripts/new-rule.sh: --dry-run lists every file of a scaffold and writes
// nothing; on a copy of the tree (--root) it writes the table row, the
// docs/reference/rules.md row, a CHANGELOG line, a stub wired where its
// family's rules run, a test, fixtures that cannot pass yet and a docs page
// with the standard sections; bad arguments exit 2 and write nothing. And a
// rule of every family, scaffolded in a copy of the tree with only its stub
// written, builds and fires on its fixture (CONTRIBUTING.md, "Adding a
// rule").
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/registry.h"
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
// of one neff rule, docs/reference/rules.md, CHANGELOG.md and an empty
// docs/rules (the script makes tests/rules/neff).
std::string CopyTree(const TempDir& dir) {
  const fs::path to = fs::path(dir.path()) / "tree";
  fs::create_directories(to / "fixtures");
  fs::create_directories(to / "docs" / "rules");
  fs::create_directories(to / "docs" / "reference");
  fs::copy(kRoot / "rules", to / "rules", fs::copy_options::recursive);
  fs::copy(kRoot / "fixtures" / "neff-schema", to / "fixtures" / "neff-schema",
           fs::copy_options::recursive);
  fs::copy(kRoot / "docs/reference/rules.md", to / "docs/reference/rules.md");
  fs::copy(kRoot / "CHANGELOG.md", to / "CHANGELOG.md");
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
        "| [`hlo-foo-bar`](../rules/hlo-foo-bar.md) | warning | a foo is "
        "barred |",
        "- New rule `hlo-foo-bar` (warning, family `hlo`): a foo is barred.",
        "would add to rules/hlo_rules.cc", "struct HloFooBar {",
        "void Op(const hlo_rules::OpView& /*view*/, Emitter& /*emit*/)",
        // Called by the module session, per collective and per module.
        "    hlo_foo_bar_.Op(view, emit_);",
        "    hlo_foo_bar_.End(module_, emit_);", "  HloFooBar hlo_foo_bar_;",
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

  // Its docs/reference/rules.md row, after the last, and a CHANGELOG line.
  const std::string ref = ReadAll((t / "docs/reference/rules.md").string());
  const std::string want_row =
      "| [`neff-foo-bar`](../rules/neff-foo-bar.md) | error | "
      "a foo is barred |\n";
  EXPECT_NE(ref.find("| [`unchecked-input`]"), std::string::npos);
  EXPECT_GT(ref.find(want_row), ref.find("| [`unchecked-input`]")) << ref;
  const std::string log = ReadAll((t / "CHANGELOG.md").string());
  const size_t line = log.find(
      "- New rule `neff-foo-bar` (error, family `neff`): "
      "a foo is barred.\n");
  ASSERT_NE(line, std::string::npos);
  EXPECT_LT(log.find("## [Unreleased]"), line);
  EXPECT_LT(log.rfind("### Added", line), line);
  EXPECT_GT(log.rfind("### Added", line), log.find("## [Unreleased]"));

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
        root + "neff-foo neff error 'a|b'", root + "neff-foo neff error",
        std::string("--bogus a b c d")}) {
    const CliResult r = RunNewRule(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find("new-rule.sh"), std::string::npos) << args;
  }
  EXPECT_EQ(ReadAll(tree + "/rules/rule_ids.h"), table);
  EXPECT_EQ(ReadAll(tree + "/CHANGELOG.md"),
            ReadAll((kRoot / "CHANGELOG.md").string()));
  EXPECT_FALSE(fs::exists(tree + "/fixtures/neff-foo"));
  EXPECT_FALSE(fs::exists(tree + "/docs/rules/neff-foo.md"));
}

// Runs `cmd` with sh, its output in `scratch`.
CliResult RunShell(const std::string& cmd, const std::string& scratch) {
  const std::string out = scratch + "/shell.out", err = scratch + "/shell.err";
  const std::string full =
      "(" + cmd + ") >" + ShellQuote(out) + " 2>" + ShellQuote(err);
  const int status = std::system(full.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  r.out = ReadAll(out);
  r.err = ReadAll(err);
  return r;
}

// hlo-foo-bar -> HloFooBar
std::string Camel(const std::string& id) {
  std::string out;
  bool up = true;
  for (char c : id) {
    if (c == '-') {
      up = true;
    } else {
      out += up ? static_cast<char>(c - 'a' + 'A') : c;
      up = false;
    }
  }
  return out;
}

// What a contributor writes: the first function of the stub of `id` in
// `file` reports the rule once, where its parameters say (the collective,
// or the unit). The other functions stay stubs.
::testing::AssertionResult WriteRule(const fs::path& file,
                                     const std::string& id) {
  std::string text = ReadAll(file.string());
  const size_t at = text.find("// " + id + ": ");
  if (at == std::string::npos) {
    return ::testing::AssertionFailure()
           << "no stub of " << id << " in " << file;
  }
  const size_t open = text.find(") {\n", at);
  const size_t sig = text.rfind("void ", open);
  if (open == std::string::npos || sig == std::string::npos || sig < at) {
    return ::testing::AssertionFailure() << "no function in the stub of " << id;
  }
  std::string signature = text.substr(sig, open - sig);
  std::string where;
  std::vector<std::string> names;
  if (signature.find("/*view*/") != std::string::npos) {
    where = "At(view.module->file, view.op->pos)";
    names = {"view", "emit"};
  } else if (signature.find("/*op*/") != std::string::npos) {
    where = "At(module.file, op.pos)";
    names = {"module", "op", "emit"};
  } else if (signature.find("/*unit*/") != std::string::npos) {
    where = "Location(unit.directory)";
    names = {"unit", "emit"};
  } else {
    return ::testing::AssertionFailure()
           << "stub of " << id << " takes no view, op or unit: " << signature;
  }
  for (const std::string& n : names) {
    const std::string commented = "/*" + n + "*/";
    const size_t p = signature.find(commented);
    if (p == std::string::npos) {
      return ::testing::AssertionFailure()
             << "stub of " << id << " has no " << n << ": " << signature;
    }
    signature.replace(p, commented.size(), n);
  }
  const size_t body = open + 4;
  const size_t todo_end = text.find('\n', body);
  if (text.find("TODO(new-rule)", body) >= todo_end) {
    return ::testing::AssertionFailure() << "no TODO in the stub of " << id;
  }
  text.replace(body, todo_end - body,
               "  emit.Report(k" + Camel(id) + ", " + where +
                   ", \"the scaffolded rule fires\");");
  text.replace(sig, open - sig, signature);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
  return ::testing::AssertionSuccess();
}

// The files of the tree as path -> contents.
std::map<std::string, std::string> Snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    out[e.path().lexically_relative(root).string()] =
        ReadAll(e.path().string());
  }
  return out;
}

// What the top-level CMakeLists.txt needs to build the command (no tests).
const char* const kBuildInputs[] = {"CMakeLists.txt", "VERSION",
                                    "cmake",          "checker",
                                    "rules",          "include",
                                    "docs",           "fixtures",
                                    "bench/floor.cc", "bench/fast_path_off.cc",
                                    "CHANGELOG.md",   ".clang-format"};

// The contributor's path for every family of rules/registry.cc: scaffold,
// write the stub's report, build `topolint`, see the rule fire on its
// fixture. The copy is built with ccache when it is installed, with
// CCACHE_BASEDIR at the copy, so that only the files the scaffolds change
// are compiled (rules/rule_ids.h: the code that includes it).
TEST(NewRuleScriptTest, ARuleOfEveryFamilyBuildsAndFires) {
  TempDir dir;
  const fs::path tree = fs::path(dir.path()) / "tree";
  for (const char* in : kBuildInputs) {
    if (!fs::exists(kRoot / in)) continue;  // .clang-format is optional
    fs::create_directories((tree / in).parent_path());
    fs::copy(kRoot / in, tree / in, fs::copy_options::recursive);
  }
  const std::map<std::string, std::string> before = Snapshot(tree);

  std::map<std::string, std::string> ids;  // family -> rule id
  std::set<std::string> may_change = {"rules/rule_ids.h", "CHANGELOG.md",
                                      "docs/reference/rules.md"};
  for (const CheckFamily& f : AllCheckFamilies()) {
    const std::string family(f.name);
    const std::string id = family + "-scaffold-probe";
    const CliResult r =
        RunNewRule("--root " + ShellQuote(tree.string()) + " " + id + " " +
                       family + " warning 'a scaffolded rule'",
                   dir.path());
    ASSERT_EQ(r.exit_code, 0) << family << ": " << r.err;
    // "  rules/x_rules.cc      XScaffoldProbe (a stub: ...", in the summary.
    const size_t name = r.out.find(" " + Camel(id) + " (a stub");
    ASSERT_NE(name, std::string::npos) << r.out;
    const size_t line = r.out.rfind('\n', name) + 1;
    const std::string file =
        r.out.substr(line + 2, r.out.find(' ', line + 2) - (line + 2));
    may_change.insert(file);
    ASSERT_TRUE(WriteRule(tree / file, id));
    ids[family] = id;
  }

  // Nothing else was touched; what is new is the rule's own.
  for (const auto& [path, text] : Snapshot(tree)) {
    const auto old = before.find(path);
    if (old == before.end()) {
      bool own = false;
      for (const auto& [family, id] : ids) {
        std::string snake = id;
        for (char& c : snake) c = c == '-' ? '_' : c;
        own |= path.rfind("fixtures/" + id + "/", 0) == 0 ||
               path == "docs/rules/" + id + ".md" ||
               path.find("/" + snake + "_test.cc") != std::string::npos;
      }
      EXPECT_TRUE(own) << "new file " << path;
    } else if (old->second != text) {
      EXPECT_TRUE(may_change.count(path)) << "changed " << path;
    }
  }

  const std::string jobs = std::getenv("TOPOLINT_SCAFFOLD_JOBS") != nullptr
                               ? std::getenv("TOPOLINT_SCAFFOLD_JOBS")
                               : "2";
  const CliResult build =
      RunShell("cd " + ShellQuote(tree.string()) +
                   " && export CCACHE_BASEDIR=\"$PWD\" CCACHE_NOHASHDIR=true"
                   " && launcher=\"\" && if command -v ccache >/dev/null; then"
                   " launcher=\"-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
                   " -DCMAKE_C_COMPILER_LAUNCHER=ccache\"; fi"
                   " && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release"
                   " -DTOPOLINT_BUILD_TESTS=OFF $launcher"
                   " && cmake --build build --target topolint -j " +
                   ShellQuote(jobs),
               dir.path());
  ASSERT_EQ(build.exit_code, 0)
      << build.out.substr(build.out.size() > 8000 ? build.out.size() - 8000 : 0)
      << build.err;

  for (const auto& [family, id] : ids) {
    const CliResult r =
        RunShell("cd " + ShellQuote(tree.string()) + " && c=fixtures/" + id +
                     "/fail-basic && build/topolint check --color never"
                     " $(cat $c/args 2>/dev/null) $c",
                 dir.path());
    EXPECT_NE(r.out.find("[" + id + "]"), std::string::npos)
        << family << ": " << r.out << r.err;
    EXPECT_LT(r.exit_code, 2) << family << ": " << r.err;
  }
}

}  // namespace
}  // namespace topolint::testing
