// Loads units and runs the rules over them. No printing, no exit: the CLI
// and the library API both call this.
#ifndef TOPOLINT_CHECKER_CORE_RUNNER_H_
#define TOPOLINT_CHECKER_CORE_RUNNER_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "checker/core/discovery.h"
#include "checker/core/rule_selection.h"
#include "checker/core/shared_inputs.h"
#include "checker/diag/finding.h"
#include "checker/model/unit.h"

namespace topolint {

// In-memory content of an input (stdin, API buffers), keyed by display name:
// text, or the bytes of a binary HLO module or (API only) a .neff archive.
struct InMemoryInput {
  std::string name;
  std::string text;
  // >= 0: `text` holds only the first bytes of HLO text, and the rest is
  // read from this descriptor (standard input) as the module is parsed, in
  // bounded windows; it can be read once. -1: `text` is the whole input.
  int stream_fd = -1;
  // The library APIs' inputs, read in place: when `borrowed.data()` is not
  // null the bytes are there (owned by the caller, who keeps them alive and
  // unchanged until the check returns) and `text` is unused. The C API's
  // 500 MB HLO text is then never copied (docs/reliability.md).
  std::string_view borrowed = {};

  std::string_view bytes() const {
    return borrowed.data() != nullptr ? borrowed : std::string_view(text);
  }
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

// LoadUnit and CheckUnit in one pass that never holds an HLO module's
// collectives: the JSON and NEFF inputs are loaded first, then each HLO
// module is parsed with every collective checked as soon as it is read and
// then dropped (rules/collective_checks.h). Memory therefore grows with the
// collectives of one instruction, not with the file
// (docs/reference/quality.md). `*findings` equals CheckUnit(LoadUnit(spec));
// `*unit` keeps everything else (module headers, suppressions, syntax errors,
// JSON inputs, NEFF member texts) with empty `collectives`. Fails as LoadUnit
// does (the first unreadable file in spec order). With `shared` set, the inputs
// it holds come from it (read once per run) instead of from their files.
absl::Status LoadAndCheckUnit(const UnitSpec& spec,
                              const std::vector<InMemoryInput>& in_memory,
                              const CheckOptions& options,
                              const RuleSelection& selection, Unit* unit,
                              std::vector<Finding>* findings,
                              const SharedInputs* shared = nullptr);

// What LoadUnit does for one JSON or compile-flags input (the loader of
// SharedInputs).
absl::Status LoadJsonInput(const InputFile& f,
                           const std::vector<InMemoryInput>& in_memory,
                           Unit* unit);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_RUNNER_H_
