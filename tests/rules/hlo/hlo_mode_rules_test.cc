// hlo-group-mode and hlo-not-flattened-id.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/rules/hlo/hlo_test_util.h"

namespace topolint::testing_hlo {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Kind = hlo::CollectiveKind;

TEST(HloGroupModeTest, GlobalIdsWithoutChannel) {
  for (Kind k : {Kind::kAllReduce, Kind::kAllGather, Kind::kReduceScatter}) {
    ModuleBuilder b;
    hlo::Collective& op = b.Add(k, "%op");
    SetGlobal(op);
    std::vector<Finding> f = RunHlo(b.module());
    ASSERT_THAT(Rules(f), ElementsAre("hlo-group-mode"))
        << hlo::CollectiveKindName(k);
    EXPECT_THAT(f[0].message,
                HasSubstr("Cannot have use_global_device_ids=true without "
                          "channel_id"));
    EXPECT_EQ(f[0].loc, (Location{"model.hlo", 1, 70}));
  }
}

TEST(HloGroupModeTest, GlobalIdsFalseWithoutChannelIsFine) {
  ModuleBuilder b;
  hlo::Collective& op = b.Add(Kind::kAllReduce, "%ar");
  SetGlobal(op, false);
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloGroupModeTest, GlobalIdsOnOpcodesThatTakeNone) {
  for (Kind k : {Kind::kAllToAll, Kind::kRaggedAllToAll,
                 Kind::kCollectivePermute, Kind::kCollectiveBroadcast}) {
    for (bool value : {true, false}) {
      ModuleBuilder b;
      hlo::Collective& op = b.Add(k, "%op");
      SetChannel(op);
      SetGlobal(op, value);
      std::vector<Finding> f = Only(RunHlo(b.module()), "hlo-group-mode");
      ASSERT_EQ(f.size(), 1u) << hlo::CollectiveKindName(k);
      EXPECT_THAT(f[0].message,
                  HasSubstr("takes no use_global_device_ids (XLA: unexpected "
                            "attribute \"use_global_device_ids\")"));
    }
  }
}

TEST(HloGroupModeTest, ValidModesAreQuiet) {
  ModuleBuilder b(2, 2);
  hlo::Collective& ar = b.Add(Kind::kAllReduce, "%ar");
  SetChannel(ar);
  SetGlobal(ar);
  SetGroups(ar, {{0, 1, 2, 3}});
  hlo::Collective& a2a = b.Add(Kind::kAllToAll, "%a2a");
  SetChannel(a2a, 0);  // channel_id=0 still selects cross_partition
  SetGroups(a2a, {{0, 1}});
  a2a.operand_count = 2;
  EXPECT_THAT(Only(RunHlo(b.module()), "hlo-group-mode"), IsEmpty());
}

TEST(HloNotFlattenedIdTest, WarnsOnSpmdCollectivesOutsideFlattenedId) {
  ModuleBuilder b(1, 4);
  hlo::Collective& crap = b.Add(Kind::kAllReduce, "%ar");
  SetChannel(crap);
  SetGroups(crap, {{0}});
  b.Add(Kind::kAllGather, "%ag");  // no channel: cross_replica
  std::vector<Finding> f = Only(RunHlo(b.module()), "hlo-not-flattened-id");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_THAT(f[0].message, HasSubstr("cross_replica_and_partition mode"));
  EXPECT_THAT(f[0].message, HasSubstr("each standing for all 4 partitions"));
  EXPECT_THAT(f[0].message, HasSubstr("ids in [0, 4)"));
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 1, kOpcodeCol}));
  EXPECT_THAT(f[1].message,
              HasSubstr("%ag is in cross_replica mode (no channel_id)"));
}

TEST(HloNotFlattenedIdTest, QuietCases) {
  // Flattened id, a single partition, and ops that cannot express it.
  ModuleBuilder b(1, 4);
  hlo::Collective& ar = b.Add(Kind::kAllReduce, "%ar");
  SetChannel(ar);
  SetGlobal(ar);
  SetGroups(ar, {{0, 1, 2, 3}});
  hlo::Collective& a2a = b.Add(Kind::kAllToAll, "%a2a");
  SetChannel(a2a);
  SetGroups(a2a, {{0, 1, 2, 3}});
  a2a.operand_count = 4;
  hlo::Collective& cp = b.Add(Kind::kCollectivePermute, "%cp");
  SetChannel(cp);
  EXPECT_THAT(Only(RunHlo(b.module()), "hlo-not-flattened-id"), IsEmpty());

  ModuleBuilder single(4);
  hlo::Collective& ar2 = single.Add(Kind::kAllReduce, "%ar");
  SetChannel(ar2);
  EXPECT_THAT(Only(RunHlo(single.module()), "hlo-not-flattened-id"), IsEmpty());
}

TEST(HloNotFlattenedIdTest, PartitionCountFromFlag) {
  ModuleBuilder b;
  hlo::Collective& ar = b.Add(Kind::kAllReduce, "%ar");
  SetChannel(ar);
  CheckOptions options;
  options.num_partitions = 2;
  EXPECT_EQ(Only(RunHlo(b.module(), options), "hlo-not-flattened-id").size(),
            1u);
}

}  // namespace
}  // namespace topolint::testing_hlo
