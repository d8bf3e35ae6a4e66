// Resolves the command line into units, each with its own settings (the
// nearest .topolint.json, then the command-line flags on top).
#ifndef TOPOLINT_CHECKER_CLI_UNIT_JOBS_H_
#define TOPOLINT_CHECKER_CLI_UNIT_JOBS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "checker/cli/options.h"
#include "checker/core/discovery.h"
#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"
#include "checker/core/unit.h"

namespace topolint::cli {

struct UnitJob {
  UnitSpec spec;
  RuleSelection selection;
  CheckOptions check;
};

struct JobPlan {
  std::vector<UnitJob> jobs;
  std::vector<InMemoryInput> in_memory;  // stdin
  std::vector<std::string> skipped;      // named files of no known kind
};

// Usage errors, missing paths and invalid config files are errors (exit 2).
absl::Status PlanJobs(const Options& options, JobPlan* plan);

// Loads every unit (in parallel with options.jobs threads), in plan order.
absl::Status LoadUnits(const JobPlan& plan, int jobs, std::vector<Unit>* units);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_UNIT_JOBS_H_
