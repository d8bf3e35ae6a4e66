// topolint: the command-line entry point. Thin glue over checker/core.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "checker/cli/cli_docs.h"
#include "checker/cli/commands.h"
#include "checker/cli/options.h"
#include "checker/core/worker_thread.h"
#include "checker/diag/source_snippet.h"
#include "checker/io/output_file.h"

namespace {

// Output faults become exit code 2 with a message, never a signal: a broken
// pipe is EPIPE, a file over RLIMIT_FSIZE is EFBIG. And a closed standard
// descriptor (`>&-`) is held by /dev/null opened read-only, so that no file
// opened later takes its number and receives the report, while writes to
// it still fail (EBADF) and are reported.
void OutOfMemory() {
  static constexpr char kMessage[] =
      "topolint: error: out of memory (is the address-space limit, ulimit "
      "-v, too low?); no output file was written\n";
  topolint::RemoveLiveTempFiles();
  const ssize_t ignored = write(2, kMessage, sizeof(kMessage) - 1);
  (void)ignored;
  _exit(topolint::cli::kExitUsage);
}

void GuardProcess() {
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int held = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (held >= 0 && held != fd) {
      dup2(held, fd);
      close(held);
    }
  }
  // The process is ours: -j workers take descriptor tables of their own
  // (checker/core/worker_thread.h).
  topolint::EnableOwnFileTables();
  // An interrupted run leaves no temporary of -o / --write-baseline.
  topolint::RemoveTempFilesOnSignals();
  // Memory refused (a low RLIMIT_AS / ulimit -v) is exit 2 with a message,
  // in whichever thread it happens, not std::bad_alloc's abort (134).
  std::set_new_handler(OutOfMemory);
}

// The stdio output of the other verbs, checked once at the end.
int FlushStdout(int code) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    std::fprintf(stderr, "topolint: error: standard output: write failed: %s\n",
                 std::strerror(errno));
    return topolint::cli::kExitUsage;
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  GuardProcess();
  std::vector<std::string> args(argv + 1, argv + argc);
  auto options = topolint::cli::ParseOptions(args);
  if (!options.ok()) {
    std::fprintf(stderr, "topolint: error: %s\n",
                 topolint::SanitizeLinesForTerminal(
                     std::string(options.status().message()))
                     .c_str());
    return topolint::cli::kExitUsage;
  }
  switch (options->verb) {
    case topolint::cli::Verb::kHelp:
      std::fputs(topolint::cli::UsageText(options->help_for).c_str(), stdout);
      return FlushStdout(0);
    case topolint::cli::Verb::kCompletion:
      std::fputs((options->shell == "zsh" ? topolint::cli::ZshCompletion()
                                          : topolint::cli::BashCompletion())
                     .c_str(),
                 stdout);
      return FlushStdout(0);
    case topolint::cli::Verb::kMan:
      std::fputs(topolint::cli::ManPage(TOPOLINT_VERSION).c_str(), stdout);
      return FlushStdout(0);
    case topolint::cli::Verb::kExec:
      return FlushStdout(topolint::cli::RunExec(*options));
    case topolint::cli::Verb::kVersion:
      std::printf("topolint %s\n", TOPOLINT_VERSION);
      return FlushStdout(0);
    case topolint::cli::Verb::kRules:
      return FlushStdout(topolint::cli::RunRules(*options));
    case topolint::cli::Verb::kExplain:
      return FlushStdout(topolint::cli::RunExplainCommand(*options));
    case topolint::cli::Verb::kCheck:
      break;
  }
  return FlushStdout(topolint::cli::RunCheck(*options));
}
