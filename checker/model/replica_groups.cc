#include "checker/model/replica_groups.h"

#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "checker/hlo/transpose.h"
#include "checker/model/transpose.h"
#include "fmt/format.h"

namespace topolint::model {
namespace {

std::string IotaToString(const hlo::IotaSpec& iota) {
  std::string s = fmt::format("[{},{}]<={}", iota.num_groups, iota.group_size,
                              DimsToString(iota.reshape_dims));
  if (!iota.perm.empty()) {
    s += fmt::format("T({})", absl::StrJoin(iota.perm, ","));
  }
  return s;
}

}  // namespace

absl::StatusOr<GroupList> ExpandIota(const hlo::IotaSpec& iota, int64_t cap) {
  const std::string what = fmt::format("iota {}", IotaToString(iota));
  const int64_t lead[] = {iota.num_groups, iota.group_size};
  absl::StatusOr<int64_t> listed = CheckedProduct(lead, cap, what + " shape");
  if (!listed.ok()) return listed.status();
  absl::StatusOr<int64_t> held =
      CheckedProduct(iota.reshape_dims, cap, what + " reshape dims");
  if (!held.ok()) return held.status();
  if (*listed != *held) {
    return absl::InvalidArgumentError(fmt::format(
        "{} describes {} groups of {} ({} ids) but its reshape dims {} hold {} "
        "ids; expected G*S to equal their product",
        what, iota.num_groups, iota.group_size, *listed,
        DimsToString(iota.reshape_dims), *held));
  }
  const int64_t rank = static_cast<int64_t>(iota.reshape_dims.size());
  std::vector<int64_t> perm = iota.perm;
  if (perm.empty()) {
    perm.resize(static_cast<size_t>(rank));
    std::iota(perm.begin(), perm.end(), 0);
  }
  if (absl::Status s = CheckPermutation(perm, rank); !s.ok()) {
    return absl::InvalidArgumentError(
        fmt::format("{}: {}", what, std::string(s.message())));
  }
  return GroupList::Uniform(iota.num_groups, iota.group_size,
                            hlo::TransposedIndices(iota.reshape_dims, perm));
}

absl::StatusOr<GroupList> ExpandReplicaGroups(const hlo::ReplicaGroups& groups,
                                              int64_t cap) {
  switch (groups.form) {
    case hlo::ReplicaGroups::Form::kAbsent:
      return GroupList();
    case hlo::ReplicaGroups::Form::kExplicit: {
      const size_t total = groups.ids().size();
      if (total > static_cast<size_t>(cap)) {
        return absl::ResourceExhaustedError(fmt::format(
            "replica groups list {} ids, more than the {} topolint expands",
            total, cap));
      }
      // The written ids are shared, not copied.
      return GroupList::Shared(groups.SharedIds(), groups.group_ends);
    }
    case hlo::ReplicaGroups::Form::kIota:
      return ExpandIota(groups.iota, cap);
    case hlo::ReplicaGroups::Form::kMesh:
      return ExpandMesh(groups.mesh, cap);
  }
  return absl::InternalError("unknown replica_groups form");
}

}  // namespace topolint::model
