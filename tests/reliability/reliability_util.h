// Helpers of the reliability tests: checking in-memory inputs through the
// same path as the CLI (LoadUnit with InMemoryInput, then CheckUnit).
#ifndef TOPOLINT_TESTS_RELIABILITY_RELIABILITY_UTIL_H_
#define TOPOLINT_TESTS_RELIABILITY_RELIABILITY_UTIL_H_

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "checker/core/discovery.h"
#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"
#include "checker/diag/finding.h"
#include "checker/model/unit.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {

// Loads `inputs` (named like files: model.hlo, def.json, ...) as one unit.
inline Unit LoadTexts(const std::vector<InMemoryInput>& inputs) {
  UnitSpec spec;
  spec.directory = ".";
  for (const InMemoryInput& in : inputs) {
    InputFile f;
    f.path = in.name;
    EXPECT_TRUE(ClassifyName(in.name, &f.kind)) << in.name;
    f.named = true;
    f.from_stdin = true;
    spec.files.push_back(f);
  }
  Unit unit;
  absl::Status st = LoadUnit(spec, inputs, &unit);
  EXPECT_TRUE(st.ok()) << st;
  return unit;
}

inline std::vector<Finding> CheckTexts(const std::vector<InMemoryInput>& inputs,
                                       const CheckOptions& options = {}) {
  return CheckUnit(LoadTexts(inputs), options, RuleSelection());
}

// The first finding of `rule`, or nullptr.
inline const Finding* FindRuleFinding(const std::vector<Finding>& findings,
                                      const std::string& rule) {
  for (const Finding& f : findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

inline std::string Describe(const std::vector<Finding>& findings) {
  std::string s;
  for (const Finding& f : findings) {
    s += f.loc.file + ":" + std::to_string(f.loc.line) + ":" +
         std::to_string(f.loc.column) + ": [" + f.rule + "] " + f.message +
         "\n";
  }
  return s.empty() ? "(no findings)\n" : s;
}

// How a function run in a child process ended.
struct IsolatedRun {
  bool timed_out = false;
  int signal = 0;     // the signal that killed it (0: none)
  int exit_code = 0;  // when it exited
  bool Clean() const { return !timed_out && signal == 0 && exit_code == 0; }
  std::string Describe() const {
    if (timed_out) return "did not finish in time (hang)";
    if (signal != 0) return "killed by signal " + std::to_string(signal);
    return "exited with " + std::to_string(exit_code);
  }
};

// Failed assertions recorded so far in the current test.
inline int FailedPartCount() {
  const ::testing::TestInfo* info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr) return 0;
  const ::testing::TestResult* result = info->result();
  int failed = 0;
  for (int i = 0; i < result->total_part_count(); ++i) {
    failed += result->GetTestPartResult(i).failed() ? 1 : 0;
  }
  return failed;
}

// Runs `fn` in a forked child, killing it after `timeout_seconds`, so that
// a crash or a hang fails one test instead of taking the binary down. The
// child exits 0 after `fn` returns, or 3 when `fn` recorded a test failure.
inline IsolatedRun RunIsolated(const std::function<void()>& fn,
                               int timeout_seconds) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    // Count only the failures `fn` adds (the child inherits the parent's).
    const int before = FailedPartCount();
    fn();
    std::fflush(nullptr);
    _exit(FailedPartCount() > before ? 3 : 0);
  }
  IsolatedRun run;
  if (pid < 0) {
    run.exit_code = -1;
    return run;
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      run.timed_out = true;
      return run;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  return run;
}

// Generous per-run limit of the CLI-level reliability tests: far above any
// sane run (milliseconds), only there to turn a hang into a failure.
inline constexpr int kCliTimeoutSeconds = 120;

// RunTopolint, killed after `timeout_seconds` (coreutils `timeout`): a hang
// shows as exit code 137 instead of stalling the suite. Output goes to
// files, as in RunTopolint.
inline CliResult RunTopolintWithin(const std::vector<std::string>& args,
                                   const std::string& stdin_text = "",
                                   int timeout_seconds = kCliTimeoutSeconds) {
  static int counter = 0;
  const std::string base = (std::filesystem::temp_directory_path() /
                            ("topolint-rel-" + std::to_string(getpid()) + "-" +
                             std::to_string(counter++)))
                               .string();
  const std::string in = base + ".in", out = base + ".out", err = base + ".err";
  WriteAll(in, stdin_text);
  std::string cmd = "cd " + ShellQuote(TOPOLINT_SOURCE_DIR) +
                    " && timeout -s KILL " + std::to_string(timeout_seconds) +
                    " " + ShellQuote(TOPOLINT_BINARY);
  for (const std::string& a : args) cmd += " " + ShellQuote(a);
  cmd +=
      " <" + ShellQuote(in) + " >" + ShellQuote(out) + " 2>" + ShellQuote(err);
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadAll(out);
  r.err = ReadAll(err);
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_RELIABILITY_RELIABILITY_UTIL_H_
