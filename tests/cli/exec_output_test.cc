// `topolint exec`'s report file and its command line (issue 43, sections
// 2, 3 and 5): -o goes through the staged, input-checked writer (never
// over the module, the NEFF the compiler writes or a file the check reads;
// a failed write is exit 2; an interrupted exec leaves the old report),
// --fix / --diff are usage errors, the last LNC flag counts, a file is not
// coloured by FORCE_COLOR, a compile line without an HLO module is said so,
// an LNC from the target's default is named so, and names are escaped.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/exec_fixture.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// The lines topolint wrote among the compiler's on standard error.
std::string TopolintLines(const std::string& err) {
  std::string out;
  size_t at = 0;
  while (at < err.size()) {
    size_t end = err.find('\n', at);
    if (end == std::string::npos) end = err.size();
    if (err.compare(at, 9, "topolint:") == 0) {
      out += err.substr(at, end - at + 1);
    }
    at = end + 1;
  }
  return out;
}

class ExecOutputTest : public ExecTest {
 protected:
  std::string Path(const std::string& rel) const {
    return dir_.path() + "/" + rel;
  }
  // The names in the directory that look like a staged temporary.
  std::vector<std::string> Temporaries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_.path())) {
      const std::string name = e.path().filename().string();
      if (name.find(".topolint-") != std::string::npos) out.push_back(name);
    }
    return out;
  }
};

TEST_F(ExecOutputTest, ReportFileThatIsTheModuleIsRefused) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  const std::string module = ReadAll(Path("m.hlo_module.pb"));
  CliResult r = Exec({"-o", "m.hlo_module.pb"}, kCompile);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("-o m.hlo_module.pb: is the compiler's input "
                               "m.hlo_module.pb; refusing to overwrite it"));
  EXPECT_FALSE(CompilerRan());
  EXPECT_EQ(ReadAll(Path("m.hlo_module.pb")), module);

  // Through a symlink and a hard link: the same file.
  fs::create_symlink("m.hlo_module.pb", Path("link.txt"));
  fs::create_hard_link(Path("m.hlo_module.pb"), Path("hard.txt"));
  for (const char* other : {"link.txt", "hard.txt"}) {
    r = Exec({"--format", "json", "-o", other}, kCompile);
    EXPECT_EQ(r.exit_code, 2) << other << r.err;
    EXPECT_THAT(r.err, HasSubstr("refusing to overwrite it")) << other;
    EXPECT_FALSE(CompilerRan());
    EXPECT_EQ(ReadAll(Path("m.hlo_module.pb")), module) << other;
  }
  // Any file the compiler's command line names, not only the module: a
  // module exec does not check (another framework) is still an input.
  r = Exec({"-o", "m.hlo_module.pb"},
           {"compile", "m.hlo_module.pb", "--framework", "TENSORFLOW",
            "--output", "m.neff"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(ReadAll(Path("m.hlo_module.pb")), module);
}

TEST_F(ExecOutputTest, ReportFileThatTheCompilerWritesIsRefused) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  // The NEFF does not exist yet: refused by name, in any spelling.
  for (const char* name : {"m.neff", "./m.neff", "sub/../m.neff"}) {
    fs::create_directories(Path("sub"));
    CliResult r = Exec({"--format", "json", "-o", name}, kCompile);
    EXPECT_EQ(r.exit_code, 2) << name << r.err;
    EXPECT_THAT(r.err, HasSubstr("is the compiler's --output m.neff"));
    EXPECT_FALSE(CompilerRan());
  }
  // The compiler's default output, and its log file.
  CliResult r = Exec({"-o", "file.neff"}, {"compile", "m.hlo_module.pb"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("is the compiler's --output file.neff"));
  r = Exec({"-o", "log.txt"}, {"compile", "m.hlo_module.pb", "--logfile",
                               "log.txt", "--output", "m.neff"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("is the compiler's --logfile log.txt"));
  EXPECT_FALSE(CompilerRan());
  // A NEFF already there from an earlier compile keeps its bytes.
  dir_.Write("m.neff", "old neff");
  r = Exec({"-o", "m.neff"}, kCompile);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(ReadAll(Path("m.neff")), "old neff");
}

TEST_F(ExecOutputTest, ReportFileThatTheCheckReadsIsRefused) {
  dir_.Write("neuron_config.json", R"({"tp_degree": 2})");
  dir_.Write(".topolint.json", R"({"werror": false})");
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  for (const char* name : {"neuron_config.json", ".topolint.json"}) {
    const std::string before = ReadAll(Path(name));
    CliResult r = Exec({"-o", name}, kCompile);
    EXPECT_EQ(r.exit_code, 2) << name << r.err;
    EXPECT_THAT(r.err, HasSubstr("refusing to overwrite it")) << name;
    EXPECT_EQ(ReadAll(Path(name)), before);
  }
  EXPECT_FALSE(CompilerRan());
}

TEST_F(ExecOutputTest, AFailedReportWriteIsExit2) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  // json: one document, written at the end, to a full device.
  CliResult r = Exec({"--format", "json", "-o", "/dev/full"}, kCompile);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("No space left on device"));
  // text with findings: the report cannot be written, so under block the
  // compiler does not run.
  fs::remove(marker_);
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  r = Exec({"-o", "/dev/full"}, kCompile);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("/dev/full: write failed: No space left on "
                               "device; the compiler was not run"));
  EXPECT_FALSE(CompilerRan());
  // warn: the compile goes on, and the exit code still says the report
  // is missing.
  r = Exec({"--on-error", "warn", "-o", "/dev/full"}, kCompile);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(CompilerRan());
  EXPECT_THAT(r.err, HasSubstr("No space left on device"));
}

// A run that ends with topolint's own exit 2 keeps the old report, as
// check does; so does an exec interrupted while the compiler runs.
TEST_F(ExecOutputTest, FailedOrInterruptedExecKeepsTheOldReport) {
  dir_.Write("report.txt", "old report\n");
  // A module that cannot be read: exit 2 under block.
  CliResult r = Exec({"-o", "report.txt"}, {"compile", "missing.hlo_module.pb",
                                            "--output", "m.neff"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(CompilerRan());
  EXPECT_EQ(ReadAll(Path("report.txt")), "old report\n");

  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  setenv("FAKE_CC_SLEEP", "30", 1);
  const std::string exec = ShellQuote(TOPOLINT_BINARY) +
                           " exec -o report.txt -- " + ShellQuote(kFake) +
                           Quoted(kCompile);
  r = RunShell(exec +
                   " & pid=$!; while [ ! -e compiler-ran ]; do sleep 0.05; "
                   "done; kill -TERM $pid; wait $pid; echo \"status $?\"",
               dir_.path());
  EXPECT_THAT(r.out, HasSubstr("status 143")) << r.err;
  EXPECT_EQ(ReadAll(Path("report.txt")), "old report\n");
  EXPECT_THAT(Temporaries(), ::testing::IsEmpty());
  // Without an old report, none appears (not an empty one).
  fs::remove(Path("report.txt"));
  fs::remove(marker_);
  r = RunShell(exec +
                   " & pid=$!; while [ ! -e compiler-ran ]; do sleep 0.05; "
                   "done; kill -TERM $pid; wait $pid; echo \"status $?\"",
               dir_.path());
  EXPECT_THAT(r.out, HasSubstr("status 143")) << r.err;
  EXPECT_FALSE(fs::exists(Path("report.txt")));
  EXPECT_THAT(Temporaries(), ::testing::IsEmpty());
}

TEST_F(ExecOutputTest, ReportFileIsReplacedWhole) {
  dir_.Write("report.txt", std::string(100000, 'x'));
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  CliResult r = Exec({"-o", "report.txt", "--color", "never"}, kCompile);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string report = ReadAll(Path("report.txt"));
  EXPECT_THAT(report, HasSubstr("[hlo-duplicate-device-id]"));
  EXPECT_EQ(report.find('x'), std::string::npos);
  EXPECT_THAT(Temporaries(), ::testing::IsEmpty());
}

// -o /dev/stderr writes through exec's standard error, which the compiler
// shares: the file behind it (2>log.txt) keeps the compiler's messages.
TEST_F(ExecOutputTest, ReportToStandardErrorByNameKeepsTheCompilersOutput) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  CliResult r =
      RunShell(ShellQuote(TOPOLINT_BINARY) +
                   " exec --on-error warn --color never -o "
                   "/dev/stderr -- " +
                   ShellQuote(kFake) + Quoted(kCompile) + " 2>log.txt",
               dir_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string log = ReadAll(Path("log.txt"));
  EXPECT_THAT(log, HasSubstr("fake-neuronx-cc: compiling m.hlo_module.pb"));
  EXPECT_THAT(log, HasSubstr("[hlo-duplicate-device-id]"));
  // A closed standard output (held read-only by topolint) is a failed
  // write, not a report written elsewhere.
  r = RunShell(ShellQuote(TOPOLINT_BINARY) + " exec --format json -o " +
                   "/dev/stdout -- " + ShellQuote(kFake) + Quoted(kCompile) +
                   " >&-; echo \"status $?\" >&2",
               dir_.path());
  EXPECT_THAT(r.err, HasSubstr("status 2"));
  EXPECT_THAT(r.err, HasSubstr("/dev/stdout: write failed: Bad file "
                               "descriptor"));
}

TEST_F(ExecOutputTest, FixAndDiffAreUsageErrors) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  for (const std::vector<std::string>& flags :
       std::vector<std::vector<std::string>>{
           {"--fix"}, {"--diff"}, {"--fix", "--fix-from", "hlo"}}) {
    CliResult r = Exec(flags, kCompile);
    EXPECT_EQ(r.exit_code, 2) << flags[0] << r.err;
    EXPECT_THAT(r.err, HasSubstr("exec takes no " + flags[0]));
    EXPECT_FALSE(CompilerRan());
  }
}

// The compiler's argument parser keeps the last value of a flag given
// twice; so does exec.
TEST_F(ExecOutputTest, TheLastLncFlagCounts) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  CliResult r =
      Exec({"--color", "never"}, {"compile", "m.hlo_module.pb", "--output",
                                  "m.neff", "--lnc=two", "--lnc=2"});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // checked, and blocked
  EXPECT_THAT(r.err, Not(HasSubstr("not a positive integer")));
  EXPECT_FALSE(CompilerRan());
  // The other way round the compiler gets "two": exec does not guess.
  r = Exec({"--color", "never"},
           {"compile", "m.hlo_module.pb", "--output", "m.neff", "--lnc", "2",
            "--logical-nc-config", "two"});
  EXPECT_THAT(r.err, HasSubstr("--logical-nc-config 'two' is not a positive "
                               "integer"));
}

TEST_F(ExecOutputTest, ForceColorDoesNotColourTheReportFile) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 0}});
  CliResult r = RunShell("FORCE_COLOR=1 " + ShellQuote(TOPOLINT_BINARY) +
                             " exec -o rep.txt -- " + ShellQuote(kFake) +
                             Quoted(kCompile),
                         dir_.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string report = ReadAll(Path("rep.txt"));
  EXPECT_THAT(report, HasSubstr("[hlo-duplicate-device-id]"));
  EXPECT_EQ(report.find('\x1b'), std::string::npos) << report;
  // --color always still colours it, as check -o does.
  r = Exec({"--color", "always", "-o", "rep.txt"}, kCompile);
  EXPECT_NE(ReadAll(Path("rep.txt")).find('\x1b'), std::string::npos);
}

TEST_F(ExecOutputTest, CompileLineWithoutAnHloModuleIsSaidSo) {
  fs::create_directories(Path("ckpt"));
  dir_.Write("kernel.py", "def kernel(): pass\n");
  for (const char* input : {"ckpt/", "kernel.py"}) {
    fs::remove(marker_);
    CliResult r = Exec({}, {"compile", input, "--output", "m.neff"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(CompilerRan());
    const std::string line =
        "topolint: warning: exec: no HLO module on the compiler's command "
        "line (" +
        std::string(input) +
        " is not a .pb, .hlo, .hlo.txt or .gz file); nothing is checked\n";
    // One line, before the compiler's own output.
    EXPECT_EQ(r.err.substr(0, line.size()), line) << r.err;
    // --quiet keeps it quiet.
    r = Exec({"--quiet"}, {"compile", input, "--output", "m.neff"});
    EXPECT_THAT(r.err, Not(HasSubstr("topolint")));
  }
  CliResult r = Exec({}, {"compile", "--output", "m.neff"});
  EXPECT_THAT(r.err, HasSubstr("no HLO module on the compiler's command "
                               "line; nothing is checked"));
  WriteModule("m.pb", {{0, 1}, {2, 3}});
  r = Exec({}, {"compile", "m.pb", "--framework", "TENSORFLOW"});
  EXPECT_THAT(r.err, HasSubstr("exec: --framework TENSORFLOW: m.pb is not an "
                               "HLO module; nothing is checked"));
}

// --target=trn2 without an LNC flag: the finding names the target's
// default as the source of LNC 2, not a --lnc nobody gave.
TEST_F(ExecOutputTest, TheTargetsDefaultLncIsNamed) {
  WriteModule("m.hlo_module.pb", {{0, 1}, {2, 3}});
  CliResult r = Exec(
      {"--color", "never"},
      {"--target=trn2", "compile", "m.hlo_module.pb", "--output", "m.neff"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("the default LNC of --target=trn2 is 2"));
  EXPECT_THAT(r.err, Not(HasSubstr("--lnc is 2")));
  // (inf2, not trn1: trn1 refuses this module's 4 ranks, lnc-core-count.)
  r = Exec({"--color", "never"},
           {"--target=inf2", "compile", "m.hlo_module.pb", "--output", "m.neff",
            "--logical-nc-config", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // the fake writes what it is told
}

TEST_F(ExecOutputTest, NamesAreEscapedInExecMessages) {
  const std::string bad = "m\x1b[31m\x07.hlo_module.pb";
  WriteModule(bad, {{0, 1}, {2, 0}});
  CliResult r =
      Exec({"--color", "never"}, {"compile", bad, "--output", "m.neff"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("m<U+001B>[31m<U+0007>.hlo_module.pb has "
                               "topology errors"));
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
  EXPECT_EQ(r.err.find('\x07'), std::string::npos);
  // In exec's own warnings too (the compiler's own output is its own).
  r = Exec({}, {"compile", "ckpt\x1b]0;x\x07/", "--output", "m.neff"});
  const std::string ours = TopolintLines(r.err);
  EXPECT_THAT(ours, HasSubstr("ckpt<U+001B>]0;x<U+0007>/ is not"));
  EXPECT_EQ(ours.find('\x1b'), std::string::npos);
  EXPECT_EQ(ours.find('\x07'), std::string::npos);
}

}  // namespace
}  // namespace topolint::testing
