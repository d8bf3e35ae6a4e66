// Resolves the command line into units, each with its own settings (the
// nearest .topolint.json, then the command-line flags on top).
#ifndef TOPOLINT_CHECKER_CLI_UNIT_JOBS_H_
#define TOPOLINT_CHECKER_CLI_UNIT_JOBS_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "checker/cli/options.h"
#include "checker/core/discovery.h"
#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"
#include "checker/core/unit.h"
#include "checker/diag/finding.h"

namespace topolint::cli {

struct UnitJob {
  UnitSpec spec;
  RuleSelection selection;
  CheckOptions check;
};

struct JobPlan {
  std::vector<UnitJob> jobs;
  std::vector<InMemoryInput> in_memory;   // stdin and pipes
  std::vector<std::string> skipped;       // named files of no known kind
  std::vector<std::string> warnings;      // e.g. unreadable subdirectories
  std::vector<std::string> config_paths;  // .topolint.json files in use
  // Files and directories a directory search left out (--verbose lists
  // them; the summary counts the files).
  std::vector<SkippedPath> search_skipped;
};

// Files left out by the plan's directory searches.
size_t SkippedFileCount(const JobPlan& plan);

// Usage errors, missing paths, invalid config files and files named on the
// command line that are no recognised kind are errors (exit 2).
absl::Status PlanJobs(const Options& options, JobPlan* plan);

// Loads every unit (in parallel with options.jobs threads), in plan order.
absl::Status LoadUnits(const JobPlan& plan, int jobs, std::vector<Unit>* units);

// What checking one unit leaves behind once its inputs are dropped.
struct UnitOutcome {
  std::vector<Finding> findings;  // sorted (CheckUnit's order)
  // Texts of NEFF archive members (display name, text), for source snippets.
  std::vector<std::pair<std::string, std::string>> member_texts;
};

// Loads and checks the units `order` names (plan indexes), `jobs` at a time,
// and hands each outcome to `consume` on the calling thread, in `order`.
// The calling thread is one of the `jobs` checkers (it checks a unit
// whenever the next outcome is not ready yet). Checking runs at most
// 2 * jobs units ahead of `consume`, or 32 * jobs while the outcomes
// waiting hold under 1 MiB (an ordered hand-off with a bounded window), so
// memory holds that many units' outcomes, not the run's. An input several
// of the units list is loaded once for all (SharedInputs). Stops at the
// first failure in `order` (a load error, or an error `consume` returns)
// and returns it; the units before it have been consumed, none after it.
absl::Status StreamUnits(
    const JobPlan& plan, const std::vector<size_t>& order, int jobs,
    const std::function<absl::Status(UnitOutcome)>& consume);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_UNIT_JOBS_H_
