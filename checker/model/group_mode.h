// Collective group modes (XLA's CollectiveOpGroupMode): what the ids in a
// collective's replica groups mean, and how many of them there are.
#ifndef TOPOLINT_CHECKER_MODEL_GROUP_MODE_H_
#define TOPOLINT_CHECKER_MODEL_GROUP_MODE_H_

#include <cstdint>
#include <optional>

#include "checker/hlo/hlo_module.h"
#include "checker/model/group_list.h"

namespace topolint::model {

enum class GroupMode {
  kCrossReplica,              // ids are replica ids; the partition is fixed
  kCrossPartition,            // ids are partition ids; the replica is fixed
  kCrossReplicaAndPartition,  // ids are replica ids, spanning all partitions
  kFlattenedId,               // ids are replica_id * P + partition_id
  kInvalid,                   // use_global_device_ids=true without channel_id
};

// "cross_replica", "cross_partition", "cross_replica_and_partition",
// "flattened_id" (XLA 2026-02's CollectiveOpGroupModeToString), "invalid".
const char* ModeName(GroupMode mode);

// XLA's GetCollectiveOpGroupMode(has_channel_id, use_global_device_ids):
//   no channel:   absent/false -> cross_replica, true -> invalid;
//   channel:      absent -> cross_partition, false -> cross_replica_and_
//                 partition, true -> flattened_id.
GroupMode CollectiveOpGroupMode(bool has_channel_id,
                                std::optional<bool> use_global_device_ids);

// True for the opcodes that carry a bool use_global_device_ids (all-reduce,
// all-gather, reduce-scatter and their -start forms); the others (all-to-all,
// ragged-all-to-all, collective-permute, collective-broadcast, send, recv)
// take none and XLA rejects the attribute on them.
bool TakesUseGlobalDeviceIds(hlo::CollectiveKind kind);

// The mode of one instruction, per opcode as XLA decides it:
//  - all-reduce / all-gather / reduce-scatter pass the bool
//    use_global_device_ids (absent = false), so a channel_id gives
//    cross_replica_and_partition, not cross_partition;
//  - all-to-all, ragged-all-to-all, collective-permute, collective-broadcast
//    pass nullopt (a written use_global_device_ids is ignored here; the
//    hlo-group-mode rule reports it). channel_id=0 counts as present;
//  - send / recv (GPU runtime) use `channel_id > 0` and nullopt.
GroupMode GroupModeOf(const hlo::Collective& op);

// How many distinct ids the mode's groups range over: R for cross_replica and
// cross_replica_and_partition (ids are replica ids), P for cross_partition,
// R*P for flattened_id (saturating at INT64_MAX), 1 for invalid. This is the
// n the verifier's count check compares against when it is above 1.
int64_t ParticipantCount(GroupMode mode, int64_t replica_count,
                         int64_t num_partitions);

// XLA's GetSubgroupSize: the number of devices in one group, which shapes are
// checked against. cross_replica: |g0|, or R for an empty list;
// cross_replica_and_partition: that times P; cross_partition: |g0|, or P;
// flattened_id: |g0| (0 for an empty list). Saturates at INT64_MAX.
int64_t SubgroupSize(GroupMode mode, const GroupList& groups,
                     int64_t replica_count, int64_t num_partitions);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_GROUP_MODE_H_
