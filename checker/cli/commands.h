// The verbs of the CLI. Each returns the process exit code.
#ifndef TOPOLINT_CHECKER_CLI_COMMANDS_H_
#define TOPOLINT_CHECKER_CLI_COMMANDS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"

#include "checker/cli/check_summary.h"
#include "checker/cli/options.h"
#include "checker/core/runner.h"
#include "checker/diag/render.h"

namespace topolint::cli {

inline constexpr int kExitClean = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;

// Writes `msg` to standard error. Messages echo file names, op names and
// settings: never raw escapes (SanitizeLinesForTerminal).
void Err(const std::string& msg);
// "topolint: error: <st's message>" on standard error; returns kExitUsage.
int Fail(const absl::Status& st);
// "1 file", "2 files": `n` and `word`, plural unless n is 1.
std::string Plural(size_t n, const char* word);

int RunCheck(const Options& options);
// The root every format and baseline names files from (--sarif-root, else
// the git work tree of the current directory or of the first input, else
// the current directory).
SarifRoots FindSarifRoots(const Options& options);
// RunCheck without --fix / --diff and without its summary: the report and
// the warnings met are written; the counts and the exit code are returned
// for the caller to print (PrintCheckSummary) as its run means them.
// `reuse`: standard input and pipes as an earlier pass of the run read
// them (they cannot be read twice); null to read.
CheckSummary RunCheckCounted(const Options& options,
                             const std::vector<InMemoryInput>* reuse = nullptr);
// The report of no finding in `options.format`, as check writes it (an
// empty JSON array, a SARIF log of one run without results); "" for the
// formats that write nothing then.
std::string RenderEmptyReport(const Options& options);
// check --fix / --diff (fix_command.cc).
int RunFix(const Options& options);
int RunExplainCommand(const Options& options);
int RunRules(const Options& options);
// `topolint exec [options] -- COMPILER ARGS...` (exec_command.cc): checks
// a compiler's input module before it runs and the NEFF it wrote after
// (docs/integration.md, "In the compile path: topolint exec"). `options`
// are ParseOptions' of `topolint exec ...`; exec's own checks of them (no
// PATH, no --fix, ...) are made here. Returns the compiler's exit code
// (128 + signal when a signal ended it), 1 when --on-error block stopped on
// topology errors (before compiling, or after a successful compile), 2 for
// a usage error, a compiler that cannot be started, a report that cannot
// be written, or a check that could not run under block.
int RunExec(const Options& options);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_COMMANDS_H_
