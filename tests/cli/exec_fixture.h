// The fixture of the `topolint exec` tests (exec_test.cc,
// exec_output_test.cc): tests/cli/fake-neuronx-cc stands in for the
// compiler, in a temporary directory, its settings in its environment.
#ifndef TOPOLINT_TESTS_CLI_EXEC_FIXTURE_H_
#define TOPOLINT_TESTS_CLI_EXEC_FIXTURE_H_

#include <sys/wait.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tests/common/hlo_proto_writer.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {

inline const std::string kFake =
    std::string(TOPOLINT_SOURCE_DIR) + "/tests/cli/fake-neuronx-cc";

// Runs `command` with sh in `cwd`, standard streams captured.
inline CliResult RunShell(const std::string& command, const std::string& cwd) {
  const std::string base = cwd + "/.run";
  const std::string cmd = "cd " + ShellQuote(cwd) + " && ( " + command +
                          " ) >" + ShellQuote(base + ".out") + " 2>" +
                          ShellQuote(base + ".err") + " </dev/null";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadAll(base + ".out");
  r.err = ReadAll(base + ".err");
  std::filesystem::remove(base + ".out");
  std::filesystem::remove(base + ".err");
  return r;
}

inline std::string Quoted(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) s += " " + ShellQuote(a);
  return s;
}

// The fake's settings travel in its environment.
class ExecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    marker_ = dir_.path() + "/compiler-ran";
    setenv("FAKE_CC_MARKER", marker_.c_str(), 1);
    unsetenv("FAKE_CC_DEF_JSON");
    unsetenv("FAKE_CC_EXIT");
    unsetenv("FAKE_CC_SLEEP");
    unsetenv("FAKE_CC_LNC");
  }
  void TearDown() override {
    for (const char* v : {"FAKE_CC_MARKER", "FAKE_CC_DEF_JSON", "FAKE_CC_EXIT",
                          "FAKE_CC_SLEEP", "FAKE_CC_LNC"}) {
      unsetenv(v);
    }
  }

  void WriteModule(const std::string& rel,
                   std::vector<std::vector<int64_t>> groups) {
    dir_.Write(rel, SampleAllReduceProto(std::move(groups), false));
  }
  bool CompilerRan() const { return std::filesystem::exists(marker_); }

  // `topolint exec OPTIONS -- fake ARGS` in the temporary directory.
  CliResult Exec(const std::vector<std::string>& options,
                 const std::vector<std::string>& compiler_args) {
    std::vector<std::string> all = {"exec"};
    all.insert(all.end(), options.begin(), options.end());
    all.push_back("--");
    all.push_back(kFake);
    all.insert(all.end(), compiler_args.begin(), compiler_args.end());
    return RunShell(ShellQuote(TOPOLINT_BINARY) + Quoted(all), dir_.path());
  }
  CliResult Direct(const std::vector<std::string>& compiler_args) {
    return RunShell(ShellQuote(kFake) + Quoted(compiler_args), dir_.path());
  }

  TempDir dir_;
  std::string marker_;
};

inline const std::vector<std::string> kCompile = {
    "compile",  "m.hlo_module.pb", "--framework", "XLA",
    "--output", "m.neff",          "--lnc",       "2"};

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_CLI_EXEC_FIXTURE_H_
