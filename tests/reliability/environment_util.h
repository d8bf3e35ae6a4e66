// Helpers of the environment tests (tests/reliability/*environment*,
// output_safety_test.cc): running the CLI under a shell, with a resource
// limit, and generating inputs.
#ifndef TOPOLINT_TESTS_RELIABILITY_ENVIRONMENT_UTIL_H_
#define TOPOLINT_TESTS_RELIABILITY_ENVIRONMENT_UTIL_H_

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/common/run_cli.h"

// TOPOLINT_TEST_ASAN: defined under AddressSanitizer (clang or gcc), which
// reserves terabytes of address space, so `ulimit -v` runs are skipped and
// its frames need more stack than a small `ulimit -s` gives.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOPOLINT_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TOPOLINT_TEST_ASAN 1
#endif

namespace topolint::testing {

// Runs `script` with bash in `cwd`; $TL is the topolint binary. Standard
// output and error are captured unless the script redirects them itself.
// The whole script is limited to 60 s (`timeout`), so a hang fails fast:
// exit code 124.
inline CliResult RunShell(const std::string& script,
                          const std::string& cwd = TOPOLINT_SOURCE_DIR) {
  static int counter = 0;
  const std::string base = (std::filesystem::temp_directory_path() /
                            ("topolint-env-" + std::to_string(getpid()) + "-" +
                             std::to_string(counter++)))
                               .string();
  WriteAll(base + ".sh", "TL=" + ShellQuote(TOPOLINT_BINARY) + "\n" + script);
  const std::string cmd = "cd " + ShellQuote(cwd) + " && timeout 60 bash " +
                          ShellQuote(base + ".sh") + " </dev/null >" +
                          ShellQuote(base + ".out") + " 2>" +
                          ShellQuote(base + ".err");
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadAll(base + ".out");
  r.err = ReadAll(base + ".err");
  for (const char* ext : {".sh", ".out", ".err"}) {
    std::filesystem::remove(base + ext);
  }
  return r;
}

// Runs topolint with `args` in `cwd` in a child whose RLIMIT_FSIZE is
// `max_file_bytes` (set with setrlimit between fork and exec): a write past
// it fails with EFBIG, as on a full disk.
inline CliResult RunWithFileSizeLimit(const std::vector<std::string>& args,
                                      rlim_t max_file_bytes,
                                      const std::string& cwd) {
  const std::string err_path =
      cwd + "/../fsize-" + std::to_string(getpid()) + ".err";
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(120);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = open("/dev/null", O_RDWR);
    if (err < 0 || null < 0) _exit(121);
    dup2(null, 0);
    dup2(null, 1);
    dup2(err, 2);
    // Raised before the limit: stderr must stay writable.
    struct rlimit lim = {max_file_bytes, max_file_bytes};
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) _exit(122);
    std::vector<char*> argv;
    std::string bin = TOPOLINT_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(123);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CliResult r;
  r.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = ReadAll(err_path);
  std::filesystem::remove(err_path);
  return r;
}

// An HLO module with `ops` all-reduces that each repeat device id 0: one
// hlo-duplicate-device-id finding per op.
inline std::string ManyDuplicateIdOps(int ops) {
  std::string hlo =
      "HloModule many, replica_count=2\n\n"
      "%add (x: f32[], y: f32[]) -> f32[] {\n"
      "  %x = f32[] parameter(0)\n"
      "  %y = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(f32[] %x, f32[] %y)\n"
      "}\n\n"
      "ENTRY %main (p: f32[8]) -> f32[8] {\n"
      "  %p = f32[8]{0} parameter(0)\n";
  for (int i = 0; i < ops; ++i) {
    hlo += "  %ar" + std::to_string(i) +
           " = f32[8]{0} all-reduce(f32[8]{0} %p), replica_groups={{0,0}}, "
           "to_apply=%add\n";
  }
  hlo += "  ROOT %r = f32[8]{0} copy(f32[8]{0} %p)\n}\n";
  return hlo;
}

// Files in `dir` whose name starts with '.' and contains ".topolint-": the
// temporaries of staged outputs.
inline std::vector<std::string> LeftoverTemporaries(const std::string& dir) {
  std::vector<std::string> found;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name[0] == '.' && name.find(".topolint-") != std::string::npos) {
      found.push_back(name);
    }
  }
  return found;
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_RELIABILITY_ENVIRONMENT_UTIL_H_
