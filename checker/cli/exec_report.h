// The report of `topolint exec`'s phases (the module before the compile,
// the module against its NEFF after it). Text and github reports are
// written as each phase ends, one after the other. A json or sarif report
// is one document: each phase is checked into memory, and their documents
// are merged (one JSON array; one SARIF run, artifact indices renumbered,
// capped at kSarifMaxResults as one check's run is) and written once, when
// exec ends: an empty document when no phase ran.
//
// The report goes to standard error, or to -o FILE through the staged
// writer every output of topolint uses (checker/io/output_file.h): the
// bytes go to a temporary that only Finish(commit = true) renames over
// FILE, so an interrupted or failed exec leaves the old FILE as it was.
#ifndef TOPOLINT_CHECKER_CLI_EXEC_REPORT_H_
#define TOPOLINT_CHECKER_CLI_EXEC_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "checker/cli/options.h"
#include "checker/io/output_file.h"

namespace topolint::cli {

// The documents of the phases of one format (json or sarif), merged into
// one, as the check writes it; `empty` when there are none. Exposed for
// tests.
std::string MergeJsonReports(const std::vector<std::string>& documents);
std::string MergeSarifReports(const std::vector<std::string>& documents);

class ExecReport {
 public:
  // `check`: the settings every phase shares (its format decides); must
  // outlive the report.
  explicit ExecReport(const Options& check);
  ExecReport(const ExecReport&) = delete;
  ExecReport& operator=(const ExecReport&) = delete;

  // Where the report goes: standard error when `path` is empty, else a
  // staged file for `path` (created now, put in place by Finish).
  absl::Status Open(const std::string& path);

  // Checks one phase with `options` (RunCheckCounted's exit code); its
  // report is written now (text, github) or kept for Finish (json, sarif).
  // A failed write is not the check's exit code: it sticks in status().
  int RunPhase(const Options& options);

  // The first failure to write the report ("r.txt: write failed: No space
  // left on device"), or OK.
  const absl::Status& status() const { return error_; }

  // Writes the merged document (json, sarif; nothing more for text and
  // github), then finishes a staged file and, when `commit`, renames it
  // over the target; without `commit` the old file stays. Called once,
  // when exec ends. Returns status() after these writes.
  absl::Status Finish(bool commit);

 private:
  void Write(const std::string& text);

  const Options& check_;
  bool one_document_;
  bool staged_open_ = false;
  StagedOutput staged_;
  absl::Status error_;
  std::vector<std::string> documents_;
};

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_EXEC_REPORT_H_
