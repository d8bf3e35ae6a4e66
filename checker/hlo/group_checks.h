// Arithmetic both front ends apply to a replica-group spec before they
// trust it (the text parser's iota and mesh values, the binary reader's
// IotaReplicaGroupListProto and MeshProto).
#ifndef TOPOLINT_CHECKER_HLO_GROUP_CHECKS_H_
#define TOPOLINT_CHECKER_HLO_GROUP_CHECKS_H_

#include <cstdint>
#include <vector>

namespace topolint::hlo {

// Product of `dims` with overflow detection; false on overflow.
[[nodiscard]] inline bool CheckedProduct(const std::vector<int64_t>& dims,
                                         int64_t* product) {
  int64_t p = 1;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(p, d, &p)) return false;
  }
  *product = p;
  return true;
}

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_GROUP_CHECKS_H_
