// The one lookup of the `.topolint.json` that applies to a directory: the
// nearest one in the directory or its ancestors, up to the root of the git
// work tree holding it (docs/integration.md). Unit settings (CLI and C++
// API) and the config's "include" / "exclude" filters (PathSelector) both
// come from it, so a unit's settings and its filters are one file.
#ifndef TOPOLINT_CHECKER_CORE_PROJECT_CONFIG_FINDER_H_
#define TOPOLINT_CHECKER_CORE_PROJECT_CONFIG_FINDER_H_

#include <string>

#include "absl/container/flat_hash_map.h"

namespace topolint {

// What a directory walk saw in a directory while listing it.
struct SeenDir {
  bool has_settings = false;  // a `.topolint.json` that is a regular file
  bool has_git = false;       // a `.git` (directory or file): a work tree
};

// Finds the `.topolint.json` for directories, with every directory looked
// at once: many units share their ancestors (a compile cache of thousands
// of entries), so the answer for each directory above a queried one is
// remembered. A queried directory is remembered too when it cost a stat();
// not when the walk said what it holds (SeenDir: no syscall, and no entry
// per unit). Results are absolute, lexically normal paths ('/'-separated,
// symbolic links not resolved), "" when none applies. Not thread-safe.
class ProjectConfigFinder {
 public:
  // `dir`: relative to the current directory or absolute ("" is "."). `seen`:
  // what a walk saw in `dir` when it listed it, or null.
  std::string Find(const std::string& dir, const SeenDir* seen = nullptr);

 private:
  // `abs` is absolute and lexically normal.
  std::string FindAbsolute(const std::string& abs, const SeenDir* seen,
                           bool remember);

  absl::flat_hash_map<std::string, std::string> found_;  // abs dir -> path
  std::string cwd_;
  bool cwd_valid_ = false;
  // Find's last `dir` and its answer (the files of a directory come
  // together; units of one directory too).
  bool last_valid_ = false;
  std::string last_dir_;
  std::string last_result_;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_PROJECT_CONFIG_FINDER_H_
