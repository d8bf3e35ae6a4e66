// Checking one unit (StreamUnits, checker/cli/unit_stream.cc).
// Internal to checker/cli.
#ifndef TOPOLINT_CHECKER_CLI_UNIT_CHECK_H_
#define TOPOLINT_CHECKER_CLI_UNIT_CHECK_H_

#include <vector>

#include "absl/status/status.h"
#include "checker/cli/unit_jobs.h"
#include "checker/core/shared_inputs.h"

namespace topolint::cli {

// Loads and checks one unit (LoadAndCheckUnit), keeping what its outcome
// needs once the unit is dropped.
absl::Status CheckOneUnit(const UnitJob& job,
                          const std::vector<InMemoryInput>& in_memory,
                          const SharedInputs* shared, UnitOutcome* out);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_UNIT_CHECK_H_
