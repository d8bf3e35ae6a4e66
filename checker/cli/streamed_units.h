// The units of a command line, checked as the walks form them
// (checker/core/unit_sources.h: each directory a stream, named files,
// --hlo / --neff and standard input a trivial source, merged by key), so
// that memory stays flat in the number of files searched (issue 27,
// defect 3; issue 46, item 3: the only unit pipeline).
#ifndef TOPOLINT_CHECKER_CLI_STREAMED_UNITS_H_
#define TOPOLINT_CHECKER_CLI_STREAMED_UNITS_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "checker/cli/options.h"
#include "checker/cli/unchecked_summary.h"
#include "checker/cli/unit_jobs.h"
#include "checker/core/path_filter.h"
#include "checker/core/unit_sources.h"

namespace topolint::cli {

// Every unit of a command line, in report order (what StreamUnits takes). Each
// unit gets its settings (UnitSettings) and, with `check_outputs`, is refused
// when an -o or --write-baseline path is one of its files or its settings file
// (CheckOutputsAreNotInputs). Skipped paths are handed to the callback as
// the walks meet them, on the thread taking units (one at a time). `reuse`:
// standard input and pipes as an earlier pass of the run read them (they cannot
// be read twice), or null.
class StreamedUnits {
 public:
  StreamedUnits(const Options& options,
                std::function<void(SkippedPath)> on_skipped,
                const std::vector<InMemoryInput>* reuse = nullptr,
                bool check_outputs = true);

  // Reads the --include / --exclude patterns, checks --config, reads
  // standard input and pipes, classifies the files named and walks each
  // directory to its first unit; an invalid pattern or settings file, a
  // path that does not exist, a named file of no known kind or a directory
  // that cannot be listed is an error (exit 2).
  absl::Status Init();

  // Called by one thread at a time. The next unit into *job; *frontier is
  // the report-order key of the unit after it (nullopt when there is none:
  // FindingOrder). False at the end.
  absl::StatusOr<bool> Take(std::unique_ptr<UnitJob>* job,
                            std::optional<std::string>* frontier);
  // Standard input and pipes, read into memory.
  const std::vector<InMemoryInput>& in_memory() const { return in_memory_; }
  // Inputs several units read, loaded once.
  const SharedInputs* shared() const { return &shared_; }

  // Units handed out so far that check files (not skipped cache entries).
  size_t units() const { return units_; }
  // What the units handed out so far report as left out.
  const UncheckedSummary& unchecked() const { return unchecked_; }
  // Settings files loaded so far.
  const std::vector<std::string>& config_paths() const { return config_paths_; }

 private:
  const Options& options_;
  DiscoveryLimits limits_;
  PathSelector selector_;
  std::unique_ptr<UnitSources> sources_;
  std::function<void(SkippedPath)> on_skipped_;
  UnitSettings settings_;
  const std::vector<InMemoryInput>* reuse_;
  bool check_outputs_;
  std::vector<InMemoryInput> in_memory_;  // standard input and pipes
  std::vector<std::string> config_paths_;
  SharedInputs shared_;
  size_t units_ = 0;
  UncheckedSummary unchecked_;
};

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_STREAMED_UNITS_H_
