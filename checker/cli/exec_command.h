// `topolint exec [options] -- COMPILER ARGS...`: checks a compiler's input
// module before it runs and the NEFF it wrote after (docs/integration.md,
// "In the compile path: topolint exec").
#ifndef TOPOLINT_CHECKER_CLI_EXEC_COMMAND_H_
#define TOPOLINT_CHECKER_CLI_EXEC_COMMAND_H_

#include "checker/cli/options.h"

namespace topolint::cli {

// `options` are ParseOptions' of `topolint exec ...` (verb exec); exec's
// own checks of them (no PATH, no --fix, ...) are made here.
// Returns the process exit code: the compiler's own (128 + signal when a
// signal ended it), 1 when --on-error block stopped on topology errors
// (before compiling, or after a successful compile), 2 for a usage error,
// a compiler that cannot be started, a report that cannot be written, or
// a check that could not run under block.
int RunExec(const Options& options);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_EXEC_COMMAND_H_
