// Bridges between the public API (include/topolint/topolint.h, plain
// standard-library types) and the engine (checker/core). Used by api.cc and
// the C API; not installed.
#ifndef TOPOLINT_CHECKER_API_API_INTERNAL_H_
#define TOPOLINT_CHECKER_API_API_INTERNAL_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "checker/core/discovery.h"
#include "checker/core/project_config_finder.h"
#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"
#include "checker/diag/finding.h"
#include "checker/diag/render.h"
#include "checker/model/unit.h"
#include "topolint/topolint.h"

namespace topolint::api::internal {

// Rule selection and check settings for a unit in `unit_dir`, as the CLI
// computes them: the project config (options.project_config, or the nearest
// .topolint.json when options.search_project_config), then `options` on top.
// Invalid options or config files are kInvalidArgument. `finder`: the
// lookup a walk's path filters use (the same file, each directory looked
// at once), or null for a lookup of its own.
absl::Status BuildSettings(const Options& options, const std::string& unit_dir,
                           RuleSelection* selection, CheckOptions* check,
                           ProjectConfigFinder* finder = nullptr);

// Check() and CheckPaths() with the engine's findings (sorted, FindingLess)
// and the roots their paths and fingerprints are anchored at
// (FindReportRoots with the first input, as the CLI's), for callers that
// render them (the C API renders `--format json`). A baseline that cannot
// be read or parsed is kNotFound / kInvalidArgument.
absl::Status CheckUnitFindings(const Unit& unit, const Options& options,
                               std::vector<topolint::Finding>* findings,
                               topolint::SarifRoots* roots);
absl::Status CheckPathsFindings(const std::vector<std::string>& paths,
                                const Options& options,
                                std::vector<topolint::Finding>* findings,
                                topolint::SarifRoots* roots);

// The engine's unit description of `unit` (its in-memory texts in
// `in_memory`). An empty unit is kInvalidArgument.
absl::Status BuildSpec(const Unit& unit, UnitSpec* spec,
                       std::vector<InMemoryInput>* in_memory);

}  // namespace topolint::api::internal

#endif  // TOPOLINT_CHECKER_API_API_INTERNAL_H_
