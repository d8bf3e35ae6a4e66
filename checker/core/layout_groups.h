// One directory's files grouped into units (layouts.h, docs/layouts.md):
// the per-directory steps GroupUnits runs over a whole search, for a caller
// that forms units one directory at a time as a walk lists them
// (discovery_stream.h).
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
  size_t files = 0;  // every file, for a skipped entry
  bool any_named = false;
  bool config_inherited = false;
  bool unit_of_its_own = false;  // modules or shared files (before DirUnits)
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
// incomplete entry), or "" when it is checked.
std::string CacheEntryProblem(const DirGroup& g);

// The units of one directory, before inherited configs; pairing warnings go
// to `warnings`. Takes the files of `g` but its configs (a directory below
// may inherit them). The files of each unit are not sorted yet.
DirUnitList DirUnits(DirGroup& g, std::vector<std::string>* warnings);

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
