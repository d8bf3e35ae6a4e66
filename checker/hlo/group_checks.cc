#include "checker/hlo/group_checks.h"

#include "absl/strings/str_join.h"
#include "checker/hlo/parse_options.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

using Where = SpecProblem::Where;

SpecProblem Problem(Where where, size_t index, std::string message) {
  return SpecProblem{where, index, std::move(message)};
}

}  // namespace

SpecCheck CheckPermutation(std::string_view what,
                           absl::Span<const int64_t> perm, size_t rank) {
  if (perm.size() != rank) {
    return Problem(Where::kPerm, 0,
                   fmt::format("{} T({}) has {} entries but there are {} "
                               "reshape dims; expected a permutation of 0..{}",
                               what, absl::StrJoin(perm, ","), perm.size(),
                               rank, static_cast<int64_t>(rank) - 1));
  }
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < perm.size(); ++i) {
    const int64_t p = perm[i];
    if (p < 0 || p >= static_cast<int64_t>(rank)) {
      return Problem(Where::kPermEntry, i,
                     fmt::format("{} entry {} is out of range; expected a "
                                 "value in [0, {})",
                                 what, p, rank));
    }
    if (seen[static_cast<size_t>(p)]) {
      return Problem(Where::kPermEntry, i,
                     fmt::format("{} T({}) is not a permutation: {} appears "
                                 "twice",
                                 what, absl::StrJoin(perm, ","), p));
    }
    seen[static_cast<size_t>(p)] = true;
  }
  return std::nullopt;
}

SpecCheck CheckPositiveDims(std::string_view what,
                            const std::vector<int64_t>& dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 1) {
      return Problem(Where::kReshapeDim, i,
                     fmt::format("{} dim {} must be positive, found {}", what,
                                 i, dims[i]));
    }
  }
  return std::nullopt;
}

SpecCheck CheckIota(const IotaSpec& iota, bool perm_written) {
  const std::vector<int64_t>& dims = iota.reshape_dims;
  if (dims.empty()) {
    return Problem(Where::kReshapeDims, 0,
                   "expected at least one iota reshape dim, found '[]'");
  }
  const int64_t shape[2] = {iota.num_groups, iota.group_size};
  for (size_t i = 0; i < 2; ++i) {
    if (shape[i] < 1) {
      return Problem(
          Where::kIotaShapeEntry, i,
          fmt::format("iota {} must be positive, found {}",
                      i == 0 ? "num_groups" : "group_size", shape[i]));
    }
  }
  if (SpecCheck p = CheckPositiveDims("iota reshape", dims)) return p;
  if (dims.size() > 1 && !perm_written) {
    return Problem(Where::kAfterDims, 0,
                   fmt::format("expected 'T(' after the iota reshape dims "
                               "[{}]: a transpose is required when there is "
                               "more than one reshape dim",
                               absl::StrJoin(dims, ",")));
  }
  if (dims.size() == 1 && perm_written) {
    return Problem(Where::kPerm, 0,
                   "unexpected 'T(...)' after a single iota reshape dim: a "
                   "transpose is only allowed with more than one reshape dim");
  }
  if (perm_written) {
    if (SpecCheck p =
            CheckPermutation("iota transpose", iota.perm, dims.size()))
      return p;
  }
  int64_t total = 0;
  if (__builtin_mul_overflow(shape[0], shape[1], &total)) {
    return Problem(Where::kValue, 0,
                   fmt::format("iota replica_groups [{},{}] hold more ids "
                               "than fit in 64 bits",
                               shape[0], shape[1]));
  }
  if (total > kMaxExpandedIds) {
    return Problem(Where::kValue, 0,
                   fmt::format("iota replica_groups [{},{}] expand to {} ids, "
                               "more than the limit of {}",
                               shape[0], shape[1], total, kMaxExpandedIds));
  }
  int64_t held = 0;
  if (!CheckedProduct(dims, &held) || held != total) {
    return Problem(
        Where::kReshapeDims, 0,
        fmt::format(
            "iota replica_groups [{},{}] hold {} ids but the reshape "
            "dims [{}] hold {}; expected the same number",
            shape[0], shape[1], total, absl::StrJoin(dims, ","),
            held == 0 ? std::string("more than 2^63") : std::to_string(held)));
  }
  return std::nullopt;
}

SpecCheck CheckMeshAxis(const MeshSpec& mesh, size_t i, int64_t* devices) {
  const MeshAxis& axis = mesh.axes[i];
  if (axis.size < 1) {
    return Problem(Where::kAxisSize, i,
                   fmt::format("mesh axis '{}' must have a positive size, "
                               "found {}",
                               axis.name, axis.size));
  }
  for (size_t j = 0; j < i; ++j) {
    if (mesh.axes[j].name == axis.name) {
      return Problem(
          Where::kAxisName, i,
          fmt::format("mesh axis '{}' is declared twice", axis.name));
    }
  }
  if (__builtin_mul_overflow(*devices, axis.size, devices) ||
      *devices > kMaxExpandedIds) {
    return Problem(Where::kValue, 0,
                   fmt::format("mesh has more devices than the limit of {}",
                               kMaxExpandedIds));
  }
  return std::nullopt;
}

SpecCheck CheckMeshDeviceIdCount(int64_t devices, size_t count) {
  if (static_cast<int64_t>(count) == devices) return std::nullopt;
  return Problem(Where::kDeviceIds, 0,
                 fmt::format("mesh has {} devices but device_ids lists {}; "
                             "expected one id per device",
                             devices, count));
}

SpecCheck CheckMeshDeviceIdsDims(const std::vector<int64_t>& dims,
                                 int64_t devices) {
  int64_t held = 0;
  if (!dims.empty() && CheckedProduct(dims, &held) && held == devices) {
    return std::nullopt;
  }
  return Problem(Where::kReshapeDims, 0,
                 fmt::format("mesh has {} devices but the device_ids dims [{}] "
                             "do not hold {} ids",
                             devices, absl::StrJoin(dims, ","), devices));
}

SpecCheck CheckMeshGroupedAxis(const MeshAxisRef& ref, const MeshAxis& axis,
                               bool sub_axis,
                               absl::Span<const MeshAxisRef> before) {
  if (sub_axis) {
    const std::string text =
        fmt::format("'{}':({}){}", ref.name, ref.pre_size, ref.size);
    if (ref.pre_size < 1 || ref.size < 2) {
      return Problem(Where::kGroupedAxis, 0,
                     fmt::format("sub-axis {} needs pre_size >= 1 and size "
                                 ">= 2",
                                 text));
    }
    int64_t span = 0;
    if (__builtin_mul_overflow(ref.pre_size, ref.size, &span) ||
        axis.size % span != 0 || ref.size >= axis.size) {
      return Problem(Where::kGroupedAxis, 0,
                     fmt::format("sub-axis {} does not divide mesh axis '{}' "
                                 "of size {}; expected pre_size*size to "
                                 "divide the axis size, with size below it",
                                 text, axis.name, axis.size));
    }
  }
  for (const MeshAxisRef& other : before) {
    if (other.name != ref.name) continue;
    // A whole axis overlaps everything of it; sub-axes cover the index
    // intervals [pre, pre*size), multiplicatively.
    const bool overlap = ref.pre_size == 0 || other.pre_size == 0 ||
                         (ref.pre_size * ref.size > other.pre_size &&
                          other.pre_size * other.size > ref.pre_size);
    if (overlap) {
      return Problem(Where::kGroupedAxis, 0,
                     fmt::format("mesh axis '{}' is grouped twice (the "
                                 "grouped axes overlap)",
                                 ref.name));
    }
  }
  return std::nullopt;
}

}  // namespace topolint::hlo
