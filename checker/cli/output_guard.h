// Guards for `topolint check`'s outputs (-o, --write-baseline): an output
// never replaces one of the run's inputs.
#ifndef TOPOLINT_CHECKER_CLI_OUTPUT_GUARD_H_
#define TOPOLINT_CHECKER_CLI_OUTPUT_GUARD_H_

#include "absl/status/status.h"
#include "checker/cli/options.h"
#include "checker/cli/unit_jobs.h"

namespace topolint::cli {

// Refuses (InvalidArgument) an -o or --write-baseline path that is the same
// file (device and inode, so also through a symlink or hard link) as an
// input of `plan` (files named or found in directories, the settings files
// in use), as `--baseline` (for -o; `--baseline B --write-baseline B`
// updates a baseline and is allowed), or as the other output.
absl::Status CheckOutputsAreNotInputs(const Options& options,
                                      const JobPlan& plan);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_OUTPUT_GUARD_H_
