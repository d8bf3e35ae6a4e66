// Where `topolint check` streams its report and its --write-baseline file:
// standard output, or a staged file (StagedOutput) that only Commit puts in
// place, so that a run that fails half-way (exit 2) leaves the old file.
#ifndef TOPOLINT_CHECKER_CLI_REPORT_SINK_H_
#define TOPOLINT_CHECKER_CLI_REPORT_SINK_H_

#include <string>

#include "absl/status/status.h"
#include "checker/io/output_file.h"

namespace topolint::cli {

class ReportSink {
 public:
  // Bytes gathered before a staged file is written to.
  static constexpr size_t kBufferBytes = size_t{64} << 10;

  // Standard output when `path` is empty, else a staged file for `path`.
  absl::Status Open(const std::string& path);
  // Takes `*text` (and clears it). Standard output is written at once, so
  // that findings show as their units finish; a staged file once
  // kBufferBytes have gathered.
  absl::Status Write(std::string* text);
  // Writes what is gathered; a staged file is flushed to disk and closed.
  absl::Status Finish();
  // Renames a finished staged file into place (nothing for standard output).
  absl::Status Commit();

 private:
  bool to_stdout_ = true;
  std::string buffer_;
  StagedOutput staged_;
};

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_REPORT_SINK_H_
