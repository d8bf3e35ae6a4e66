// The LNC rank map: physical core -> rank.
#ifndef TOPOLINT_CHECKER_MODEL_RANK_MAP_H_
#define TOPOLINT_CHECKER_MODEL_RANK_MAP_H_

#include <cstdint>

namespace topolint::model {

// rank = physical_core / numCoresPerLNC. Preconditions: core >= 0, lnc >= 1.
inline int64_t RankOfCore(int64_t core, int64_t lnc) { return core / lnc; }

// Number of ranks that `num_cores` physical cores provide at `lnc`.
inline int64_t RanksOfCores(int64_t num_cores, int64_t lnc) {
  return num_cores / lnc;
}

// The physical cores [*first, *last] of `rank` at `lnc` (>= 1). False when
// they lie beyond int64 (a rank near INT64_MAX from hostile input).
inline bool CoresOfRank(int64_t rank, int64_t lnc, int64_t* first,
                        int64_t* last) {
  return !__builtin_mul_overflow(rank, lnc, first) &&
         !__builtin_add_overflow(*first, lnc - 1, last);
}

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_RANK_MAP_H_
