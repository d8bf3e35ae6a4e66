#include "checker/hlo/transpose.h"

#include "absl/container/inlined_vector.h"

namespace topolint::hlo {

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

}  // namespace topolint::hlo
