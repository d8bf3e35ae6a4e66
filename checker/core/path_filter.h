// Path filters: `--include REGEX` / `--exclude REGEX` and the "include" /
// "exclude" keys of `.topolint.json`, with pre-commit's `files` / `exclude`
// semantics (docs/filters.md).
//
// A pattern is an RE2 regular expression searched for (Python's
// `re.search`, RE2::PartialMatch: anchor with `^` / `$` yourself) in a
// file's path relative to a root, written with '/' and without a leading
// "./". RE2 runs in time linear in the path whatever the pattern, so an
// untrusted pattern in a shared config cannot hang a CI job.
//
// Filters come in levels (the command line's, and the `.topolint.json`
// that applies to the file), as pre-commit's top-level and per-hook
// `files` / `exclude`: a file is kept when it passes every level, and it
// passes a level when it matches one of the level's include patterns (or
// the level has none) and none of its exclude patterns.
//
// Roots: the command line's patterns are matched against the path relative
// to the git work tree holding the current directory, else the current
// directory; a config's, relative to the git work tree holding that
// config, else the config's directory.
#ifndef TOPOLINT_CHECKER_CORE_PATH_FILTER_H_
#define TOPOLINT_CHECKER_CORE_PATH_FILTER_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "checker/core/dir_entries.h"
#include "checker/core/project_config_finder.h"

namespace re2 {
class RE2;
}

namespace topolint {

// Compiles `pattern`. An invalid one is kInvalidArgument naming `origin`
// (e.g. "--exclude"), the pattern, the 1-based column where RE2 found the
// error and RE2's reason.
absl::StatusOr<std::shared_ptr<const re2::RE2>> CompilePathPattern(
    const std::string& pattern, const std::string& origin);

// The path of `path` relative to `root` (both made absolute against the
// current directory, lexically: symlinks are not resolved), with '/' and
// no "./"; "../x" for a path outside the root.
std::string RelativeToRoot(const std::string& path, const std::string& root);

// One level of filters. Immutable once made; may be shared by threads.
class PathFilterLevel {
 public:
  // Compiles the patterns (`origin` names where they come from in error
  // messages: "--include", "settings.json: \"exclude\"").
  static absl::StatusOr<PathFilterLevel> Make(
      std::string root, const std::vector<std::string>& include,
      const std::vector<std::string>& exclude, const std::string& origin);

  bool empty() const { return include_.empty() && exclude_.empty(); }
  const std::string& root() const { return root_; }

  // "" when `relative` passes; else why not ("excluded by --exclude
  // '^fixtures/'", "matches no --include pattern").
  std::string Reject(std::string_view relative) const;

 private:
  struct Pattern {
    std::string text;
    std::shared_ptr<const re2::RE2> re;
  };
  std::string root_;
  std::string origin_;
  std::vector<Pattern> include_, exclude_;
};

// Decides, for discovery, which files found by a search are kept: the
// command line's level, then that of the `.topolint.json` applying to the
// file (the `--config` file, else the one ProjectConfigFinder finds for the
// file's directory: the file its unit takes its settings from). Files named on
// the command line are kept whatever the filters say unless `force_exclude` is
// set (ruff's `--force-exclude`). Not thread-safe (it caches configs per
// directory).
class PathSelector {
 public:
  PathSelector() = default;

  // The command line's patterns; invalid ones are kInvalidArgument.
  absl::Status SetCommandLine(const std::vector<std::string>& include,
                              const std::vector<std::string>& exclude);
  void set_force_exclude(bool on) { force_exclude_ = on; }
  // A fixed settings file for every file (--config); "" = search upward.
  void set_config(std::string path) { fixed_config_ = std::move(path); }

  // What the directory (display path) whose files come next holds: no
  // stat() for it (a streamed walk, which learns it while listing, tells
  // each directory before its files).
  void HintDirectory(const std::string& dir, const SeenDir& seen) {
    hint_dir_ = dir;
    hint_seen_ = seen;
  }

  // The lookup of settings files, shared with whoever takes the units'
  // settings from them, so that both are the same file and each directory
  // is looked at once.
  ProjectConfigFinder* config_finder() { return &finder_; }

  // "" when `file` is kept, else the reason it is left out. Fails when a
  // settings file cannot be read or holds an invalid pattern.
  absl::StatusOr<std::string> Reject(const FoundFile& file);

 private:
  absl::StatusOr<const PathFilterLevel*> ConfigLevel(const std::string& dir);

  PathFilterLevel command_line_;
  bool force_exclude_ = false;
  std::string fixed_config_;
  ProjectConfigFinder finder_;
  std::map<std::string, std::unique_ptr<PathFilterLevel>> levels_;  // by path
  std::string hint_dir_;  // HintDirectory
  SeenDir hint_seen_;
  bool last_dir_valid_ = false;  // Reject's last directory and its level
  std::string last_dir_;
  const PathFilterLevel* last_level_ = nullptr;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_PATH_FILTER_H_
