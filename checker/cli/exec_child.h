// Runs the compiler for `topolint exec` as a child that owns the terminal
// and standard streams as if it had been started directly.
#ifndef TOPOLINT_CHECKER_CLI_EXEC_CHILD_H_
#define TOPOLINT_CHECKER_CLI_EXEC_CHILD_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace topolint::cli {

// The program `argv[0]` would run: itself when it holds a '/', else the
// first executable of that name on PATH. kNotFound when there is none (or
// it is not executable), with a message that says so.
absl::StatusOr<std::string> ResolveProgram(const std::string& name);

// Runs `argv` (argv[0] resolved as ResolveProgram does) with this process's
// standard descriptors and environment, the default disposition of every
// signal topolint changed (SIGPIPE, SIGXFSZ) and an empty signal mask, and
// waits for it. SIGINT, SIGTERM and SIGHUP received meanwhile are passed
// on to the child; `*forwarded` (when not null) gets the last of them, or
// 0 when none came. Returns its exit status, or 128 + the signal that
// ended it. Fails (kNotFound / kPermissionDenied...) only when it cannot
// start.
absl::StatusOr<int> RunChild(const std::vector<std::string>& argv,
                             int* forwarded = nullptr);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_EXEC_CHILD_H_
