#include "checker/model/group_mode.h"

#include <cstdint>
#include <limits>
#include <optional>

#include "gtest/gtest.h"

namespace topolint::model {
namespace {

using hlo::CollectiveKind;

TEST(GroupModeTest, GetCollectiveOpGroupModeTable) {
  EXPECT_EQ(CollectiveOpGroupMode(false, std::nullopt),
            GroupMode::kCrossReplica);
  EXPECT_EQ(CollectiveOpGroupMode(false, false), GroupMode::kCrossReplica);
  EXPECT_EQ(CollectiveOpGroupMode(false, true), GroupMode::kInvalid);
  EXPECT_EQ(CollectiveOpGroupMode(true, std::nullopt),
            GroupMode::kCrossPartition);
  EXPECT_EQ(CollectiveOpGroupMode(true, false),
            GroupMode::kCrossReplicaAndPartition);
  EXPECT_EQ(CollectiveOpGroupMode(true, true), GroupMode::kFlattenedId);
}

TEST(GroupModeTest, ModeNamesMatchXla2026) {
  EXPECT_STREQ(ModeName(GroupMode::kCrossReplica), "cross_replica");
  EXPECT_STREQ(ModeName(GroupMode::kCrossPartition), "cross_partition");
  EXPECT_STREQ(ModeName(GroupMode::kCrossReplicaAndPartition),
               "cross_replica_and_partition");
  EXPECT_STREQ(ModeName(GroupMode::kFlattenedId), "flattened_id");
}

hlo::Collective Op(CollectiveKind kind, bool channel, int64_t channel_id = 1,
                   std::optional<bool> global = std::nullopt) {
  hlo::Collective op;
  op.kind = kind;
  op.has_channel_id = channel;
  op.channel_id = channel_id;
  op.has_use_global_device_ids = global.has_value();
  op.use_global_device_ids = global.value_or(false);
  return op;
}

// As XLA's GetCollectOpGroupModeTestForInstruction.
TEST(GroupModeTest, PerOpcode) {
  for (CollectiveKind k :
       {CollectiveKind::kAllReduce, CollectiveKind::kAllGather,
        CollectiveKind::kReduceScatter}) {
    EXPECT_TRUE(TakesUseGlobalDeviceIds(k));
    EXPECT_EQ(GroupModeOf(Op(k, false)), GroupMode::kCrossReplica);
    EXPECT_EQ(GroupModeOf(Op(k, false, 0, false)), GroupMode::kCrossReplica);
    EXPECT_EQ(GroupModeOf(Op(k, false, 0, true)), GroupMode::kInvalid);
    // The bool attribute: a channel without it is NOT cross_partition.
    EXPECT_EQ(GroupModeOf(Op(k, true)), GroupMode::kCrossReplicaAndPartition);
    EXPECT_EQ(GroupModeOf(Op(k, true, 1, false)),
              GroupMode::kCrossReplicaAndPartition);
    EXPECT_EQ(GroupModeOf(Op(k, true, 1, true)), GroupMode::kFlattenedId);
  }
  for (CollectiveKind k :
       {CollectiveKind::kAllToAll, CollectiveKind::kRaggedAllToAll,
        CollectiveKind::kCollectivePermute,
        CollectiveKind::kCollectiveBroadcast}) {
    EXPECT_FALSE(TakesUseGlobalDeviceIds(k));
    EXPECT_EQ(GroupModeOf(Op(k, false)), GroupMode::kCrossReplica);
    EXPECT_EQ(GroupModeOf(Op(k, true)), GroupMode::kCrossPartition);
    // channel_id=0 still counts as a channel.
    EXPECT_EQ(GroupModeOf(Op(k, true, 0)), GroupMode::kCrossPartition);
    // A (rejected) use_global_device_ids does not change the mode.
    EXPECT_EQ(GroupModeOf(Op(k, true, 1, true)), GroupMode::kCrossPartition);
  }
  for (CollectiveKind k : {CollectiveKind::kSend, CollectiveKind::kRecv}) {
    EXPECT_EQ(GroupModeOf(Op(k, true, 1)), GroupMode::kCrossPartition);
    EXPECT_EQ(GroupModeOf(Op(k, true, 0)), GroupMode::kCrossReplica);
    EXPECT_EQ(GroupModeOf(Op(k, true, -3)), GroupMode::kCrossReplica);
    EXPECT_EQ(GroupModeOf(Op(k, false)), GroupMode::kCrossReplica);
  }
}

TEST(GroupModeTest, ParticipantCount) {
  EXPECT_EQ(ParticipantCount(GroupMode::kCrossReplica, 4, 2), 4);
  EXPECT_EQ(ParticipantCount(GroupMode::kCrossReplicaAndPartition, 4, 2), 4);
  EXPECT_EQ(ParticipantCount(GroupMode::kCrossPartition, 4, 2), 2);
  EXPECT_EQ(ParticipantCount(GroupMode::kFlattenedId, 4, 2), 8);
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(ParticipantCount(GroupMode::kFlattenedId, big, big),
            std::numeric_limits<int64_t>::max());
}

TEST(GroupModeTest, SubgroupSize) {
  GroupList pairs = GroupList::FromGroups({{0, 1}, {2, 3}});
  GroupList none;
  EXPECT_EQ(SubgroupSize(GroupMode::kCrossReplica, pairs, 4, 3), 2);
  EXPECT_EQ(SubgroupSize(GroupMode::kCrossReplica, none, 4, 3), 4);
  EXPECT_EQ(SubgroupSize(GroupMode::kCrossReplicaAndPartition, pairs, 4, 3), 6);
  EXPECT_EQ(SubgroupSize(GroupMode::kCrossReplicaAndPartition, none, 4, 3), 12);
  EXPECT_EQ(SubgroupSize(GroupMode::kCrossPartition, pairs, 4, 3), 2);
  EXPECT_EQ(SubgroupSize(GroupMode::kCrossPartition, none, 4, 3), 3);
  EXPECT_EQ(SubgroupSize(GroupMode::kFlattenedId, pairs, 4, 3), 2);
  // Group 0 decides, as in XLA.
  GroupList ragged = GroupList::FromGroups({{0}, {1, 2, 3}});
  EXPECT_EQ(SubgroupSize(GroupMode::kFlattenedId, ragged, 1, 4), 1);
}

}  // namespace
}  // namespace topolint::model
