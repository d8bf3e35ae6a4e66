// Expansion of an HLO `replica_groups=` value (explicit, iota or mesh form)
// into the explicit 2-D group list XLA's `replica_groups()` returns.
//
// Every function is pure, O(number of ids), and bounded: a value that would
// expand to more than `cap` ids (default kMaxExpandedIds = 2^21) is refused
// with a ResourceExhausted status before anything of that size is allocated.
// A value that does not describe a valid list (sizes that disagree, a
// transpose that is not a permutation, an unknown mesh axis, ...) gives an
// InvalidArgument status whose message says what is wrong and what was
// expected, suitable for a finding.
#ifndef TOPOLINT_CHECKER_MODEL_REPLICA_GROUPS_H_
#define TOPOLINT_CHECKER_MODEL_REPLICA_GROUPS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/group_list.h"

namespace topolint::model {

// `[G,S]<=[d...]T(p...)`: arange(prod d).reshape(d).transpose(p), read as G
// groups of S ids (XLA's IotaTileAssignment::ToArray). An empty perm means
// the identity. Requires every size >= 1, G*S == prod(d), and p a permutation
// of the reshape axes. Examples: `[4,2]<=[2,4]T(1,0)` -> {0,4},{1,5},{2,6},
// {3,7}; `[2,4]<=[8]` -> {0,1,2,3},{4,5,6,7}.
absl::StatusOr<GroupList> ExpandIota(const hlo::IotaSpec& iota,
                                     int64_t cap = kMaxExpandedIds);

// `mesh[a=A,b=B,...][, device_ids=(...)] {refs}` (XLA's
// MeshAxesReplicaGroupList::flattened_replica_groups):
//  1. the device array is `device_ids` (explicit, or an iota `[dims]T(perm)`),
//     else arange(A*B*...), reshaped to the axis sizes;
//  2. a sub-axis ref `a:(pre)size` splits axis a (size N) into
//     [pre, size, N/(pre*size)] and selects the middle part (several
//     non-overlapping sub-axes of one axis are allowed); a plain ref `a`
//     selects the whole axis;
//  3. the unselected parts come first in axis order, then the selected ones
//     in the order listed; the result is cut into groups of the product of the
//     selected sizes.
// Example: mesh[x=2,y=2] {x} -> {0,2},{1,3}; {y} -> {0,1},{2,3}.
absl::StatusOr<GroupList> ExpandMesh(const hlo::MeshSpec& mesh,
                                     int64_t cap = kMaxExpandedIds);

// Any form. kAbsent gives the empty list (no groups); kExplicit gives the
// groups as written, sharing the instruction's ids rather than copying them
// (GroupList::Shared; empty groups and any ids kept: validity is the rules'
// business); kIota / kMesh expand as above.
absl::StatusOr<GroupList> ExpandReplicaGroups(const hlo::ReplicaGroups& groups,
                                              int64_t cap = kMaxExpandedIds);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_REPLICA_GROUPS_H_
