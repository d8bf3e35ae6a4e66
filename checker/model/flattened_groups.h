// Every group mode's replica groups as groups of global (flattened) device
// ids `replica_id * P + partition_id` in [0, R*P): the form a NEFF rank and a
// cross-file check compare against.
#ifndef TOPOLINT_CHECKER_MODEL_FLATTENED_GROUPS_H_
#define TOPOLINT_CHECKER_MODEL_FLATTENED_GROUPS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/group_list.h"
#include "checker/model/group_mode.h"
#include "checker/model/module_params.h"

namespace topolint::model {

// XLA's GetParticipatingFlattenedIdGroups(groups, mode, R, P), same group
// order:
//  - cross_replica: for each group g, for each p in [0,P): {r*P+p : r in g}
//    (an empty list stands for the one group {0..R-1});
//  - cross_partition: for each group g, for each r in [0,R): {r*P+p : p in g}
//    (empty list: {0..P-1});
//  - cross_replica_and_partition: for each group g, {r*P+p : r in g, p in
//    [0,P)}, r-major (empty list: {0..R-1});
//  - flattened_id: the groups as written.
// Fails (InvalidArgument) for the invalid mode, an empty list in flattened-id
// mode, R or P below 1, or an id outside the mode's id space ([0,R), [0,P) or
// [0,R*P)) — i.e. run it on groups the hlo-* rules accept. Fails
// (ResourceExhausted) when the result would exceed `cap` ids.
absl::StatusOr<GroupList> GetParticipatingFlattenedIdGroups(
    const GroupList& groups, GroupMode mode, int64_t replica_count,
    int64_t num_partitions, int64_t cap = kMaxExpandedIds);

// Convenience for one instruction: ExpandReplicaGroups + GroupModeOf + the
// function above.
absl::StatusOr<GroupList> FlattenedIdGroupsOf(const hlo::Collective& op,
                                              const ModuleParams& params,
                                              int64_t cap = kMaxExpandedIds);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_FLATTENED_GROUPS_H_
