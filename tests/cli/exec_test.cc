// `topolint exec -- COMPILER ARGS...` end to end, with tests/cli/
// fake-neuronx-cc standing in for the compiler: it records that it ran,
// prints fixed bytes on both streams and writes a .neff.
#include <sys/wait.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "tests/cli/exec_fixture.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST_F(ExecTest, BlocksABadModuleBeforeTheCompilerRuns) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  CliResult r = Exec({"--color", "never"}, kCompile);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(CompilerRan());
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/m.neff"));
  EXPECT_EQ(r.out, "");  // topolint writes to stderr only
  EXPECT_THAT(r.err, HasSubstr("[hlo-duplicate-device-id]"));
  EXPECT_THAT(r.err, HasSubstr("m.hlo_module.pb has topology errors; the "
                               "compiler was not run"));
}

TEST_F(ExecTest, PassesAGoodModuleThroughUnchanged) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  CliResult wrapped = Exec({}, kCompile);
  EXPECT_TRUE(CompilerRan());
  ASSERT_TRUE(std::filesystem::exists(dir_.path() + "/m.neff"));
  std::filesystem::remove(dir_.path() + "/m.neff");
  CliResult direct = Direct(kCompile);
  EXPECT_EQ(wrapped.exit_code, 0);
  EXPECT_EQ(wrapped.exit_code, direct.exit_code);
  EXPECT_EQ(wrapped.out, direct.out);  // byte for byte, NUL and 0xff too
  EXPECT_EQ(wrapped.err, direct.err);
  EXPECT_THAT(wrapped.out, HasSubstr(std::string("\0\xff partial", 10)));

  // A failing compile: its status and streams, no check of its output.
  setenv("FAKE_CC_EXIT", "3", 1);
  wrapped = Exec({}, kCompile);
  direct = Direct(kCompile);
  EXPECT_EQ(wrapped.exit_code, 3);
  EXPECT_EQ(wrapped.out, direct.out);
  EXPECT_EQ(wrapped.err, direct.err);
}

TEST_F(ExecTest, CatchesANeffThatDisagreesWithItsModule) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  setenv("FAKE_CC_DEF_JSON",
         R"({"CCInfo": {"replica_groups": [[[0,2],[1,3]]]}})", 1);
  const std::vector<std::string> equals_forms = {
      "compile", "m.hlo_module.pb", "--framework=XLA", "--output=m.neff",
      "--logical-nc-config=2"};
  CliResult r = Exec({"--color", "never"}, equals_forms);
  EXPECT_TRUE(CompilerRan());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("Compiler status PASS"));
  EXPECT_THAT(r.err, HasSubstr("[xref-topology-mismatch]"));
  // The closing line names the flag the user gave, as given.
  EXPECT_THAT(r.err, HasSubstr("the compiler succeeded, but m.neff (compiled "
                               "from m.hlo_module.pb with "
                               "--logical-nc-config=2) has the topology "
                               "errors above"));
  // warn: reported, the compiler's status kept.
  r = Exec({"--on-error", "warn", "--color", "never"}, equals_forms);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("[xref-topology-mismatch]"));
  EXPECT_THAT(r.err, Not(HasSubstr("has the topology errors above")));
}

TEST_F(ExecTest, WarnRunsTheCompilerOnABadModule) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  CliResult r = Exec({"--on-error=warn", "--color", "never"}, kCompile);
  EXPECT_TRUE(CompilerRan());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("[hlo-duplicate-device-id]"));
  EXPECT_THAT(r.out, HasSubstr("Compiler status PASS"));
}

TEST_F(ExecTest, MissingCompilerIsExit2) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  CliResult r = RunShell(ShellQuote(TOPOLINT_BINARY) +
                             " exec -- no-such-neuronx-cc compile "
                             "m.hlo_module.pb",
                         dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("cannot run the compiler "
                               "'no-such-neuronx-cc': not found on PATH"));
  r = RunShell(ShellQuote(TOPOLINT_BINARY) +
                   " exec -- ./missing/neuronx-cc compile m.hlo_module.pb",
               dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no such file"));
  // No `--`, or nothing after it: usage errors.
  r = RunShell(ShellQuote(TOPOLINT_BINARY) + " exec " + ShellQuote(kFake),
               dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("after `--`"));
  r = RunShell(ShellQuote(TOPOLINT_BINARY) + " exec --on-error stop -- true",
               dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--on-error must be block or warn"));
  EXPECT_FALSE(CompilerRan());
}

// The deployment config above the module applies, as in `check`.
TEST_F(ExecTest, ChecksWithTheConfigAboveTheModule) {
  // The module records no device count, so the world-size comparison
  // takes it from the command line (docs/rules/config-world-size.md).
  dir_.Write("neuron_config.json", R"({"tp_degree": 8})");
  WriteModule("work/m.hlo_module.pb", {{0, 1, 2, 3}});
  CliResult r =
      Exec({"--color", "never", "--num-partitions", "4"},
           {"compile", "work/m.hlo_module.pb", "--output", "work/m.neff"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(CompilerRan());
  EXPECT_THAT(r.err, HasSubstr("[config-world-size]"));
}

// Issue 47 §5: exec's findings name the compiler flag the user gave, as
// given (`--logical-nc-config=2`), where the NEFF's LNC differs from it.
TEST_F(ExecTest, LncFindingNamesTheFlagAsGiven) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  // A compiler that compiled for LNC 1 whatever the flag said: the NEFF's
  // header and graphs say 1, the flag 2.
  setenv("FAKE_CC_LNC", "1", 1);
  for (const std::vector<std::string>& flag :
       {std::vector<std::string>{"--logical-nc-config=2"},
        std::vector<std::string>{"--logical-nc-config", "2"}}) {
    std::vector<std::string> args = {"compile", "m.hlo_module.pb", "--output",
                                     "m.neff"};
    args.insert(args.end(), flag.begin(), flag.end());
    CliResult r = Exec({"--color", "never"}, args);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const std::string given =
        flag.size() == 1 ? flag[0] : flag[0] + " " + flag[1];
    EXPECT_THAT(r.err, HasSubstr(given + " gives LNC 2 but"));
    EXPECT_THAT(r.err, HasSubstr("[neff-lnc-mismatch]"));
    EXPECT_THAT(r.err, HasSubstr("with " + given + ") has the topology"));
    EXPECT_THAT(r.err, Not(HasSubstr("disagrees with")));
  }
}

// --target=trn2 (a global flag, before `compile`) without an LNC flag means
// LNC 2: a NEFF whose header says 1 disagrees.
TEST_F(ExecTest, TargetGivesTheDefaultLnc) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  CliResult r = Exec(
      {"--color", "never"},
      {"--target=trn2", "compile", "m.hlo_module.pb", "--output", "m.neff"});
  EXPECT_TRUE(CompilerRan());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[neff-lnc-mismatch]"));
  EXPECT_THAT(r.err, HasSubstr("(compiled from m.hlo_module.pb with the "
                               "default LNC of --target=trn2)"));
  // inf2's default LNC is 1, as the NEFF's header says. (trn1's is 1 too,
  // but trn1 refuses this module's 4 ranks: TargetTrn1RefusesFourRanks.)
  r = Exec({}, {"--target=inf2", "compile", "m.hlo_module.pb", "--output",
                "m.neff"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// The compiler's --target is the target lnc-core-count checks the world
// against: 4 ranks on trn1 are refused before the compiler runs.
TEST_F(ExecTest, TargetTrn1RefusesFourRanks) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  CliResult r = Exec(
      {"--color", "never"},
      {"--target", "trn1", "compile", "m.hlo_module.pb", "--output", "m.neff"});
  EXPECT_FALSE(CompilerRan());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[lnc-core-count]"));
  EXPECT_THAT(r.err, HasSubstr("refuses 4 Neuron cores on trn1 "
                               "(--target=trn1 on the compiler's command "
                               "line)"));
  EXPECT_THAT(r.err, HasSubstr("Supported number of Neuron Cores is 1, 2, "
                               "8, 16 or a multiple of 32"));
  // One group of two: a world of 2 passes, before and after compiling.
  WriteModule("m.hlo_module.pb", {{0, 1}});
  setenv("FAKE_CC_DEF_JSON", R"({"CCInfo": {"replica_groups": [[[0,1]]]}})", 1);
  r = Exec({}, {"--target=trn1", "compile", "m.hlo_module.pb", "--output",
                "m.neff"});
  EXPECT_TRUE(CompilerRan());
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(ExecTest, ReportGoesToOutputFile) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  CliResult r = Exec({"-o", "report.txt", "--color", "never"}, kCompile);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(ReadAll(dir_.path() + "/report.txt"),
              HasSubstr("[hlo-duplicate-device-id]"));
  EXPECT_THAT(r.err, Not(HasSubstr("[hlo-duplicate-device-id]")));
}

// Other subcommands and non-XLA frameworks run unchecked.
TEST_F(ExecTest, OtherCommandLinesPassThrough) {
  CliResult r = RunShell(
      ShellQuote(TOPOLINT_BINARY) + " exec -- sh -c 'printf out; exit 7'",
      dir_.path());
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(r.out, "out");
  EXPECT_EQ(r.err, "");
}

TEST_F(ExecTest, HelpAndCheckOptions) {
  CliResult r = RunTopolint({"exec", "--help"}, dir_.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("usage: topolint exec [options] -- COMPILER"));
  // Options of check that name inputs make no sense here.
  r = RunTopolint({"exec", "model.hlo", "--", "true"}, dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no PATH"));
  r = RunTopolint({"exec", "--format", "junit", "--", "true"}, dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("exec writes --format text, github, json or "
                               "sarif"));
  // --rules applies to both phases: the bad module passes with its rule
  // (and the comparison with the NEFF) off.
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  r = Exec({"--rules", "-hlo-duplicate-device-id,-xref-*"}, kCompile);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(CompilerRan());
}

// --format json / sarif: one document holding the findings of both
// checks (before and after the compile), written however exec ends; an
// empty one when nothing was checked.
TEST_F(ExecTest, JsonAndSarifAreOneDocumentForBothChecks) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  setenv("FAKE_CC_DEF_JSON",
         R"({"CCInfo": {"replica_groups": [[[0,2],[1,3]]]}})", 1);
  CliResult r = Exec({"--on-error", "warn", "--format", "json", "-o", "r.json"},
                     kCompile);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(CompilerRan());
  const nlohmann::json json =
      nlohmann::json::parse(ReadAll(dir_.path() + "/r.json"), nullptr, false);
  ASSERT_TRUE(json.is_array()) << ReadAll(dir_.path() + "/r.json");
  std::set<std::string> rules;
  for (const auto& f : json) rules.insert(f["rule"].get<std::string>());
  EXPECT_EQ(rules.count("hlo-duplicate-device-id"), 1u);  // before
  EXPECT_EQ(rules.count("xref-topology-mismatch"), 1u);   // after

  r = Exec({"--on-error", "warn", "--format", "sarif", "-o", "r.sarif"},
           kCompile);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json sarif =
      nlohmann::json::parse(ReadAll(dir_.path() + "/r.sarif"), nullptr, false);
  ASSERT_TRUE(sarif.is_object());
  ASSERT_EQ(sarif["runs"].size(), 1u);
  std::set<std::string> ids;
  for (const auto& result : sarif["runs"][0]["results"]) {
    ids.insert(result["ruleId"].get<std::string>());
  }
  EXPECT_EQ(ids, rules);

  // Blocked before the compile: the document holds the first check's.
  r = Exec({"--format", "json", "-o", "r.json"}, kCompile);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(ReadAll(dir_.path() + "/r.json"),
              HasSubstr("\"rule\": \"hlo-duplicate-device-id\""));

  // Nothing checked (not a compile): an empty document, not an empty file.
  r = RunShell(
      ShellQuote(TOPOLINT_BINARY) + " exec --format json -o e.json -- true",
      dir_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadAll(dir_.path() + "/e.json"), "[]\n");
  r = RunShell(
      ShellQuote(TOPOLINT_BINARY) + " exec --format sarif -o e.sarif -- true",
      dir_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json empty =
      nlohmann::json::parse(ReadAll(dir_.path() + "/e.sarif"), nullptr, false);
  ASSERT_TRUE(empty.is_object());
  EXPECT_TRUE(empty["runs"][0]["results"].empty());
}

TEST_F(ExecTest, SignalReachesTheCompiler) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  setenv("FAKE_CC_SLEEP", "30", 1);
  const std::string exec = ShellQuote(TOPOLINT_BINARY) + " exec -- " +
                           ShellQuote(kFake) + Quoted(kCompile);
  CliResult r = RunShell(exec +
                             " & pid=$!; while [ ! -e compiler-ran ]; do "
                             "sleep 0.05; done; kill -TERM $pid; wait $pid; "
                             "echo \"status $?\"",
                         dir_.path());
  EXPECT_THAT(r.out, HasSubstr("status 143")) << r.err;
}

}  // namespace
}  // namespace topolint::testing
