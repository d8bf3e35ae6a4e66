// Writing outputs without losing a file (-o, --write-baseline): the bytes go
// to a temporary file in the target's directory, every write and the close
// are checked, the data is flushed to disk, and only then is the temporary
// renamed over the target. A full disk, RLIMIT_FSIZE (SIGXFSZ must be
// ignored, as main() does) or any other failure leaves the old file as it
// was and removes the temporary. The replacement of an existing file keeps
// its permissions and, where the process may (root), its owner and group.
// A symlink is followed: the file it ends at is replaced, the link stays.
// A target that is not a regular file (a
// device such as /dev/full or /dev/null, a pipe) is written in place, still
// checked; so is an open descriptor named by /dev/stdout, /dev/stderr,
// /dev/fd/N or /proc/self/fd/N, through that descriptor (whatever file it
// holds), as a shell writes `> /dev/stderr`.
#ifndef TOPOLINT_CHECKER_IO_OUTPUT_FILE_H_
#define TOPOLINT_CHECKER_IO_OUTPUT_FILE_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace topolint {

// Writes all of `data` to `fd`, retrying short writes and EINTR. The error
// names `name` and the reason ("standard output: Broken pipe").
absl::Status WriteAllFd(int fd, std::string_view data, const std::string& name);

// CLI only: on SIGINT, SIGTERM or SIGHUP, remove the temporaries of every
// live StagedOutput, then die of the signal. (Temporaries are unnamed
// O_TMPFILE files where the file system allows, so SIGKILL leaves nothing
// either; they are named only for the instant of the rename.)
void RemoveTempFilesOnSignals();
// Removes the named temporaries now (async-signal-safe; for a handler).
void RemoveLiveTempFiles();

class StagedOutput {
 public:
  StagedOutput() = default;
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;
  // Removes the temporary file unless Commit succeeded.
  ~StagedOutput();

  // Creates the temporary next to `path` (or opens `path` itself when it is
  // a device or pipe). Errors: "PATH: is a directory", "PATH: cannot create
  // a temporary file in DIR: <strerror>".
  absl::Status Open(const std::string& path);
  // Appends `data`; the first error sticks and is returned again by Finish.
  absl::Status Write(std::string_view data);
  // Flushes the data to disk and closes the temporary (both checked).
  absl::Status Finish();
  // Renames the finished temporary over the target.
  absl::Status Commit();

 private:
  void Discard();
  // Gives the O_TMPFILE file a temporary name (set in temp_).
  bool LinkUnnamed();

  std::string target_;
  std::string temp_;  // "" when writing the target in place
  int fd_ = -1;
  int slot_ = -1;         // in the signal handler's list of temporaries
  bool unnamed_ = false;  // an O_TMPFILE file, not yet named
  bool finished_ = false;
  bool committed_ = false;
  absl::Status error_;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_IO_OUTPUT_FILE_H_
