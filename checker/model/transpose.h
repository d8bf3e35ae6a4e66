// Array-shape arithmetic shared by the iota and mesh expansions: checked
// products and permutations (the index order of a transposed row-major
// array, which the sharding code needs too, is checker/hlo/transpose.h).
#ifndef TOPOLINT_CHECKER_MODEL_TRANSPOSE_H_
#define TOPOLINT_CHECKER_MODEL_TRANSPOSE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace topolint::model {

// `[2,4,1]`.
std::string DimsToString(absl::Span<const int64_t> dims);

// The product of `dims`, each of which must be >= 1. Fails (InvalidArgument,
// naming `what`) when a dim is not positive, and (ResourceExhausted) when the
// product exceeds `cap` — overflow included — so callers can allocate it.
absl::StatusOr<int64_t> CheckedProduct(absl::Span<const int64_t> dims,
                                       int64_t cap, const std::string& what);

// OK when `perm` is a permutation of [0, rank).
absl::Status CheckPermutation(absl::Span<const int64_t> perm, int64_t rank);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_TRANSPOSE_H_
