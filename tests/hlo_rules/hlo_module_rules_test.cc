// hlo-multiple-geometries.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hlo_rules/hlo_test_util.h"

namespace topolint::testing_hlo {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Kind = hlo::CollectiveKind;

TEST(HloMultipleGeometriesTest, IotaAndExplicitListThatAgreeAreOne) {
  ModuleBuilder b(8);
  SetIota(b.Add(Kind::kAllReduce, "%ar"), 4, 2, {2, 4}, {1, 0});
  SetGroups(b.Add(Kind::kAllReduce, "%ar2"), {{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloMultipleGeometriesTest, TwoListsReportedOnceAtTheSecond) {
  ModuleBuilder b(4);
  SetGroups(b.Add(Kind::kAllReduce, "%ar"), {{0, 1}, {2, 3}});
  SetGroups(b.Add(Kind::kAllReduce, "%same"), {{0, 1}, {2, 3}});
  SetGroups(b.Add(Kind::kAllGather, "%ag"), {{0, 2}, {1, 3}});
  SetGroups(b.Add(Kind::kAllGather, "%ag2"), {{0, 2}, {1, 3}});
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-multiple-geometries"));
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 3, kGroupsCol}));
  EXPECT_THAT(f[0].message,
              HasSubstr("%ag uses replica groups {{0,2},{1,3}} but %ar uses "
                        "{{0,1},{2,3}}"));
  EXPECT_THAT(f[0].message,
              HasSubstr("2 different group lists in one module would need 2 "
                        "NEFF topologies"));
  ASSERT_EQ(f[0].notes.size(), 1u);
  EXPECT_EQ(f[0].notes[0].loc, (Location{"model.hlo", 1, kGroupsCol}));
  EXPECT_EQ(f[0].anchor, "%ag in %main");
}

TEST(HloMultipleGeometriesTest, CountsDistinctLists) {
  ModuleBuilder b(4);
  SetGroups(b.Add(Kind::kAllReduce, "%a"), {{0, 1}, {2, 3}});
  SetGroups(b.Add(Kind::kAllReduce, "%b"), {{0, 2}, {1, 3}});
  SetGroups(b.Add(Kind::kAllReduce, "%c"), {{0, 1, 2, 3}});
  SetGroups(b.Add(Kind::kAllReduce, "%d"), {{0, 2}, {1, 3}});
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-multiple-geometries"));
  EXPECT_THAT(f[0].message, HasSubstr("3 different group lists"));
}

TEST(HloMultipleGeometriesTest, GroupBoundariesMatter) {
  ModuleBuilder b;
  SetGroups(b.Add(Kind::kAllReduce, "%a"), {{0, 1, 2, 3}});
  SetGroups(b.Add(Kind::kAllReduce, "%b"), {{0, 1}, {2, 3}});
  EXPECT_THAT(Rules(RunHlo(b.module())),
              ElementsAre("hlo-multiple-geometries"));
}

TEST(HloMultipleGeometriesTest, EmptyListsAndPermutesDoNotCount) {
  ModuleBuilder b(4);
  SetGroups(b.Add(Kind::kAllReduce, "%a"), {{0, 1}, {2, 3}});
  b.Add(Kind::kAllReduce, "%all");  // absent: one group of everyone
  SetGroups(b.Add(Kind::kAllReduce, "%empty"), {});
  hlo::Collective& cp = b.Add(Kind::kCollectivePermute, "%cp");
  cp.source_target_pairs.present = true;
  cp.source_target_pairs.pairs = {{0, 1}, {1, 0}};
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloMultipleGeometriesTest, PerModule) {
  Unit unit;
  ModuleBuilder a(4), b(4);
  SetGroups(a.Add(Kind::kAllReduce, "%a"), {{0, 1}, {2, 3}});
  SetGroups(b.Add(Kind::kAllReduce, "%b"), {{0, 2}, {1, 3}});
  unit.hlo_modules = {a.module(), b.module()};
  Emitter emit([](std::string_view) { return true; },
               [](std::string_view) { return Severity::kError; });
  CheckHlo(unit, CheckOptions{}, emit);
  EXPECT_THAT(emit.findings(), IsEmpty());
}

}  // namespace
}  // namespace topolint::testing_hlo
