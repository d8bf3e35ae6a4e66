#include "checker/model/module_params.h"

namespace topolint::model {
namespace {

int64_t Pick(std::optional<int64_t> header, std::optional<int64_t> flag) {
  if (header.has_value() && *header > 1) return *header;
  if (flag.has_value() && *flag >= 1) return *flag;
  return 1;
}

}  // namespace

ModuleParams EffectiveModuleParams(const hlo::Module& module,
                                   std::optional<int64_t> replica_count_flag,
                                   std::optional<int64_t> num_partitions_flag) {
  ModuleParams p;
  p.replica_count = Pick(module.replica_count, replica_count_flag);
  p.num_partitions = Pick(module.num_partitions, num_partitions_flag);
  return p;
}

}  // namespace topolint::model
