// Every unit of a command line as one stream in report order (issue 46,
// item 3): each directory given is a UnitStream (discovery_stream.h, the
// only walk); the files named, --hlo / --neff and standard input are a
// trivial source of units formed up front; the sources are merged by unit
// key, so that the report order across several roots is the order of the
// keys (docs/integration.md, "Report order and streaming").
//
// A file named on the command line that a directory given also holds is
// found by that directory's walk, which keeps it as named (always loaded,
// whatever --exclude or .gitignore say: path_filter.h); one a walk does not
// reach forms a unit with the other files named in its directory, grouped as
// a search groups them (layout_groups.h). A directory given twice, or inside
// another one given, is searched once. One file under several names is
// checked once, across every source (device and inode: hard links, symlinks).
#ifndef TOPOLINT_CHECKER_CORE_UNIT_SOURCES_H_
#define TOPOLINT_CHECKER_CORE_UNIT_SOURCES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "checker/core/discovery_stream.h"

namespace topolint {

// Not thread-safe; not copyable.
class UnitSources {
 public:
  using SkippedFn = UnitStream::SkippedFn;

  // `limits` (and its selector) must outlive the sources.
  UnitSources(const DiscoveryLimits& limits, SkippedFn on_skipped);
  ~UnitSources();
  UnitSources(const UnitSources&) = delete;
  UnitSources& operator=(const UnitSources&) = delete;

  // Adds the paths of a command line (directories and regular files; the
  // caller has read pipes and standard input). A path that does not exist
  // is an error; a named file of no kind topolint reads goes to
  // `*unrecognised` (the CLI refuses it). With `whole_units`
  // (`--whole-units`: what pre-commit passes, the staged files), a FILE
  // stands for its whole unit (docs/reference/inputs.md): the unit a search
  // of the working tree (from the current directory, or the file's own
  // directory for a file outside it) puts it in, with the other files of
  // that unit and the config it inherits, loaded as if met while searching;
  // a given file in no unit yields nothing.
  absl::Status AddPaths(const std::vector<std::string>& paths, bool whole_units,
                        std::vector<SkippedPath>* unrecognised);

  // A unit the caller formed (--hlo / --neff / --neuron-config, standard
  // input, a pipe): handed out in key order with the rest.
  void AddUnit(UnitSpec spec);

  // Walks every directory source to its first unit: the error the first
  // Next would give (a directory given that cannot be listed, an invalid
  // settings pattern), before anything is reported.
  absl::Status Prime();

  // The unit with the smallest key of all sources; false at the end.
  absl::StatusOr<bool> Next(StreamedUnit* unit);

  // The key of the unit Next gives next; nullopt at the end or on an error.
  std::optional<std::string> PeekKey();

 private:
  struct Root;

  // The source whose unit comes next (-1: none left, -2: an error, in
  // *error).
  int Pick(absl::Status* error);

  const DiscoveryLimits& limits_;
  SkippedFn on_skipped_;
  std::vector<std::unique_ptr<Root>> roots_;
  // The trivial source: units formed up front, by (key, sequence).
  std::map<std::pair<std::string, uint64_t>, StreamedUnit> formed_;
  uint64_t sequence_ = 0;
  std::shared_ptr<FileNames> names_;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_UNIT_SOURCES_H_
