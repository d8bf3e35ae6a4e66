// The replica and partition counts a module is checked with.
#ifndef TOPOLINT_CHECKER_MODEL_MODULE_PARAMS_H_
#define TOPOLINT_CHECKER_MODEL_MODULE_PARAMS_H_

#include <cstdint>
#include <optional>

#include "checker/hlo/hlo_module.h"

namespace topolint::model {

struct ModuleParams {
  int64_t replica_count = 1;   // R, always >= 1
  int64_t num_partitions = 1;  // P, always >= 1
};

// R and P for `module`: the HloModule header value, else the flag
// (--replica-count / --num-partitions, i.e. CheckOptions), else 1.
// As in XLA, a header value of 1 does not override the caller's setting (XLA
// applies header counts to the module config only when they are not 1), and
// values below 1 are ignored wherever they come from.
ModuleParams EffectiveModuleParams(const hlo::Module& module,
                                   std::optional<int64_t> replica_count_flag,
                                   std::optional<int64_t> num_partitions_flag);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_MODULE_PARAMS_H_
