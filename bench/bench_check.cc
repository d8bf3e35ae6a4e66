#include "bench/bench_check.h"

#include <cstdint>
#include <vector>

#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"

namespace topolint::bench {

size_t CheckUnitEachIteration(benchmark::State& state, const Unit& unit) {
  const RuleSelection selection;
  const CheckOptions options;
  size_t findings = 0;
  for (auto _ : state) {
    std::vector<Finding> f = CheckUnit(unit, options, selection);
    findings = f.size();
    benchmark::DoNotOptimize(f);
  }
  const size_t ops = unit.hlo_modules[0].collectives.size();
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(ops));
  return findings;
}

}  // namespace topolint::bench
