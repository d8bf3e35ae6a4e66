// What one run of `check` found, counted as its findings streamed by, and
// the summary lines its caller prints from it on standard error (the run
// itself prints its report and its warnings, never its summary: `check`,
// `check --fix` and `exec` each say what their run means).
#ifndef TOPOLINT_CHECKER_CLI_CHECK_SUMMARY_H_
#define TOPOLINT_CHECKER_CLI_CHECK_SUMMARY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "checker/cli/options.h"

namespace topolint::cli {

struct CheckSummary {
  int code = 0;        // the run's exit code
  bool ended = false;  // false: it failed (exit 2) before its report ended
  size_t errors = 0, warnings = 0, notes = 0;
  size_t hidden = 0;  // found but not shown (--max-findings)
  // Shown findings `--fix` would fix, and those only `--fix-from hlo` would.
  size_t fixable = 0, fixable_from_hlo = 0;
  std::map<std::string, size_t> per_rule;  // every finding, by rule
  size_t units = 0, files = 0, skipped = 0;
  std::string unchecked_line;  // UncheckedSummary::Line()
  int64_t baselined = 0, stale = 0;

  size_t total() const { return errors + warnings + notes; }
};

// --statistics' counts, then (unless --quiet) the summary: a refused -j,
// what was left unchecked, the counts, with `hint_fixes` how many findings
// --fix would fix, and what the baseline hid. Nothing for a run that did
// not end.
void PrintCheckSummary(const Options& options, const CheckSummary& summary,
                       bool hint_fixes);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_CHECK_SUMMARY_H_
