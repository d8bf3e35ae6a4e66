// hlo-group-size-shape.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/rules/hlo/hlo_test_util.h"

namespace topolint::testing_hlo {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Kind = hlo::CollectiveKind;

hlo::Collective& AddShaped(ModuleBuilder& b, Kind kind, std::string name,
                           hlo::Shape in, hlo::Shape out, int64_t dim) {
  hlo::Collective& op = b.Add(kind, std::move(name));
  op.operand_shapes = {std::move(in)};
  op.operand_count = 1;
  op.result_shape = std::move(out);
  op.has_dimensions = true;
  op.dimensions = {dim};
  op.dimensions_pos = {op.pos.line, 60};
  return op;
}

TEST(HloGroupSizeShapeTest, AllGather) {
  ModuleBuilder b;
  SetGroups(AddShaped(b, Kind::kAllGather, "%bad", Array({8, 16}),
                      Array({32, 16}), 0),
            {{0, 1}, {2, 3}});
  SetGroups(AddShaped(b, Kind::kAllGather, "%good", Array({8, 16}),
                      Array({8, 32}), 1),
            {{0, 1}, {2, 3}});
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-group-size-shape"));
  EXPECT_THAT(f[0].message,
              HasSubstr("%bad gathers dimension 0 from 8 to 32 (4 shards) but "
                        "each of its groups has 2 devices; expected a result "
                        "dimension of 16"));
  EXPECT_THAT(f[0].message, HasSubstr("shard_count = 4, subgroup_size = 2"));
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 1, 60}));
}

TEST(HloGroupSizeShapeTest, SubgroupSizeOneSkipsTheCheck) {
  // Empty list and R = 1: XLA skips (the counts may come from a C++ config).
  ModuleBuilder b;
  AddShaped(b, Kind::kAllGather, "%ag", Array({8}), Array({32}), 0);
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloGroupSizeShapeTest, EmptyListUsesReplicaCount) {
  ModuleBuilder b(4);
  AddShaped(b, Kind::kAllGather, "%ag", Array({8}), Array({16}), 0);
  EXPECT_THAT(Only(RunHlo(b.module()), "hlo-group-size-shape").at(0).message,
              HasSubstr("shard_count = 2, subgroup_size = 4"));
}

TEST(HloGroupSizeShapeTest, CrossReplicaAndPartitionMultipliesByP) {
  ModuleBuilder b(2, 2);
  hlo::Collective& op =
      AddShaped(b, Kind::kAllGather, "%ag", Array({8}), Array({32}), 0);
  SetGroups(op, {{0, 1}});
  SetChannel(op);
  std::vector<Finding> f = RunHlo(b.module());
  EXPECT_THAT(Only(f, "hlo-group-size-shape"), IsEmpty());  // 2 * 2 = 4
}

TEST(HloGroupSizeShapeTest, AllGatherStartUsesTupleElementOne) {
  ModuleBuilder b;
  hlo::Collective& op = AddShaped(b, Kind::kAllGather, "%ags", Array({8}),
                                  Tuple({Array({8}), Array({16})}), 0);
  op.is_async_start = true;
  op.opcode = "all-gather-start";
  SetGroups(op, {{0, 1, 2, 3}});
  EXPECT_THAT(Only(RunHlo(b.module()), "hlo-group-size-shape").at(0).message,
              HasSubstr("from 8 to 16 (2 shards)"));
}

TEST(HloGroupSizeShapeTest, MultiOperandAllGatherUsesFirstOperand) {
  ModuleBuilder b;
  hlo::Collective& op = AddShaped(b, Kind::kAllGather, "%ag", Array({4}),
                                  Tuple({Array({8}), Array({6})}), 0);
  op.operand_shapes.push_back(Array({3}));
  op.operand_count = 2;
  SetGroups(op, {{0, 1}});
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloGroupSizeShapeTest, ReduceScatter) {
  ModuleBuilder b;
  SetGroups(AddShaped(b, Kind::kReduceScatter, "%rs", Array({32, 4}),
                      Array({4, 4}), 0),
            {{0, 1}});
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-group-size-shape"));
  EXPECT_THAT(f[0].message,
              HasSubstr("%rs scatters dimension 0 from 32 to 4 (8 shards) but "
                        "each of its groups has 2 devices; expected a result "
                        "dimension of 16"));
}

TEST(HloGroupSizeShapeTest, GenericReduceScatterStart) {
  // ((operands...), result, context): the result is element 1.
  ModuleBuilder b;
  hlo::Collective& op =
      AddShaped(b, Kind::kReduceScatter, "%rss", Array({32}),
                Tuple({Tuple({Array({32})}), Array({16}), Array({})}), 0);
  op.is_async_start = true;
  op.opcode = "reduce-scatter-start";
  SetGroups(op, {{0, 1}});
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
  op.result_shape.tuple[1] = Array({8});
  EXPECT_THAT(Rules(RunHlo(b.module())), ElementsAre("hlo-group-size-shape"));
}

TEST(HloGroupSizeShapeTest, DimensionOutOfRank) {
  ModuleBuilder b;
  SetGroups(AddShaped(b, Kind::kAllGather, "%ag", Array({8}), Array({16}), 2),
            {{0, 1}});
  EXPECT_THAT(Only(RunHlo(b.module()), "hlo-group-size-shape").at(0).message,
              HasSubstr("names dimension 2 but its operand has rank 1"));
}

TEST(HloGroupSizeShapeTest, UnknownOrDynamicShapesAreSkipped) {
  ModuleBuilder b;
  hlo::Collective& op = b.Add(Kind::kAllGather, "%ag");
  op.has_dimensions = true;
  op.dimensions = {0};
  SetGroups(op, {{0, 1}});
  SetGroups(AddShaped(b, Kind::kAllGather, "%dyn", Array({-1}), Array({32}), 0),
            {{0, 1}});
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloGroupSizeShapeTest, AllToAllSplitDimension) {
  ModuleBuilder b;
  SetGroups(
      AddShaped(b, Kind::kAllToAll, "%bad", Array({6, 8}), Array({6, 8}), 0),
      {{0, 1, 2, 3}});
  SetGroups(
      AddShaped(b, Kind::kAllToAll, "%good", Array({6, 8}), Array({6, 8}), 1),
      {{0, 1, 2, 3}});
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-group-size-shape"));
  EXPECT_THAT(f[0].message,
              HasSubstr("%bad splits dimension 0 of size 6 into 4 parts"));
  EXPECT_THAT(f[0].message,
              HasSubstr("Split dimension size 6 must be dividable by "
                        "split_count 4"));
}

TEST(HloGroupSizeShapeTest, TupleAllToAllOperandCount) {
  // AllToAll_OperandCountMismatchWithReplicaGroupSize.
  ModuleBuilder b(2);
  hlo::Collective& op = b.Add(Kind::kAllToAll, "%a2a");
  op.operand_count = 3;
  SetGroups(op, {{0, 1}});
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-group-size-shape"));
  EXPECT_THAT(f[0].message,
              HasSubstr("%a2a has 3 operands but each of its groups has 2 "
                        "devices"));
  EXPECT_EQ(f[0].loc.column, kOpcodeCol);

  op.operand_count = 2;
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloGroupSizeShapeTest, TupleAllToAllWithoutGroups) {
  // AllToAll_NoReplicaGroupsOK: R = 2, two operands.
  ModuleBuilder b(2);
  b.Add(Kind::kAllToAll, "%a2a").operand_count = 2;
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
  // Counts unknown (1): nothing to compare with.
  ModuleBuilder unknown;
  unknown.Add(Kind::kAllToAll, "%a2a").operand_count = 2;
  EXPECT_THAT(RunHlo(unknown.module()), IsEmpty());
}

}  // namespace
}  // namespace topolint::testing_hlo
