// numCoresPerLNC of one unit, resolved in the order of
// docs/reference/rank-model.md §3:
// --lnc, .topolint.json `lnc` (CheckOptions), the .neff header `lnc_size`,
// the compiler flags recorded beside the module (compile_flags.json), the
// component config's `logical_nc_config`; else 1.
#ifndef TOPOLINT_RULES_LNC_RESOLUTION_H_
#define TOPOLINT_RULES_LNC_RESOLUTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/diag/location.h"
#include "checker/model/unit.h"

namespace topolint {

enum class LncOrigin {
  kOption,
  kNeffHeader,
  kCompileFlags,
  kConfig,
  kDefault,
  kNeffGraphs,  // a .neff's graph count (neff-lnc-mismatch only)
};

// One place that states the LNC.
struct LncStatement {
  LncOrigin origin = LncOrigin::kDefault;
  int64_t value = 1;
  // "--lnc", ".topolint.json", "the header lnc_size of model.neff",
  // "the LNC flag in MODULE_x/compile_flags.json",
  // "logical_nc_config in neuron_config.json", "the default".
  std::string source;
  std::optional<Location> loc;  // none for options and the default
  std::string anchor;           // JSON path / field, for fingerprints
};

// Every statement of the unit, in precedence order (the default last).
std::vector<LncStatement> LncStatements(const Unit& unit,
                                        const CheckOptions& options);

// The statement that wins: the first of LncStatements.
LncStatement ResolveLnc(const Unit& unit, const CheckOptions& options);

}  // namespace topolint

#endif  // TOPOLINT_RULES_LNC_RESOLUTION_H_
