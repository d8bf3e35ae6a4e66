// The file-system half of discovery: lists the files under the paths given,
// without following directory symlinks (unless asked), and says why
// anything it met was left out. Classification and grouping come after
// (discovery.h, layouts.h).
#ifndef TOPOLINT_CHECKER_CORE_DIR_WALK_H_
#define TOPOLINT_CHECKER_CORE_DIR_WALK_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace topolint {

class PathSelector;

struct DiscoveryLimits {
  int max_depth = 64;  // directory levels below a path given
  bool follow_symlinks = false;
  int jobs = 1;  // threads listing directories (not while following
                 // symlinks) and classifying files (discovery.h)
  // --include / --exclude and the config's filters (path_filter.h), applied
  // to the files found before they are classified; null = none. WalkPaths
  // ignores it; DiscoverUnits applies it.
  PathSelector* selector = nullptr;
  // Leave out what the .gitignore files of a git work tree ignore (for
  // files found by a search, not those named: discovery.h, gitignore.h).
  bool honour_gitignore = false;
};

// A path left out, and why ("not a recognised input", "symbolic link to a
// directory; not followed", ...). `files` is how many regular files it
// stands for (0 for a directory whose contents were never listed).
struct SkippedPath {
  std::string path;
  std::string reason;
  size_t files = 1;
  bool warned = false;  // already shown as a warning (not again in --verbose)
};

struct FoundFile {
  std::string path;  // display: the path given, or joined below it
  // The path given that led here (no trailing '/'): one string for all the
  // files found below it, not a copy per file.
  std::shared_ptr<const std::string> root;
  bool named = false;
};

// A directory the walk listed in full, and whether it holds a
// `.topolint.json` that is a regular file (so that finding each unit's
// settings needs no stat() of its own directory).
struct ListedDir {
  std::string path;  // display, as the paths of FoundFile
  bool has_settings = false;
};

// A path the walk could not enter (an unchecked-input finding).
struct NotSearchedPath {
  std::string in;  // the directory listed above it
  std::string path;
  std::string message;  // NotSearchedTooLong, ... (dir_entries.h)
};

struct WalkResult {
  std::vector<FoundFile> files;       // regular files, sorted per directory
  std::vector<SkippedPath> skipped;   // for --verbose
  std::vector<std::string> warnings;  // always shown
  std::vector<NotSearchedPath> not_searched;
  std::vector<ListedDir> listed;
};

// Walks `paths`. A path that does not exist, or a named directory that
// cannot be listed, is an error (exit 2). There is no cap on the number of
// files (a compile cache of 20,000 entries is a normal input): the walk
// holds one short event per entry it met. A subdirectory that cannot be listed,
// one deeper than `limits.max_depth`, and a path longer than PATH_MAX are
// `not_searched` (unchecked-input findings: the inputs below were not
// searched, which must not pass silently).
// Hidden entries (names starting with '.'), directory symlinks (unless
// `follow_symlinks`) and files that are no regular file are skipped. The
// result does not depend on `limits.jobs`.
absl::Status WalkPaths(const std::vector<std::string>& paths,
                       const DiscoveryLimits& limits, WalkResult* result);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_DIR_WALK_H_
