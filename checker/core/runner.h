// Loads units and runs the rules over them. No printing, no exit: the CLI
// and the library API both call this.
#ifndef TOPOLINT_CHECKER_CORE_RUNNER_H_
#define TOPOLINT_CHECKER_CORE_RUNNER_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "checker/core/discovery.h"
#include "checker/core/rule_selection.h"
#include "checker/core/unit.h"
#include "checker/diag/finding.h"

namespace topolint {

// In-memory text for an input (stdin, API buffers), keyed by display name.
struct InMemoryInput {
  std::string name;
  std::string text;
};

// Loads every file of `spec` into a Unit. Only I/O failures are errors
// (exit 2); parse failures become syntax problems inside the unit.
// `in_memory` supplies texts for files with `from_stdin` set.
absl::Status LoadUnit(const UnitSpec& spec,
                      const std::vector<InMemoryInput>& in_memory, Unit* unit);

// Runs every enabled rule over `unit`, then applies suppression comments and
// per-file ignores. Findings come back sorted (FindingLess), with --werror
// already applied to severities.
std::vector<Finding> CheckUnit(const Unit& unit, const CheckOptions& options,
                               const RuleSelection& selection);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_RUNNER_H_
