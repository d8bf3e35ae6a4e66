// The report of `topolint exec`'s phases (the module before the compile,
// the module against its NEFF after it). Text and github reports are
// written as each phase ends, one after the other. A json or sarif report
// is one document: each phase is checked into memory, and their documents
// are merged (one JSON array; one SARIF run, artifact indices renumbered)
// and written once, when exec ends, whichever way it ends: an empty
// document when no phase ran.
#ifndef TOPOLINT_CHECKER_CLI_EXEC_REPORT_H_
#define TOPOLINT_CHECKER_CLI_EXEC_REPORT_H_

#include <string>
#include <vector>

#include "checker/cli/options.h"

namespace topolint::cli {

// Whether exec can write `format` (text, github, json, sarif).
bool ExecWritesFormat(Format format);

// The documents of the phases of one format (json or sarif), merged into
// one, as the check writes it; `empty` when there are none. Exposed for
// tests.
std::string MergeJsonReports(const std::vector<std::string>& documents);
std::string MergeSarifReports(const std::vector<std::string>& documents);

class ExecReport {
 public:
  // `check`: the settings every phase shares (its format decides); `fd`:
  // where the report goes (exec's standard error or -o FILE), not owned.
  ExecReport(const Options& check, int fd);
  ExecReport(const ExecReport&) = delete;
  ExecReport& operator=(const ExecReport&) = delete;

  // Checks one phase with `options` (RunCheck's exit code); its report is
  // written now (text, github) or kept for Finish (json, sarif).
  int RunPhase(const Options& options);

  // Writes the merged document (json, sarif); nothing for text and github.
  // Called once, when exec ends.
  void Finish();

 private:
  const Options& check_;
  int fd_;
  bool one_document_;
  std::vector<std::string> documents_;
};

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_EXEC_REPORT_H_
