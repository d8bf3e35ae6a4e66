// One directory's files grouped into units (layouts.h, docs/layouts.md):
// the per-directory steps of the walk, which forms units one directory at a
// time as it lists them (discovery_stream.h), and of the files named on the
// command line (unit_sources.h).
#ifndef TOPOLINT_CHECKER_CORE_LAYOUT_GROUPS_H_
#define TOPOLINT_CHECKER_CORE_LAYOUT_GROUPS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "checker/core/discovery.h"
#include "checker/core/layouts.h"

namespace topolint {

// A directory's files by role. Most directories of a search hold one file
// of each role (a compile-cache entry: model.hlo, def.json,
// compile_flags.json, model.done): room for one each inside the group, so
// that grouping thousands of them allocates per unit, not per file.
using RoleFiles = absl::InlinedVector<InputFile, 1>;

struct DirGroup {
  std::string_view dir;   // the group's directory; the owner keeps the text
  std::string_view root;  // the path given above it (likewise kept)
  RoleFiles hlo, neff, def_json, configs, shared;
  absl::InlinedVector<std::string, 2> markers;  // file names
  std::vector<UncheckedInput> unread;           // FileRole::kUnread files
  size_t files = 0;  // every file, for a skipped entry
  bool any_named = false;
  bool modules() const {
    return !hlo.empty() || !neff.empty() || !def_json.empty();
  }
};

using DirUnitList = absl::InlinedVector<UnitSpec, 1>;

// Adds a classified file (not kNone) to its directory's group. `group->root`
// becomes a view of `*c.file.root` when that is shorter: the caller keeps
// the root alive as long as the group.
void AddFileToGroup(ClassifiedFile&& c, DirGroup* group);

// Why a compile-cache entry `MODULE_*/` is not checked (a failed, locked or
// incomplete entry), or "" when it is checked; `*kind` says which.
std::string CacheEntryProblem(const DirGroup& g,
                              UncheckedInput::Kind* kind = nullptr);

// The unit that reports a skipped compile-cache entry `dir`: no files, one
// unchecked-input record (`why` from CacheEntryProblem).
UnitSpec SkippedEntryUnit(std::string_view dir, UncheckedInput::Kind kind,
                          const std::string& why);

// The unit that reports `path`, which the search could not enter (an
// unchecked-input finding of kind kNotSearched saying `message`), with the
// settings of `directory` (the directory listed above it).
UnitSpec NotSearchedUnit(std::string directory, std::string path,
                         std::string message);

// Several names of one file in one role of `g` (hard links, symlinks: one
// device and inode) are checked once: the name kept is one named on the
// command line, else one that pairs by name with the other side, else the
// first in path order; each other name goes to `dropped` ("same file as
// ..."), which --verbose lists.
void DropSameFiles(DirGroup* g, std::vector<SkippedPath>* dropped);

// The units of one directory, before inherited configs. Takes the files of
// `g` but its configs (a directory below may inherit them). Modules and
// NEFFs the names cannot pair, and the files of `g.unread`, are reported by
// the first unit (UnitSpec::unchecked). The files of each unit are not
// sorted yet.
DirUnitList DirUnits(DirGroup& g);

// The report-order key of a unit: its smallest file or unchecked path.
std::string UnitKeyOf(const UnitSpec& unit);

// The directory a file is grouped under: its own, except an NxD bucket's
// `model/graph.hlo`, which belongs with the bucket's `graph.neff`.
std::string GroupDir(const std::string& path);

// `_tp0_bk3`: an NxD compile bucket's directory name.
bool IsBucketName(std::string_view name);

// String forms of filename() / parent_path() for a walk's generic paths (no
// trailing '/'): "." for a bare name, "/" for a file at the root.
std::string_view BaseName(std::string_view path);
std::string_view ParentView(std::string_view path);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_LAYOUT_GROUPS_H_
