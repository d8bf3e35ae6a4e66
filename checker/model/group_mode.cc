#include "checker/model/group_mode.h"

#include <limits>

namespace topolint::model {
namespace {

int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) {
    return std::numeric_limits<int64_t>::max();
  }
  return out;
}

}  // namespace

const char* ModeName(GroupMode mode) {
  switch (mode) {
    case GroupMode::kCrossReplica:
      return "cross_replica";
    case GroupMode::kCrossPartition:
      return "cross_partition";
    case GroupMode::kCrossReplicaAndPartition:
      return "cross_replica_and_partition";
    case GroupMode::kFlattenedId:
      return "flattened_id";
    case GroupMode::kInvalid:
      return "invalid";
  }
  return "invalid";
}

GroupMode CollectiveOpGroupMode(bool has_channel_id,
                                std::optional<bool> use_global_device_ids) {
  if (!has_channel_id) {
    return use_global_device_ids.value_or(false) ? GroupMode::kInvalid
                                                 : GroupMode::kCrossReplica;
  }
  if (!use_global_device_ids.has_value()) return GroupMode::kCrossPartition;
  return *use_global_device_ids ? GroupMode::kFlattenedId
                                : GroupMode::kCrossReplicaAndPartition;
}

bool TakesUseGlobalDeviceIds(hlo::CollectiveKind kind) {
  switch (kind) {
    case hlo::CollectiveKind::kAllReduce:
    case hlo::CollectiveKind::kAllGather:
    case hlo::CollectiveKind::kReduceScatter:
      return true;
    case hlo::CollectiveKind::kAllToAll:
    case hlo::CollectiveKind::kRaggedAllToAll:
    case hlo::CollectiveKind::kCollectivePermute:
    case hlo::CollectiveKind::kCollectiveBroadcast:
    case hlo::CollectiveKind::kSend:
    case hlo::CollectiveKind::kRecv:
      return false;
  }
  return false;
}

GroupMode GroupModeOf(const hlo::Collective& op) {
  if (op.kind == hlo::CollectiveKind::kSend ||
      op.kind == hlo::CollectiveKind::kRecv) {
    return CollectiveOpGroupMode(op.has_channel_id && op.channel_id > 0,
                                 std::nullopt);
  }
  if (TakesUseGlobalDeviceIds(op.kind)) {
    return CollectiveOpGroupMode(
        op.has_channel_id,
        op.has_use_global_device_ids && op.use_global_device_ids);
  }
  return CollectiveOpGroupMode(op.has_channel_id, std::nullopt);
}

int64_t ParticipantCount(GroupMode mode, int64_t replica_count,
                         int64_t num_partitions) {
  switch (mode) {
    case GroupMode::kCrossReplica:
    case GroupMode::kCrossReplicaAndPartition:
      return replica_count;
    case GroupMode::kCrossPartition:
      return num_partitions;
    case GroupMode::kFlattenedId:
      return SaturatingMul(replica_count, num_partitions);
    case GroupMode::kInvalid:
      return 1;
  }
  return 1;
}

int64_t SubgroupSize(GroupMode mode, const GroupList& groups,
                     int64_t replica_count, int64_t num_partitions) {
  const int64_t first = groups.empty() ? -1 : groups.group_size(0);
  switch (mode) {
    case GroupMode::kCrossReplica:
      return first >= 0 ? first : replica_count;
    case GroupMode::kCrossReplicaAndPartition:
      return SaturatingMul(first >= 0 ? first : replica_count, num_partitions);
    case GroupMode::kCrossPartition:
      return first >= 0 ? first : num_partitions;
    case GroupMode::kFlattenedId:
      return first >= 0 ? first : 0;
    case GroupMode::kInvalid:
      return first >= 0 ? first : 1;
  }
  return 1;
}

}  // namespace topolint::model
