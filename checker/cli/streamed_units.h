// `topolint check DIR`: the units of a directory search checked as the walk
// forms them (checker/core/discovery_stream.h), so that memory stays flat in
// the number of files searched (issue 27, defect 3).
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
#include "checker/cli/project_config_finder.h"
#include "checker/cli/unchecked_summary.h"
#include "checker/cli/unit_jobs.h"
#include "checker/core/discovery_stream.h"
#include "checker/core/path_filter.h"

namespace topolint::cli {

// Whether `options` search exactly one directory and name nothing else
// (no file, standard input, --hlo/--neff/--neuron-config or --whole-units):
// the case StreamedUnits serves. Other command lines are planned whole
// (PlanJobs); their units are few or named one by one.
bool CanStreamUnits(const Options& options);

// A UnitSource over the search of options.paths[0]. Each unit gets its
// settings (UnitSettings) and is refused when an -o or --write-baseline
// path is one of its files or its settings file (CheckOutputsAreNotInputs).
// Warnings and skipped paths are handed to the callbacks as the walk meets
// them, on the thread taking units (one at a time).
class StreamedUnits : public UnitSource {
 public:
  StreamedUnits(const Options& options,
                std::function<void(std::string)> on_warning,
                std::function<void(SkippedPath)> on_skipped);

  // Reads the --include / --exclude patterns, checks --config and walks to
  // the first unit; an invalid pattern or settings file, or a directory
  // that cannot be listed, is an error (exit 2).
  absl::Status Init();

  absl::StatusOr<bool> Take(const UnitJob** job,
                            std::unique_ptr<UnitJob>* owned,
                            std::optional<std::string>* frontier) override;
  const std::vector<InMemoryInput>& in_memory() const override {
    return in_memory_;
  }
  const SharedInputs* shared() const override { return &shared_; }

  // Units handed out so far that check files (not skipped cache entries).
  size_t units() const { return units_; }
  // What the units handed out so far report as left out.
  const UncheckedSummary& unchecked() const { return unchecked_; }

 private:
  const Options& options_;
  DiscoveryLimits limits_;
  PathSelector selector_;
  std::unique_ptr<UnitStream> stream_;
  std::function<void(std::string)> on_warning_;
  std::function<void(SkippedPath)> on_skipped_;
  UnitSettings settings_;
  ProjectConfigFinder finder_;
  std::vector<InMemoryInput> in_memory_;  // none
  SharedInputs shared_;
  size_t units_ = 0;
  UncheckedSummary unchecked_;
};

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_STREAMED_UNITS_H_
