// The one definition of what makes an iota, mesh or transpose spec valid,
// with its message, for both front ends: the text parser (text/iota_parser.cc,
// text/mesh_parser.cc) and the binary reader (proto/hlo_proto_groups.cc,
// proto/hlo_proto_mesh.cc) read the spec, call these checks, and place the
// problem they return at their own position for `where` (a line and column,
// or the field's byte offset).
#ifndef TOPOLINT_CHECKER_HLO_GROUP_CHECKS_H_
#define TOPOLINT_CHECKER_HLO_GROUP_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "checker/hlo/hlo_module.h"

namespace topolint::hlo {

// What a check found wrong and the part of the spec it is about; `index`
// says which entry for the kinds that name one.
struct SpecProblem {
  enum class Where {
    kValue,           // the whole value
    kIotaShapeEntry,  // [num_groups, group_size]: entry `index`
    kReshapeDims,     // the iota reshape dims, or the mesh device_ids dims
    kReshapeDim,      // one of them, `index`
    kAfterDims,       // just after the reshape dims (a missing `T(`)
    kPerm,            // the transpose `T(...)`
    kPermEntry,       // its entry `index`
    kAxisName,        // mesh axis `index`'s name
    kAxisSize,        // mesh axis `index`'s size
    kDeviceIds,       // the mesh device_ids
    kGroupedAxis,     // the grouped mesh axis being checked
  };
  Where where = Where::kValue;
  size_t index = 0;
  std::string message;
};
using SpecCheck = std::optional<SpecProblem>;

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

// `perm` (the transpose of `what`, e.g. "iota transpose") is a permutation
// of 0..rank-1.
SpecCheck CheckPermutation(std::string_view what,
                           absl::Span<const int64_t> perm, size_t rank);

// An iota spec `[G,S]<=[dims]T(perm)`; `perm_written` says whether a
// transpose was written (required with more than one reshape dim, refused
// with one). The binary reader fills XLA's defaults (reshape [G*S],
// identity transpose) first.
SpecCheck CheckIota(const IotaSpec& iota, bool perm_written);

// Mesh axis `i` of `mesh` against the axes before it; `*devices` is the
// product of their sizes and becomes the product with this one.
SpecCheck CheckMeshAxis(const MeshSpec& mesh, size_t i, int64_t* devices);

// An explicit mesh device_ids list of `count` ids for `devices` devices.
SpecCheck CheckMeshDeviceIdCount(int64_t devices, size_t count);

// Each of `dims` is positive ("{what} dim {i} must be positive").
SpecCheck CheckPositiveDims(std::string_view what,
                            const std::vector<int64_t>& dims);

// Iota mesh device_ids dims (each positive) hold `devices` ids.
SpecCheck CheckMeshDeviceIdsDims(const std::vector<int64_t>& dims,
                                 int64_t devices);

// A grouped axis `ref` of mesh axis `axis` (`sub_axis`: written as
// `name:(pre_size)size`; else `ref.size` is the axis size and pre_size 0)
// against the grouped axes listed before it.
SpecCheck CheckMeshGroupedAxis(const MeshAxisRef& ref, const MeshAxis& axis,
                               bool sub_axis,
                               absl::Span<const MeshAxisRef> before);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_GROUP_CHECKS_H_
