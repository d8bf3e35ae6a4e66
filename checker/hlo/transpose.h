// The index order of a transposed row-major array: what an iota
// `arange(n).reshape(d).transpose(p).flatten()` expands to. The one
// implementation, for the replica-group and mesh expansions (checker/model)
// and the device lists of shardings (checker/hlo/sharding).
#ifndef TOPOLINT_CHECKER_HLO_TRANSPOSE_H_
#define TOPOLINT_CHECKER_HLO_TRANSPOSE_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace topolint::hlo {

// For a row-major array of shape `dims` transposed by `perm` (output axis j is
// input axis perm[j]), the input linear index of each output element, in
// output row-major order. So TransposedIndices(d, p) is
// `arange(prod d).reshape(d).transpose(p).flatten()`.
// Preconditions: every dim is at least 1 and their product can be
// allocated (model::CheckedProduct checks both); `perm` is a permutation of
// [0, dims.size()) (CheckPermutation, group_checks.h). O(prod dims).
std::vector<int64_t> TransposedIndices(absl::Span<const int64_t> dims,
                                       absl::Span<const int64_t> perm);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TRANSPOSE_H_
