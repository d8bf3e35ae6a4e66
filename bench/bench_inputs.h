// In-memory inputs for the micro-benchmarks: HLO text shaped like a
// partitioned LLM module (the same kinds of lines bench/gen_hlo.py writes,
// in fewer varieties) and NEFF def.json documents of a chosen size.
// Deterministic: equal arguments give equal bytes.
#ifndef TOPOLINT_BENCH_BENCH_INPUTS_H_
#define TOPOLINT_BENCH_BENCH_INPUTS_H_

#include <cstdint>
#include <string>

namespace topolint::bench {

// An SPMD module (`num_partitions=tp`) of `layers` decoder layers. Each layer
// holds a fused computation, ~25 instructions with metadata and
// backend_config, and 6 collectives: an async all-gather-start/done pair, a
// reduce-scatter, an all-gather written without operand shapes, a tuple
// all-reduce and a collective-permute-start/done, with iota and explicit
// replica groups that all expand to the single group {0..tp-1}.
// Preconditions: layers >= 1, tp >= 2 and even.
std::string MakeLayeredModule(int layers, int tp);

// A module of `ops` all-reduces over one group of `devices` ids
// (`replica_groups=[1,devices]<=[devices]`).
std::string MakeLargeGroupModule(int ops, int64_t devices);

// A def.json whose CCInfo has one topology of `groups` groups of
// `group_size` consecutive ranks, a ring of src_target_pairs over all ranks
// (when `ring` is set), and `#rank_world_size`, pretty-printed one rank per
// line (as the Neuron compiler writes it).
std::string MakeDefJson(int64_t groups, int64_t group_size, bool ring = true);

// A vLLM component configuration: tensor_parallel_size `tp`, data parallel
// size 1, every component DP size 1.
std::string MakeComponentConfig(int tp);

}  // namespace topolint::bench

#endif  // TOPOLINT_BENCH_BENCH_INPUTS_H_
