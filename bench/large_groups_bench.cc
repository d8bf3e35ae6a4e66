// Modules whose collectives all have very large groups
// (`replica_groups=[1,65536]<=[65536]` and other spellings of 65,536 ids):
// the cost per op of expansion, uniqueness, coverage and geometry checks.
// Identical lists share one expansion (model::ExpansionCache), so an op costs
// O(1) after the first; distinct lists cost O(ids) each, up to the module's
// expansion budget (2^24 ids = 256 lists of 65,536).
#include <string>
#include <vector>

#include "bench/bench_check.h"
#include "benchmark/benchmark.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/model/unit.h"
#include "fmt/format.h"

namespace topolint::bench {
namespace {

constexpr int64_t kIds = 65536;

// `count` distinct spellings of one group of 65,536 ids:
// [1,65536]<=[a,b,c]T(perm) over every split a*b*c = 2^16 and every perm.
std::vector<std::string> DistinctLists(int64_t count) {
  static const int kPerms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<std::string> out;
  for (int i = 0; i <= 16 && static_cast<int64_t>(out.size()) < count; ++i) {
    for (int j = 0; i + j <= 16; ++j) {
      const int64_t d[3] = {int64_t{1} << i, int64_t{1} << j,
                            int64_t{1} << (16 - i - j)};
      for (const auto& p : kPerms) {
        if (static_cast<int64_t>(out.size()) == count) return out;
        out.push_back(fmt::format("[1,{}]<=[{},{},{}]T({},{},{})", kIds, d[0],
                                  d[1], d[2], p[0], p[1], p[2]));
      }
    }
  }
  return out;
}

std::string Module(const std::vector<std::string>& lists) {
  std::string hlo = fmt::format(
      "HloModule m, replica_count=1, num_partitions={}\n"
      "ENTRY %main (p: f32[8]) -> f32[8] {{\n"
      "  %p = f32[8]{{0}} parameter(0)\n",
      kIds);
  for (size_t i = 0; i < lists.size(); ++i) {
    hlo += fmt::format(
        "  %ar{} = f32[8]{{0}} all-reduce(%p), channel_id=1, "
        "replica_groups={}, use_global_device_ids=true, to_apply=%add\n",
        i, lists[i]);
  }
  return hlo + "  ROOT %t = () tuple()\n}\n";
}

void RunCheck(benchmark::State& state, const std::vector<std::string>& lists) {
  Unit unit;
  unit.directory = "bench";
  unit.hlo_modules.push_back(hlo::ParseHloText(Module(lists), "model.hlo"));
  const size_t findings = CheckUnitEachIteration(state, unit);
  const int64_t ops = static_cast<int64_t>(lists.size());
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["findings"] = static_cast<double>(findings);
  // Seconds per op (printed as e.g. "12.3us").
  state.counters["per_op"] = benchmark::Counter(
      static_cast<double>(ops), benchmark::Counter::kIsIterationInvariantRate |
                                    benchmark::Counter::kInvert);
}

// N ops sharing `[1,65536]<=[65536]`.
void BM_IdenticalLargeGroups(benchmark::State& state) {
  const std::vector<std::string> lists(static_cast<size_t>(state.range(0)),
                                       fmt::format("[1,{}]<=[{}]", kIds, kIds));
  RunCheck(state, lists);
}
BENCHMARK(BM_IdenticalLargeGroups)
    ->Arg(1)
    ->Arg(256)
    ->Arg(4096)
    ->Unit(benchmark::kMillisecond);

// N ops with N distinct lists of 65,536 ids (beyond 256 the module's
// expansion budget is spent and later ops get an hlo-syntax finding).
void BM_DistinctLargeGroups(benchmark::State& state) {
  RunCheck(state, DistinctLists(state.range(0)));
}
BENCHMARK(BM_DistinctLargeGroups)
    ->Arg(16)
    ->Arg(256)
    ->Arg(900)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace topolint::bench
