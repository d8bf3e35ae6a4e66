#include "checker/cli/exec_child.h"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_split.h"
#include "fmt/format.h"

extern char** environ;

namespace topolint::cli {
namespace {

volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_forwarded = 0;  // the last signal passed on

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};

void Forward(int sig) {
  g_forwarded = sig;
  const pid_t child = static_cast<pid_t>(g_child);
  if (child > 0) kill(child, sig);
}

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

}  // namespace

absl::StatusOr<std::string> ResolveProgram(const std::string& name) {
  if (name.empty()) {
    return absl::InvalidArgumentError("exec: the compiler's name is empty");
  }
  if (name.find('/') != std::string::npos) {
    if (IsExecutableFile(name)) return name;
    return absl::NotFoundError(
        fmt::format("exec: cannot run the compiler '{}': {}", name,
                    access(name.c_str(), F_OK) == 0 ? "not an executable file"
                                                    : "no such file"));
  }
  const char* path = std::getenv("PATH");
  for (absl::string_view dir :
       absl::StrSplit(path != nullptr ? path : "/usr/bin:/bin", ':')) {
    const std::string candidate =
        fmt::format("{}/{}", dir.empty() ? "." : std::string(dir), name);
    if (IsExecutableFile(candidate)) return candidate;
  }
  return absl::NotFoundError(fmt::format(
      "exec: cannot run the compiler '{}': not found on PATH (give its path, "
      "e.g. /opt/aws_neuronx_venv/bin/neuronx-cc)",
      name));
}

absl::StatusOr<int> RunChild(const std::vector<std::string>& argv,
                             int* forwarded) {
  if (forwarded != nullptr) *forwarded = 0;
  absl::StatusOr<std::string> program = ResolveProgram(argv.at(0));
  if (!program.ok()) return program.status();
  std::vector<char*> cargv;
  for (const std::string& a : argv)
    cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  // The forwarded signals wait (blocked) until the child's id is known.
  sigset_t to_forward, old_mask;
  sigemptyset(&to_forward);
  for (int sig : kForwarded) sigaddset(&to_forward, sig);
  sigprocmask(SIG_BLOCK, &to_forward, &old_mask);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGXFSZ, SIGINT, SIGTERM, SIGHUP}) {
    sigaddset(&defaults, sig);
  }
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, program->c_str(), nullptr, &attr,
                              cargv.data(), environ);
  posix_spawnattr_destroy(&attr);
  if (err != 0) {
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    return absl::NotFoundError(fmt::format(
        "exec: cannot run the compiler '{}': {}", argv[0], std::strerror(err)));
  }
  g_child = pid;
  g_forwarded = 0;
  struct sigaction forward {
  }, saved[3];
  forward.sa_handler = Forward;
  sigemptyset(&forward.sa_mask);
  for (size_t i = 0; i < 3; ++i) sigaction(kForwarded[i], &forward, &saved[i]);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);

  int status = 0;
  int wait_error = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      wait_error = errno;
      break;
    }
  }
  g_child = 0;
  for (size_t i = 0; i < 3; ++i) sigaction(kForwarded[i], &saved[i], nullptr);
  if (forwarded != nullptr) *forwarded = static_cast<int>(g_forwarded);
  if (wait_error != 0) {
    return absl::InternalError(
        fmt::format("exec: waiting for the compiler failed: {}",
                    std::strerror(wait_error)));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace topolint::cli
