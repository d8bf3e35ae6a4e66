// checker/json + checker/neff: parsing a large def.json into located values
// and building the CCInfo model from it; and the streaming def.json reader
// (neff::ParseDefJson), which reads replica_groups without the tree.
#include <memory>
#include <string>
#include <utility>

#include "bench/bench_inputs.h"
#include "benchmark/benchmark.h"
#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"

namespace topolint::bench {
namespace {

void BM_JsonParseDefJson(benchmark::State& state) {
  const std::string text = MakeDefJson(state.range(0), state.range(1));
  for (auto _ : state) {
    json::ParseResult r = json::Parse(text);
    if (!r.ok) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text.size()));
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_JsonParseDefJson)
    ->Args({4, 8})
    ->Args({1, 65536})
    ->Args({2048, 32})
    ->Unit(benchmark::kMillisecond);

void BM_BuildDefJson(benchmark::State& state) {
  const std::string text = MakeDefJson(state.range(0), state.range(1));
  const json::ParseResult r = json::Parse(text);
  if (!r.ok) {
    state.SkipWithError("parse failed");
    return;
  }
  for (auto _ : state) {
    neff::DefJson d = neff::BuildDefJson(r.root, "def.json");
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0) * state.range(1));
}
BENCHMARK(BM_BuildDefJson)
    ->Args({1, 65536})
    ->Args({2048, 32})
    ->Unit(benchmark::kMillisecond);

// What `topolint check` does with a def.json: the streaming reader, then
// BuildDefJson. Compare with BM_JsonParseDefJson + BM_BuildDefJson.
void BM_StreamDefJson(benchmark::State& state) {
  // A million ranks leave no room for a million pairs within
  // json::kMaxValueCount: the ring is left out there.
  const int64_t ranks = state.range(0) * state.range(1);
  const auto text = std::make_shared<const std::string>(
      MakeDefJson(state.range(0), state.range(1), ranks <= 65536));
  for (auto _ : state) {
    neff::DefJsonDocument doc = neff::ParseDefJson(text);
    if (!doc.streamed) state.SkipWithError("not streamed");
    neff::DefJson d = neff::BuildDefJson(std::move(doc), "def.json");
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text->size()));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0) * state.range(1));
}
BENCHMARK(BM_StreamDefJson)
    ->Args({4, 8})
    ->Args({1, 65536})
    ->Args({2048, 32})
    ->Args({1000, 1000})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace topolint::bench
