#include "checker/model/flattened_groups.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::model {
namespace {

using ::testing::HasSubstr;
using Groups = std::vector<std::vector<int64_t>>;

Groups Flatten(const Groups& groups, GroupMode mode, int64_t r, int64_t p) {
  absl::StatusOr<GroupList> out = GetParticipatingFlattenedIdGroups(
      GroupList::FromGroups(groups), mode, r, p);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? out->ToVectors() : Groups{{-1}};
}

// XLA's collective_ops_utils_test example: 3 replicas x 2 partitions, whose
// device assignment {{33,34},{44,45},{55,56}} is flattened id order
// {0,1},{2,3},{4,5}.
TEST(FlattenedGroupsTest, XlaExampleCrossReplica) {
  // {{33},{34},{44,55},{45,56}}
  EXPECT_EQ(Flatten({{0}, {1, 2}}, GroupMode::kCrossReplica, 3, 2),
            (Groups{{0}, {1}, {2, 4}, {3, 5}}));
}

TEST(FlattenedGroupsTest, XlaExampleCrossReplicaAndPartition) {
  // {{33,34},{44,45,55,56}}
  EXPECT_EQ(Flatten({{0}, {1, 2}}, GroupMode::kCrossReplicaAndPartition, 3, 2),
            (Groups{{0, 1}, {2, 3, 4, 5}}));
}

TEST(FlattenedGroupsTest, XlaExampleFlattenedId) {
  // {{33},{34,44},{45,55,56}}
  EXPECT_EQ(Flatten({{0}, {1, 2}, {3, 4, 5}}, GroupMode::kFlattenedId, 3, 2),
            (Groups{{0}, {1, 2}, {3, 4, 5}}));
}

TEST(FlattenedGroupsTest, CrossPartition) {
  // 2 replicas x 4 partitions; partition groups {0,1},{2,3} per replica.
  EXPECT_EQ(Flatten({{0, 1}, {2, 3}}, GroupMode::kCrossPartition, 2, 4),
            (Groups{{0, 1}, {4, 5}, {2, 3}, {6, 7}}));
}

TEST(FlattenedGroupsTest, EmptyListStandsForAllIds) {
  EXPECT_EQ(Flatten({}, GroupMode::kCrossReplica, 2, 3),
            (Groups{{0, 3}, {1, 4}, {2, 5}}));
  EXPECT_EQ(Flatten({}, GroupMode::kCrossPartition, 2, 3),
            (Groups{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(Flatten({}, GroupMode::kCrossReplicaAndPartition, 2, 3),
            (Groups{{0, 1, 2, 3, 4, 5}}));
  EXPECT_EQ(Flatten({}, GroupMode::kCrossReplica, 1, 1), (Groups{{0}}));
}

TEST(FlattenedGroupsTest, Errors) {
  GroupList none;
  EXPECT_THAT(
      GetParticipatingFlattenedIdGroups(none, GroupMode::kFlattenedId, 2, 2)
          .status()
          .message(),
      HasSubstr("must be specified in flattened-id mode"));
  EXPECT_FALSE(
      GetParticipatingFlattenedIdGroups(none, GroupMode::kInvalid, 2, 2).ok());
  GroupList out_of_range = GroupList::FromGroups({{0, 4}});
  EXPECT_THAT(GetParticipatingFlattenedIdGroups(out_of_range,
                                                GroupMode::kCrossReplica, 4, 2)
                  .status()
                  .message(),
              HasSubstr("id 4 is outside [0, 4)"));
  EXPECT_TRUE(GetParticipatingFlattenedIdGroups(out_of_range,
                                                GroupMode::kFlattenedId, 4, 2)
                  .ok());
  EXPECT_FALSE(GetParticipatingFlattenedIdGroups(GroupList::FromGroups({{-1}}),
                                                 GroupMode::kFlattenedId, 4, 2)
                   .ok());
  EXPECT_FALSE(
      GetParticipatingFlattenedIdGroups(none, GroupMode::kCrossReplica, 0, 2)
          .ok());
  EXPECT_EQ(
      GetParticipatingFlattenedIdGroups(none, GroupMode::kCrossReplica,
                                        int64_t{1} << 20, int64_t{1} << 20)
          .status()
          .code(),
      absl::StatusCode::kResourceExhausted);
}

TEST(FlattenedGroupsTest, OfInstruction) {
  hlo::Collective op;
  op.kind = hlo::CollectiveKind::kAllReduce;
  op.has_channel_id = true;
  op.replica_groups.form = hlo::ReplicaGroups::Form::kIota;
  op.replica_groups.iota.num_groups = 1;
  op.replica_groups.iota.group_size = 2;
  op.replica_groups.iota.reshape_dims = {2};
  absl::StatusOr<GroupList> out = FlattenedIdGroupsOf(op, ModuleParams{2, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->ToVectors(), (Groups{{0, 1, 2, 3}}));
}

}  // namespace
}  // namespace topolint::model
