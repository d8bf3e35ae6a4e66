// The rules (CheckUnit) over units already in memory: a layered SPMD module
// with its def.json and component config, and the large-groups module. This
// isolates the cost of the model and the rules from the parsers'.
#include <string>
#include <vector>

#include "bench/bench_check.h"
#include "bench/bench_inputs.h"
#include "benchmark/benchmark.h"
#include "checker/config/component_config.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/json/json_loader.h"
#include "checker/model/unit.h"
#include "checker/neff/def_json.h"

namespace topolint::bench {
namespace {

Unit MakeUnit(const std::string& hlo, const std::string& def_json,
              const std::string& config) {
  Unit unit;
  unit.directory = "bench";
  unit.hlo_modules.push_back(hlo::ParseHloText(hlo, "bench/model.hlo"));
  json::ParseResult def = json::Parse(def_json);
  unit.def_jsons.push_back(neff::BuildDefJson(def.root, "bench/def.json"));
  if (!config.empty()) {
    json::ParseResult cfg = json::Parse(config);
    unit.configs.push_back(
        config::ComponentConfig{"bench/vllm_config.json", std::move(cfg.root)});
  }
  return unit;
}

void RunCheck(benchmark::State& state, const Unit& unit) {
  const size_t findings = CheckUnitEachIteration(state, unit);
  state.counters["collectives"] =
      static_cast<double>(unit.hlo_modules[0].collectives.size());
  state.counters["findings"] = static_cast<double>(findings);
}

void BM_CheckLayeredUnit(benchmark::State& state) {
  const Unit unit = MakeUnit(MakeLayeredModule(1024, 32), MakeDefJson(1, 32),
                             MakeComponentConfig(32));
  RunCheck(state, unit);
}
BENCHMARK(BM_CheckLayeredUnit)->Unit(benchmark::kMillisecond);

// Thousands of ops over one group of 65536 ids: must stay O(ids) per op.
void BM_CheckLargeGroupUnit(benchmark::State& state) {
  const Unit unit = MakeUnit(MakeLargeGroupModule(256, 65536),
                             MakeDefJson(1, 65536, /*ring=*/false), "");
  RunCheck(state, unit);
}
BENCHMARK(BM_CheckLargeGroupUnit)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace topolint::bench
