// Groups classified files into units the way the tools that wrote them lay
// them out (docs/reference/inputs.md, docs/layouts.md): a module with the NEFF
// compiled from it, never with another module's NEFF; a Neuron compile-cache
// entry `MODULE_*/` as one unit (or one skip reason when it failed or is
// incomplete); an NxD bucket `_tp<i>_bk<n>/` with its `model/graph.hlo`; XLA
// dump files by module id; and the nearest component config above each
// unit. One directory at a time: the per-directory steps of the walk, which
// forms units as it lists directories (discovery_stream.h), and of the files
// named on the command line (unit_sources.h).
#ifndef TOPOLINT_CHECKER_CORE_LAYOUT_GROUPS_H_
#define TOPOLINT_CHECKER_CORE_LAYOUT_GROUPS_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "checker/core/dir_entries.h"
#include "checker/core/discovery.h"

namespace topolint {

// What a file is to discovery.
enum class FileRole {
  kHlo,           // HLO text or binary module
  kNeff,          // .neff archive
  kDefJson,       // NEFF def.json (by name or content)
  kConfig,        // component config (by name or content)
  kCompileFlags,  // compile_flags.json
  kJson,          // other .json named on the command line (loader decides)
  kCacheMarker,   // model.done, model.log, *.lock: a cache entry's state
  kUnread,        // a kind topolint knows but does not read (an MLIR
                  // module, gzip of HLO text, a .json too large to read):
                  // an unchecked-input finding; `reason` says why
  kNone,          // not an input: `reason` says why
};

struct ClassifiedFile {
  FoundFile file;
  FileRole role = FileRole::kNone;
  std::string reason;  // kNone and kUnread only
  // kConfig known by its content: the document read to know it.
  std::shared_ptr<config::ComponentConfigData> config;
};

// Sets `c->role` (and `reason`) of one file a search found: by its name,
// else by its content (discovery.cc).
void ClassifyFound(ClassifiedFile* c);

// The pairing key of a module or NEFF file name: the name without the HLO
// (`.hlo_module.pb`, `.hlo.pb`, `.hlo`, `.hlo.txt`, `.pb`, `.gz`) or NEFF
// (`.neff`, then an HLO suffix, for transformers-neuronx's `X.pb.neff`)
// suffixes; for XLA dump files (`module_0042.name.stage.txt`), `module_0042`.
std::string PairKey(std::string_view file_name, FileRole role);

// True for an XLA dump file name of the final, after-optimizations module.
bool IsFinalDumpModule(std::string_view file_name);

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
std::string CacheEntryProblem(const DirGroup& g, UncheckedInput::Kind* kind);

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

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_LAYOUT_GROUPS_H_
