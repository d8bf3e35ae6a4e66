#include "checker/model/transpose.h"

#include <algorithm>

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

}  // namespace topolint::model
