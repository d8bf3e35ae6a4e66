// HLO front end: lexing and parsing an in-memory module (throughput in
// bytes/s), and parsing the same module through the file path.
#include <cstdio>
#include <string>

#include "bench/bench_inputs.h"
#include "benchmark/benchmark.h"
#include "checker/hlo/text/hlo_parser.h"

namespace topolint::bench {
namespace {

void BM_ParseLayeredModule(benchmark::State& state) {
  const std::string text =
      MakeLayeredModule(static_cast<int>(state.range(0)), 32);
  size_t collectives = 0;
  for (auto _ : state) {
    hlo::Module m = hlo::ParseHloText(text, "bench.hlo");
    collectives = m.collectives.size();
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text.size()));
  state.counters["collectives"] = static_cast<double>(collectives);
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_ParseLayeredModule)
    ->Arg(64)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond);

void BM_ParseLargeGroups(benchmark::State& state) {
  const std::string text =
      MakeLargeGroupModule(static_cast<int>(state.range(0)), 65536);
  for (auto _ : state) {
    hlo::Module m = hlo::ParseHloText(text, "large.hlo");
    benchmark::DoNotOptimize(m);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0));
}
BENCHMARK(BM_ParseLargeGroups)->Arg(1000)->Unit(benchmark::kMillisecond);

// The file path (bounded windows over a FILE*), page cache warm.
void BM_ParseHloFile(benchmark::State& state) {
  const std::string text = MakeLayeredModule(1024, 32);
  char path[] = "/tmp/topolint_bench_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    state.SkipWithError("mkstemp failed");
    return;
  }
  std::FILE* f = fdopen(fd, "wb");
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  for (auto _ : state) {
    hlo::Module m;
    absl::Status st = hlo::ParseHloFile(path, "bench.hlo", &m);
    if (!st.ok()) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(m);
  }
  std::remove(path);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_ParseHloFile)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace topolint::bench
