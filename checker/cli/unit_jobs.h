// Resolves the command line into units, each with its own settings (the
// nearest .topolint.json, then the command-line flags on top).
#ifndef TOPOLINT_CHECKER_CLI_UNIT_JOBS_H_
#define TOPOLINT_CHECKER_CLI_UNIT_JOBS_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "checker/cli/options.h"
#include "checker/core/discovery.h"
#include "checker/core/project_config.h"
#include "checker/core/project_config_finder.h"
#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"
#include "checker/core/shared_inputs.h"
#include "checker/diag/finding.h"
#include "checker/model/unit.h"

namespace topolint::cli {

struct UnitJob {
  UnitSpec spec;
  RuleSelection selection;
  CheckOptions check;
  // A streamed search's units (StreamedUnits): the files other units list
  // too, and how many of the unit's files no unit before it listed.
  std::vector<std::string> shared_files;
  size_t new_files = 0;
};

// Every unit of a command line, held at once: what `explain`, `exec` and
// the output checks need (a check streams them instead: StreamedUnits).
struct JobPlan {
  std::vector<UnitJob> jobs;
  std::vector<InMemoryInput> in_memory;   // stdin and pipes
  std::vector<std::string> warnings;      // explain: what a check reports
  std::vector<std::string> config_paths;  // .topolint.json files in use
};

// The units StreamedUnits hands out, all of them, in report order. Usage
// errors, missing paths, invalid config files and files named on the
// command line that are no recognised kind are errors (exit 2).
absl::Status PlanJobs(const Options& options, JobPlan* plan);

// The units a command line forms up front, the trivial source merged with
// the directory walks (unit_sources.h): --hlo / --neff / --neuron-config,
// standard input and pipes (read into `*in_memory`, or taken from `reuse`,
// what an earlier pass of the same run read). The paths to files and
// directories on disk go to `*disk_paths`.
absl::Status CommandLineUnits(const Options& options,
                              const std::vector<InMemoryInput>* reuse,
                              std::vector<InMemoryInput>* in_memory,
                              std::vector<UnitSpec>* specs,
                              std::vector<std::string>* disk_paths);

// A unit's settings: its `.topolint.json` (--config, else the nearest one
// found upward from its directory; each file loaded once), then the
// command-line flags on top. Not thread-safe.
class UnitSettings {
 public:
  explicit UnitSettings(const Options& options) : options_(options) {}
  // Sets job->selection and job->check for job->spec; the path of a
  // settings file loaded for the first time is appended to `new_configs`.
  // `seen`: what a streamed walk saw in the unit's directory, or null.
  absl::Status Apply(ProjectConfigFinder* finder, UnitJob* job,
                     std::vector<std::string>* new_configs,
                     const SeenDir* seen = nullptr);

 private:
  const Options& options_;
  std::map<std::string, ProjectConfig> configs_;
};

// Loads every unit (in parallel with options.jobs threads), in plan order.
absl::Status LoadUnits(const JobPlan& plan, int jobs, std::vector<Unit>* units);

// What checking one unit leaves behind once its inputs are dropped.
struct UnitOutcome {
  std::vector<Finding> findings;  // sorted (CheckUnit's order)
  // Texts of NEFF archive members (display name, text), for source snippets.
  std::vector<std::pair<std::string, std::string>> member_texts;
  // UnitJob's shared_files and new_files, for FindingOrder.
  std::vector<std::string> shared_files;
  size_t new_files = 0;
};

class StreamedUnits;  // streamed_units.h: where StreamUnits takes units

using ConsumeOutcome = std::function<absl::Status(
    UnitOutcome, const std::optional<std::string>& frontier)>;

// Loads and checks the units `source` gives, `jobs` at a time, and hands
// each outcome (with the key of the unit after it) to `consume` on the
// calling thread, in the source's order. The calling thread is one of the
// `jobs` checkers (it checks a unit whenever the next outcome is not ready
// yet). Checking runs at most 2 * jobs units ahead of `consume`, or
// 32 * jobs while the outcomes waiting hold under 1 MiB (an ordered
// hand-off with a bounded window), so memory holds that many units'
// outcomes, not the run's. Stops at the first failure (the source's, a
// load error, or an error `consume` returns) and returns it; the units
// before it have been consumed, none after it.
absl::Status StreamUnits(StreamedUnits* source, int jobs,
                         const ConsumeOutcome& consume);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_UNIT_JOBS_H_
