// Array-shape arithmetic shared by the iota and mesh expansions: checked
// products and the index order of a transposed row-major array.
#ifndef TOPOLINT_CHECKER_MODEL_TRANSPOSE_H_
#define TOPOLINT_CHECKER_MODEL_TRANSPOSE_H_

#include <cstdint>
#include <string>
#include <vector>

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

// For a row-major array of shape `dims` transposed by `perm` (output axis j is
// input axis perm[j]), the input linear index of each output element, in
// output row-major order. So TransposedIndices(d, p) is
// `arange(prod d).reshape(d).transpose(p).flatten()`.
// Preconditions: CheckedProduct(dims) succeeded, CheckPermutation(perm,
// dims.size()) is OK. O(prod dims).
std::vector<int64_t> TransposedIndices(absl::Span<const int64_t> dims,
                                       absl::Span<const int64_t> perm);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_TRANSPOSE_H_
