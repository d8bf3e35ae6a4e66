// checker/model: iota and mesh expansion, flattening, and the group checks'
// building blocks on very large groups (the [1,65536]<=[65536] case).
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/flattened_groups.h"
#include "checker/model/group_list.h"
#include "checker/model/replica_groups.h"

namespace topolint::bench {
namespace {

hlo::IotaSpec Iota(int64_t g, int64_t s, std::vector<int64_t> dims,
                   std::vector<int64_t> perm) {
  hlo::IotaSpec spec;
  spec.num_groups = g;
  spec.group_size = s;
  spec.reshape_dims = std::move(dims);
  spec.perm = std::move(perm);
  return spec;
}

void RunIota(benchmark::State& state, const hlo::IotaSpec& spec) {
  for (auto _ : state) {
    absl::StatusOr<model::GroupList> g = model::ExpandIota(spec);
    if (!g.ok()) state.SkipWithError("expansion failed");
    benchmark::DoNotOptimize(g);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          spec.num_groups * spec.group_size);
}

void BM_ExpandIotaSmall(benchmark::State& state) {
  RunIota(state, Iota(4, 8, {32}, {}));
}
BENCHMARK(BM_ExpandIotaSmall);

void BM_ExpandIotaTransposedSmall(benchmark::State& state) {
  RunIota(state, Iota(8, 4, {4, 8}, {1, 0}));
}
BENCHMARK(BM_ExpandIotaTransposedSmall);

void BM_ExpandIotaOneLargeGroup(benchmark::State& state) {
  RunIota(state, Iota(1, 65536, {65536}, {}));
}
BENCHMARK(BM_ExpandIotaOneLargeGroup);

void BM_ExpandIotaTransposedLarge(benchmark::State& state) {
  RunIota(state, Iota(256, 256, {256, 256}, {1, 0}));
}
BENCHMARK(BM_ExpandIotaTransposedLarge);

void BM_ExpandIotaRank4Large(benchmark::State& state) {
  RunIota(state, Iota(64, 1024, {16, 16, 16, 16}, {3, 1, 2, 0}));
}
BENCHMARK(BM_ExpandIotaRank4Large);

void BM_ExpandMesh(benchmark::State& state) {
  hlo::MeshSpec mesh;
  mesh.axes = {{"data", 64}, {"fsdp", 32}, {"tensor", 32}};
  mesh.grouped = {{"tensor", 0, 0}, {"data", 0, 0}};
  for (auto _ : state) {
    absl::StatusOr<model::GroupList> g = model::ExpandMesh(mesh);
    if (!g.ok()) state.SkipWithError("expansion failed");
    benchmark::DoNotOptimize(g);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 65536);
}
BENCHMARK(BM_ExpandMesh);

void BM_FlattenCrossReplicaAndPartition(benchmark::State& state) {
  model::GroupList groups = *model::ExpandIota(Iota(64, 64, {4096}, {}));
  for (auto _ : state) {
    absl::StatusOr<model::GroupList> f =
        model::GetParticipatingFlattenedIdGroups(
            groups, model::GroupMode::kCrossReplicaAndPartition, 4096, 16);
    if (!f.ok()) state.SkipWithError("flattening failed");
    benchmark::DoNotOptimize(f);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 65536);
}
BENCHMARK(BM_FlattenCrossReplicaAndPartition);

void BM_GroupListEquality(benchmark::State& state) {
  const model::GroupList a = *model::ExpandIota(Iota(1, 65536, {65536}, {}));
  const model::GroupList b =
      *model::ExpandIota(Iota(1, 65536, {256, 256}, {0, 1}));
  for (auto _ : state) {
    bool eq = a == b;
    benchmark::DoNotOptimize(eq);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 65536);
}
BENCHMARK(BM_GroupListEquality);

}  // namespace
}  // namespace topolint::bench
