// A unit: the files checked together (one HLO module, its def.json / .neff,
// its component config), normally the recognised files of one directory.
#ifndef TOPOLINT_CHECKER_MODEL_UNIT_H_
#define TOPOLINT_CHECKER_MODEL_UNIT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/config/compile_flags.h"
#include "checker/config/component_config.h"
#include "checker/diag/location.h"
#include "checker/hlo/hlo_module.h"
#include "checker/neff/def_json.h"
#include "checker/neff/neff_archive.h"

namespace topolint {

// A JSON input that did not parse (reported as `json-syntax`).
struct JsonSyntaxProblem {
  Location loc;
  std::string message;
};

// An input, or a check the user expects, that discovery left out: reported
// as an `unchecked-input` finding at `path` (docs/rules/unchecked-input.md),
// so that every output format shows it and a gate can fail on it.
struct UncheckedInput {
  enum class Kind {
    kCacheInProgress,  // a compile-cache entry still compiling (a note)
    kCacheIncomplete,  // an entry without model.done (a note)
    kCacheFailed,      // an entry whose compilation failed (a warning)
    kUnpaired,         // modules and NEFFs the names cannot pair: the
                       // cross-file rules did not run (a warning)
    kUnread,           // a file of a kind topolint knows but does not read
                       // (a warning)
    kNotSearched,      // a directory (or path) the search could not enter:
                       // it cannot be read, it is deeper than the depth
                       // limit, or its path is longer than PATH_MAX; what is
                       // below it was not checked (a warning)
  };
  Kind kind = Kind::kUnread;
  std::string path;     // the file or directory left out (display)
  std::string message;  // what was left out, and why
};

struct Unit {
  std::string directory;  // the directory the unit stands for (display)
  std::vector<hlo::Module> hlo_modules;
  std::vector<neff::DefJson> def_jsons;  // loose def.json files
  std::vector<neff::NeffArchive> neff_archives;
  std::vector<config::ComponentConfig> configs;
  // compile_flags.json of a compile-cache entry: an LNC source
  // (docs/reference/rank-model.md §3, rules/lnc_resolution.h); a malformed one
  // is a config-schema finding.
  std::vector<config::CompileFlags> compile_flags;
  std::vector<JsonSyntaxProblem> json_syntax;
  // What discovery left out and this unit reports (UnitSpec::unchecked).
  std::vector<UncheckedInput> unchecked;
};

// Calls `f` with every def.json of `unit`: the loose ones, then the graphs of
// each .neff archive, in order.
template <typename F>
void ForEachDefJson(const Unit& unit, const F& f) {
  for (const neff::DefJson& d : unit.def_jsons) f(d);
  for (const neff::NeffArchive& a : unit.neff_archives) {
    for (const neff::DefJson& d : a.graphs) f(d);
  }
}

// Settings that change what the rules compute (not which rules run).
struct CheckOptions {
  int64_t lnc = 1;                        // numCoresPerLNC (--lnc)
  bool lnc_given = false;                 // --lnc or config file `lnc` set it
  std::string lnc_origin;                 // "--lnc" / ".topolint.json"
  std::optional<int64_t> num_cores;       // --num-cores
  std::optional<int64_t> replica_count;   // --replica-count (header wins)
  std::optional<int64_t> num_partitions;  // --num-partitions (header wins)
  // vLLM data-parallel size for configs that do not record it (an
  // `--additional-config` JSON alone): --data-parallel-size or
  // .topolint.json "data_parallel_size"; a data_parallel_size written in the
  // config wins. `data_parallel_size_origin` names the source for messages.
  std::optional<int64_t> data_parallel_size;
  std::string data_parallel_size_origin;
  // Findings shown per rule and unit (--max-findings, .topolint.json
  // "max_findings"); 0 shows all. The rest are counted in one cap note.
  int64_t max_findings = 1000;
  // The compiler's --target when `topolint exec` checks its input and
  // output (lnc-core-count; rules/lnc_core_count.h): it wins over a
  // compile_flags.json. `target_origin` names it for messages.
  std::string target;
  std::string target_origin;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_MODEL_UNIT_H_
