// The units of one directory search, formed while the directory tree is
// walked and handed out in report order as soon as no later directory can
// hold a unit that sorts before them (issue 27, defect 3): memory holds the
// directories on the way down from the path given and the few units
// waiting, not one entry per file of the tree.
//
// The walk is depth first, each directory listed whole and its entries in
// path order (a subdirectory `d` sorts as "d/"), so directories are listed
// in the order of their paths. A directory's files are classified and
// grouped (layout_groups.h) when it is listed; the units of a directory
// that depend on what is below it wait until its subtree is done: an NxD
// bucket (its `model/graph.hlo`) and a directory of component configs only
// (no unit of its own once a unit below inherits them).
//
// This is the only walk (issue 46, item 3): every directory given on a
// command line is one UnitStream, merged with the other sources by key
// (unit_sources.h). Units come in the order of their keys
// (StreamedUnit::key: a unit's smallest file, a directory's own configs
// counting, since whether a directory below inherits them is not known
// yet). Skipped paths are reported in walk order through the callback.
#ifndef TOPOLINT_CHECKER_CORE_DISCOVERY_STREAM_H_
#define TOPOLINT_CHECKER_CORE_DISCOVERY_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "checker/core/dir_entries.h"
#include "checker/core/discovery.h"
#include "checker/core/layout_groups.h"

namespace topolint {

class GitignoreFilter;

// What the sources of one command line share (unit_sources.h): the names
// of files met under several names, the files named on the command line
// that a walk finds, the directories searched.
struct FileNames {
  using Id = std::pair<uint64_t, uint64_t>;  // device, inode
  // Files with several names (hard links, symlink targets): the name each
  // is checked under. Files of one name are not held, so memory stays flat
  // in the number of files.
  absl::flat_hash_map<Id, std::string> checked;
  // Files named on the command line inside a directory searched: the walk
  // keeps them as named.
  absl::flat_hash_set<Id> named;
  // The directories searched: (realpath, the path given).
  std::vector<std::pair<std::string, std::string>> roots;
};

// `target` (a realpath) relative to `top` (a realpath) when a search of
// `top` walks it: below `top`, no hidden name on the way, at most
// `max_depth` directory levels down; "" otherwise.
std::string WalkedPathBelow(const std::string& top, std::string_view target,
                            int max_depth);

// The canonical absolute path of `path` (realpath), or "" when it cannot
// be resolved.
std::string RealPath(const std::string& path);

// `p` without trailing slashes ("/" stays).
std::string WithoutTrailingSlash(std::string p);

// One unit as the stream hands it out.
struct StreamedUnit {
  UnitSpec spec;
  // The report-order key: the unit's smallest file that is not inherited
  // from a directory above (every finding of the unit but those in an
  // inherited config is in a file at or after it).
  std::string key;
  // Files of the unit that other units list too (an inherited config, the
  // configs and flags a directory's several units share): FindingOrder
  // drops repeats of their findings.
  std::vector<std::string> shared;
  // Files of this unit no unit before it listed (the summary's count).
  size_t new_files = 0;
  // What the walk saw in spec.directory, when it listed it (else both
  // false and `dir_listed` false): a `.topolint.json` that is a regular
  // file, a `.git` (the top of a work tree).
  bool dir_listed = false;
  bool dir_has_settings = false;
  bool dir_has_git = false;
};

// The units of directory group `g` (its same files dropped, each name
// dropped handed to `on_skipped`; then DirUnits), each with its key, the
// files other units list too (the group's configs; with several units, its
// other JSON as well) and its count of new files (the shared ones counted
// with the first unit when `count_shared`). The files are not sorted yet
// (SortByPath).
std::vector<StreamedUnit> GroupUnits(
    DirGroup* g, const std::function<void(SkippedPath)>& on_skipped,
    bool count_shared);

// Sorts a unit's files by path (a unit's files are checked in path order).
void SortByPath(UnitSpec* spec);

// Not thread-safe: one caller at a time (the CLI takes it under a lock).
// Not copyable or movable.
class UnitStream {
 public:
  using SkippedFn = std::function<void(SkippedPath)>;

  // `root`: a directory given on the command line (as given). `limits`
  // (and its selector) must outlive the stream; `limits.jobs` is not used
  // (the stream is walked by whichever thread needs the next unit).
  // `names`: shared with the other sources of a command line (null: this
  // stream's own).
  UnitStream(std::string root, const DiscoveryLimits& limits,
             SkippedFn on_skipped, std::shared_ptr<FileNames> names = nullptr);
  ~UnitStream();
  UnitStream(const UnitStream&) = delete;
  UnitStream& operator=(const UnitStream&) = delete;

  // The next unit in report order into *unit; false at the end. An error
  // (the path given cannot be listed, a settings file with an invalid
  // pattern) ends the stream.
  absl::StatusOr<bool> Next(StreamedUnit* unit);

  // Walks until the first unit is known: the error Next would give first
  // (the path given cannot be listed), before anything is reported.
  absl::Status Prime() { return Fill(); }

  // Directories listed so far (for tests: the walk goes as far as needed).
  size_t directories_listed() const { return listed_; }

  // The path given (no trailing '/').
  const std::string& root() const { return *root_; }

 private:
  struct Frame;

  absl::Status Fill();
  absl::Status Step();
  absl::Status List(const std::string& path, int depth);
  // `path` could not be entered: a unit reporting it (unchecked-input), in
  // the settings of `in`, the directory listed above it (null: none).
  void NotSearched(const Frame* in, std::string path, std::string message);
  // A file of the directory open as `dir_fd`, reached as `path` (a symlink
  // when `maybe_link` and lstat says so): the name it is checked under when
  // that is another one, in another directory (one device and inode: a hard
  // link met before, or the target of a symlink that the search walks
  // under its own name); "" to check it as `path`.
  std::string SecondName(int dir_fd, const std::string& path, bool maybe_link);
  // The name the search walks the target of symlink `link` under; "" when
  // it does not walk it (outside the path given, hidden, too deep,
  // excluded, ignored).
  std::string WalkedName(const std::string& link);
  void FormUnits(Frame* frame);
  // Queues `out` as ready, with what the walk saw in `frame` (null: none)
  // when that is its directory.
  void Ready(const Frame* frame, StreamedUnit out);
  void Finish(Frame* frame);
  std::optional<std::string> Bound() const;
  bool Ignored(const FoundFile& f);
  // Finds the work tree's .gitignore filter once: false when there is none
  // (or --no-ignore).
  bool LookUpGitignore();
  // Tells the filter whether directory `dir`, just listed, has a
  // .gitignore; returns `dir` relative to the work tree ("" when there is
  // no filter, or `dir` is its top or outside it).
  std::string NoteListed(const std::string& dir, bool has_gitignore);

  const DiscoveryLimits& limits_;
  std::shared_ptr<const std::string> root_;
  SkippedFn on_skipped_;
  bool started_ = false;
  absl::Status error_;
  std::vector<std::unique_ptr<Frame>> stack_;
  // Units formed, by (key, sequence): handed out once no directory still
  // to be listed (nor a unit still waiting for its subtree) can sort first.
  std::map<std::pair<std::string, uint64_t>, StreamedUnit> ready_;
  uint64_t sequence_ = 0;
  // Directories already listed, while following symlinks (a directory
  // reached twice is listed once): 16 bytes each.
  absl::flat_hash_set<std::pair<uint64_t, uint64_t>> claimed_;
  size_t listed_ = 0;
  bool gitignore_looked_up_ = false;
  std::unique_ptr<GitignoreFilter> gitignore_;
  std::string search_root_;     // the path given, relative to the work tree
  std::string canonical_root_;  // realpath of the path given, once needed
  std::shared_ptr<FileNames> names_;
  std::string cwd_;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_DISCOVERY_STREAM_H_
