// Reliability III (issue 31): defects a hostile run found on main, through
// the CLI and the C++ API. Each test failed before its fix.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/run_cli.h"
#include "tests/common/sample_inputs.h"
#include "tests/reliability/environment_util.h"
#include "topolint/topolint.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
namespace api = ::topolint::api;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kDuplicateHlo[] = R"(HloModule m

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %ar = f32[8]{0} all-reduce(f32[8]{0} %p), replica_groups={{0,1},{1,2}}, to_apply=%add
}
)";

// Runs topolint in a child that gets `sig` after `delay`; returns the status.
int RunAndSignal(const std::vector<std::string>& args, int sig,
                 std::chrono::milliseconds delay) {
  int in[2];
  if (pipe(in) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(in[0], 0);  // a standard input that never ends
    close(in[1]);
    std::vector<char*> argv;
    std::string bin = TOPOLINT_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  close(in[0]);
  std::this_thread::sleep_for(delay);
  kill(pid, sig);
  int status = 0;
  waitpid(pid, &status, 0);
  close(in[1]);
  return status;
}

// A gzip module of `n` all-reduces with long names: slow enough to signal.
std::string SlowModule(int n) {
  using proto_writer::Bytes;
  using proto_writer::Varint;
  std::string comp;
  Bytes(&comp, 1, "main");
  for (int i = 0; i < n; ++i) {
    std::string ins;
    Bytes(&ins, 1, std::string(200, 'n') + std::to_string(i));
    Bytes(&ins, 2, "all-reduce");
    Varint(&ins, 35, static_cast<uint64_t>(i) + 1);
    std::string one;  // appended: Bytes on a large string copies it
    Bytes(&one, 2, ins);
    comp += one;
  }
  Varint(&comp, 5, 1);
  std::string module;
  Bytes(&module, 1, "m");
  Bytes(&module, 3, comp);
  return proto_writer::Gzip(module);
}

bool NoTempLeft(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find(".topolint-") != std::string::npos) {
      return false;
    }
  }
  return true;
}

// 4: SIGINT / SIGTERM / SIGHUP / SIGKILL while -o and --write-baseline are
// being written leave the old files and no temporary.
TEST(ReliabilityBTest, SignalsDuringOutputsLeaveOldFilesAndNoTemporary) {
  TempDir d;
  d.Write("m/model.hlo", kDuplicateHlo);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGKILL}) {
    // Blocked reading standard input, after a unit of findings, with the
    // outputs open.
    const std::vector<std::vector<std::string>> inputs = {
        {d.path() + "/m", "--stdin-filename", "x.hlo", "-"}};
    for (const auto& input : inputs) {
      const std::string report = d.Write("report.json", "old report");
      const std::string base = d.Write("base.json", "old baseline");
      std::vector<std::string> args = {
          "check", "--format", "json", "-o", report, "--write-baseline", base};
      args.insert(args.end(), input.begin(), input.end());
      const int status =
          RunAndSignal(args, sig, std::chrono::milliseconds(300));
      EXPECT_TRUE(WIFSIGNALED(status)) << sig << " " << input[0];
      EXPECT_EQ(ReadAll(report), "old report") << sig << " " << input[0];
      EXPECT_EQ(ReadAll(base), "old baseline") << sig << " " << input[0];
      EXPECT_TRUE(NoTempLeft(d.path())) << sig << " " << input[0];
    }
  }
}

// 14: a target name of 240-255 bytes fits NAME_MAX with its temporary.
TEST(ReliabilityBTest, LongOutputNamesAreWritten) {
  TempDir d;
  const std::string model = d.Write("m/model.hlo", kDuplicateHlo);
  for (size_t n : {240u, 250u, 255u}) {
    const std::string out = d.path() + "/" + std::string(n - 5, 'r') + ".json";
    CliResult r = RunTopolint(
        {"check", "--format", "json", "-o", out, "--write-baseline",
         d.path() + "/" + std::string(n - 5, 'b') + ".json", model});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(ReadAll(out), HasSubstr("hlo-duplicate-device-id"));
    EXPECT_TRUE(NoTempLeft(d.path()));
  }
}

// 3: a low RLIMIT_AS is exit 2 with a message, not std::bad_alloc (134).
TEST(ReliabilityBTest, LowAddressSpaceIsExitTwoWithAMessage) {
#ifdef TOPOLINT_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves terabytes: no ulimit -v run";
#endif
  TempDir d;
  const std::string model = d.Write("big.pb.gz", SlowModule(150000));
  const std::string report = d.Write("report.json", "old report");
  const std::string cmd = "ulimit -v 30000; " + ShellQuote(TOPOLINT_BINARY) +
                          " check -o " + ShellQuote(report) + " " +
                          ShellQuote(model) + " 2>" +
                          ShellQuote(d.path() + "/err");
  const int status = std::system(("sh -c " + ShellQuote(cmd)).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(ReadAll(d.path() + "/err"), HasSubstr("out of memory"));
  EXPECT_EQ(ReadAll(report), "old report");
  EXPECT_TRUE(NoTempLeft(d.path()));
}

// 6: `check .` in a deleted working directory is exit 2.
TEST(ReliabilityBTest, DeletedWorkingDirectoryIsExitTwo) {
  TempDir d;
  const std::string gone = d.path() + "/gone";
  fs::create_directories(gone);
  const std::string cmd = "cd " + ShellQuote(gone) + " && rmdir " +
                          ShellQuote(gone) + " && " +
                          ShellQuote(TOPOLINT_BINARY) + " check . 2>/dev/null";
  const int status = std::system(("sh -c " + ShellQuote(cmd)).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

// 10: one file named by several spellings is checked once.
TEST(ReliabilityBTest, OneFileNamedTwiceIsCheckedOnce) {
  TempDir d;
  d.Write("sub/model.hlo", kDuplicateHlo);
  fs::create_directory_symlink(d.path() + "/sub", d.path() + "/link");
  const std::vector<std::vector<std::string>> spellings = {
      {"sub/model.hlo", "./sub//model.hlo", d.path() + "/sub/model.hlo"},
      {"sub/model.hlo", "link/model.hlo"},
      {"./sub/model.hlo", "sub"},
      {d.path() + "/sub/model.hlo", "sub"},
  };
  for (const auto& paths : spellings) {
    std::vector<std::string> args = {"check", "--format", "json"};
    args.insert(args.end(), paths.begin(), paths.end());
    CliResult r = RunTopolint(args, d.path());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).size(), 1u) << r.out;
    EXPECT_THAT(r.err, HasSubstr("(1 unit, 1 file checked")) << paths[0];
  }
}

// 12-13: raw ESC / BEL never reach a terminal: -v skip list, rule globs,
// --format github.
TEST(ReliabilityBTest, EscapeSequencesAreEscaped) {
  TempDir d;
  d.Write("t/model.hlo", kDuplicateHlo);
  d.Write("t/evil\x1b[2J\x07.txt", "x");
  CliResult r = RunTopolint({"check", "-v", "t"}, d.path());
  EXPECT_THAT(r.err, HasSubstr("evil<U+001B>[2J<U+0007>.txt"));
  EXPECT_THAT(r.err, Not(HasSubstr("\x1b")));
  r = RunTopolint({"check", "--rules", "hlo-\x1b[2J", "t"}, d.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, Not(HasSubstr("\x1b")));
  d.Write("s/.topolint.json", R"({"rules": "-foo\u001b[2J"})");
  d.Write("s/model.hlo", kDuplicateHlo);
  r = RunTopolint({"check", "s"}, d.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, Not(HasSubstr("\x1b")));
  d.Write("g/model.hlo", std::string(kDuplicateHlo)
                             .replace(std::string(kDuplicateHlo).find("%ar"), 3,
                                      "%ar\x1b[31m\x07"));
  r = RunTopolint({"check", "--format", "github", "g"}, d.path());
  EXPECT_THAT(r.out, HasSubstr("::error"));
  EXPECT_THAT(r.out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(r.out, Not(HasSubstr("\x07")));
}

// 18: --format json keeps distinct non-UTF-8 names distinct.
TEST(ReliabilityBTest, JsonKeepsDistinctNonUtf8NamesDistinct) {
  TempDir d;
  d.Write("n/a\xff.hlo", kDuplicateHlo);
  d.Write("n/a\xfe.hlo", kDuplicateHlo);
  d.Write("n/ok.hlo", kDuplicateHlo);
  CliResult r = RunTopolint({"check", "--format", "json", "n"}, d.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  std::set<std::string> files;
  for (const auto& f : report) files.insert(f["file"].get<std::string>());
  EXPECT_EQ(files.size(), 3u) << r.out;
  EXPECT_EQ(files.count("n/a\\xff.hlo"), 1u) << r.out;
  EXPECT_EQ(files.count("n/ok.hlo"), 1u) << r.out;
}

// 20: unknown rule ids get a did-you-mean.
TEST(ReliabilityBTest, UnknownRuleIdsGetASuggestion) {
  TempDir d;
  d.Write("m/model.hlo", kDuplicateHlo);
  CliResult r = RunTopolint({"check", "--rules", "hlo-syntx", "m"}, d.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean 'hlo-syntax'?"));
  d.Write("m/.topolint.json",
          R"({"severity": {"hlo-duplicate-devce-id": "warning"}})");
  r = RunTopolint({"check", "m"}, d.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean 'hlo-duplicate-device-id'?"));
}

// 16, 17: UTF-16 text is named; a binary module with a long name is binary.
TEST(ReliabilityBTest, WideTextAndLongNamedModulesAreToldApart) {
  TempDir d;
  std::string wide = "\xff\xfe";
  for (char c : std::string("HloModule m\n")) {
    wide += c;
    wide += '\0';
  }
  d.Write("u16.hlo", wide);
  CliResult r = RunTopolint({"check", "u16.hlo"}, d.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("found UTF-16LE text"));
  using proto_writer::Bytes;
  std::string ins, comp, module;
  Bytes(&ins, 1, "a");
  Bytes(&ins, 2, "add");
  Bytes(&comp, 1, "c");
  Bytes(&comp, 2, ins);
  Bytes(&module, 1, std::string(5000, 'x'));
  Bytes(&module, 3, comp);
  d.Write("long.pb", module);
  r = RunTopolint({"check", "--hlo", "long.pb"}, d.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

// 1, 19, 7: the API's baseline option and AddFile refuse what the CLI
// refuses, and a path with a NUL byte.
TEST(ReliabilityBTest, ApiRefusesFifosDevicesDirectoriesAndNuls) {
  TempDir d;
  const std::string hlo = d.Write("m/model.hlo", kDuplicateHlo);
  const std::string fifo = d.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  api::Unit unit;
  ASSERT_TRUE(unit.AddFile(hlo).ok());
  for (const std::string& bad : {fifo, std::string("/dev/zero"), d.path()}) {
    api::Options options;
    options.baseline = bad;
    std::vector<api::Finding> findings;
    const auto start = std::chrono::steady_clock::now();
    api::Status st = api::Check(unit, options, &findings);
    EXPECT_FALSE(st.ok()) << bad;
    EXPECT_THAT(st.message, Not(HasSubstr("not valid JSON"))) << bad;
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              std::chrono::seconds(20));
  }
  api::Unit u2;
  api::Status st = u2.AddFile(fifo);
  EXPECT_THAT(st.message, HasSubstr("named pipe"));
  EXPECT_THAT(st.message, Not(HasSubstr("no such file")));
  st = u2.AddFile(hlo + std::string(1, '\0') + "ignored");
  EXPECT_EQ(st.code, api::Status::Code::kInvalidArgument);
  EXPECT_THAT(st.message, HasSubstr("NUL"));
  std::vector<api::Finding> findings;
  st = api::CheckPaths({hlo + std::string(1, '\0') + "x"}, api::Options{},
                       &findings);
  EXPECT_EQ(st.code, api::Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace topolint::testing
