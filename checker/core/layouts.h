// Groups classified files into units the way the tools that wrote them lay
// them out (docs/reference/inputs.md, docs/layouts.md): a module with the NEFF
// compiled from it, never with another module's NEFF; a Neuron compile-cache
// entry `MODULE_*/` as one unit (or one skip reason when it failed or is
// incomplete); an NxD bucket `_tp<i>_bk<n>/` with its `model/graph.hlo`; XLA
// dump files by module id; and the nearest component config above each
// unit.
#ifndef TOPOLINT_CHECKER_CORE_LAYOUTS_H_
#define TOPOLINT_CHECKER_CORE_LAYOUTS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_LAYOUTS_H_
