#include "checker/model/transpose.h"

#include <algorithm>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_join.h"
#include "checker/hlo/group_checks.h"
#include "fmt/format.h"

namespace topolint::model {

std::string DimsToString(absl::Span<const int64_t> dims) {
  return fmt::format("[{}]", absl::StrJoin(dims, ","));
}

absl::StatusOr<int64_t> CheckedProduct(absl::Span<const int64_t> dims,
                                       int64_t cap, const std::string& what) {
  for (int64_t d : dims) {
    if (d < 1) {
      return absl::InvalidArgumentError(
          fmt::format("{} {} has a size {}; every size must be at least 1",
                      what, DimsToString(dims), d));
    }
  }
  int64_t product = 1;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(product, d, &product) || product > cap) {
      return absl::ResourceExhaustedError(
          fmt::format("{} {} holds more than {} ids, the most topolint expands",
                      what, DimsToString(dims), cap));
    }
  }
  return product;
}

absl::Status CheckPermutation(absl::Span<const int64_t> perm, int64_t rank) {
  // The one definition of a valid transpose, shared with both HLO front
  // ends (checker/hlo/group_checks.h).
  if (const hlo::SpecCheck p = hlo::CheckPermutation(
          "transpose", perm, static_cast<size_t>(std::max<int64_t>(rank, 0)))) {
    return absl::InvalidArgumentError(p->message);
  }
  return absl::OkStatus();
}

std::vector<int64_t> TransposedIndices(absl::Span<const int64_t> dims,
                                       absl::Span<const int64_t> perm) {
  const size_t rank = dims.size();
  if (rank == 0) return std::vector<int64_t>{0};
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  std::vector<int64_t> out(static_cast<size_t>(total));
  // Row-major strides of the input, then the input stride that each output
  // axis steps by.
  // Scratch on the stack for the usual ranks (iota reshapes have a few
  // dims): four heap blocks per expansion were most of what checking a
  // small unit allocated.
  using Scratch = absl::InlinedVector<int64_t, 8>;
  Scratch in_stride(rank, 1);
  for (size_t i = rank - 1; i > 0; --i) {
    in_stride[i - 1] = in_stride[i] * dims[i];
  }
  Scratch out_dim(rank), step(rank), counter(rank, 0);
  for (size_t j = 0; j < rank; ++j) {
    out_dim[j] = dims[static_cast<size_t>(perm[j])];
    step[j] = in_stride[static_cast<size_t>(perm[j])];
  }
  // Rows of the innermost output axis are written in one tight loop (ids of
  // large groups run to millions); an odometer over the outer axes gives
  // each row's first input index, `offset`.
  const int64_t row_len = out_dim[rank - 1];
  const int64_t row_step = step[rank - 1];
  const int64_t rows = total / row_len;
  int64_t* dst = out.data();
  int64_t offset = 0;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < row_len; ++k) dst[k] = offset + k * row_step;
    dst += row_len;
    if (rank == 1) break;
    size_t j = rank - 2;
    ++counter[j];
    offset += step[j];
    while (counter[j] == out_dim[j] && j > 0) {
      offset -= step[j] * out_dim[j];
      counter[j] = 0;
      --j;
      ++counter[j];
      offset += step[j];
    }
  }
  return out;
}

}  // namespace topolint::model
