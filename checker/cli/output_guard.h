// Guards for the outputs of `topolint check`, `explain` and `exec` (-o,
// --write-baseline): an output never replaces one of the run's inputs, nor
// a file another program of the run reads or writes.
#ifndef TOPOLINT_CHECKER_CLI_OUTPUT_GUARD_H_
#define TOPOLINT_CHECKER_CLI_OUTPUT_GUARD_H_

#include <string>
#include <vector>

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

// A file that an output must not replace, and what it is to the run
// ("the compiler's argument", "the NEFF the compiler writes").
struct GuardedFile {
  std::string path;
  std::string what;
  // Also refused by name (the same absolute path, symlinks of its
  // directories resolved) when it does not exist yet: a file another
  // program is about to write.
  bool by_name = false;
};

// Refuses (InvalidArgument, "FLAG OUTPUT: is WHAT PATH; refusing to
// overwrite it") an `output` that is the same file as one of `files`
// (device and inode, so also through a symlink or hard link), or names one
// that has `by_name` set.
absl::Status CheckOutputIsNoneOf(const std::string& flag,
                                 const std::string& output,
                                 const std::vector<GuardedFile>& files);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_OUTPUT_GUARD_H_
