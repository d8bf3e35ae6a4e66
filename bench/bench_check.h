// The timed loop shared by the whole-check micro-benchmarks.
#ifndef TOPOLINT_BENCH_BENCH_CHECK_H_
#define TOPOLINT_BENCH_BENCH_CHECK_H_

#include <cstddef>

#include "benchmark/benchmark.h"
#include "checker/model/unit.h"

namespace topolint::bench {

// Runs CheckUnit (default options, every rule) over `unit` once per
// iteration of `state`, sets the items processed to the collectives of
// `unit.hlo_modules[0]`, and returns the number of findings of a run.
// Precondition: `unit` has at least one HLO module.
size_t CheckUnitEachIteration(benchmark::State& state, const Unit& unit);

}  // namespace topolint::bench

#endif  // TOPOLINT_BENCH_BENCH_CHECK_H_
