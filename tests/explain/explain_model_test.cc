// The building blocks of `explain`: iota naming, grids, rank placement.
#include "checker/explain/explain_internal.h"
#include "checker/model/replica_groups.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::explain {
namespace {

using model::GroupList;

TEST(FindIotaFormTest, NamesPlainAndTransposedIotas) {
  EXPECT_EQ(
      FindIotaForm(GroupList::FromGroups({{0, 4}, {1, 5}, {2, 6}, {3, 7}})),
      "[4,2]<=[2,4]T(1,0)");
  EXPECT_EQ(FindIotaForm(GroupList::FromGroups({{0, 1, 2, 3}, {4, 5, 6, 7}})),
            "[2,4]<=[8]");
  EXPECT_EQ(FindIotaForm(GroupList::FromGroups({{0, 2}, {1, 3}})),
            "[2,2]<=[2,2]T(1,0)");
}

TEST(FindIotaFormTest, EveryNameExpandsBackToTheList) {
  const GroupList list =
      GroupList::FromGroups({{0, 3, 6, 9}, {1, 4, 7, 10}, {2, 5, 8, 11}});
  const std::string form = FindIotaForm(list);
  ASSERT_EQ(form, "[3,4]<=[4,3]T(1,0)");
  hlo::IotaSpec iota{3, 4, {4, 3}, {1, 0}};
  absl::StatusOr<GroupList> back = model::ExpandIota(iota);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, list);
}

TEST(FindIotaFormTest, NoFormForOtherLists) {
  EXPECT_EQ(FindIotaForm(GroupList::FromGroups({{0, 3}, {1, 2}})), "");
  EXPECT_EQ(FindIotaForm(GroupList::FromGroups({{0, 1}, {2}})), "");
  EXPECT_EQ(FindIotaForm(GroupList()), "");
  EXPECT_EQ(FindIotaForm(GroupList::FromGroups({{1, 0}})), "");
}

TEST(PlaceRankTest, GroupAndPosition) {
  const GroupList list = GroupList::FromGroups({{0, 4}, {1, 5}});
  RankPlace p = PlaceRank(list, 5, "x");
  EXPECT_EQ(p.status, "member");
  EXPECT_EQ(p.group, 1);
  EXPECT_EQ(p.position, 1);
  EXPECT_EQ(p.group_text, "{1,5}");
  EXPECT_EQ(PlaceRank(list, 2, "x").status, "absent");
}

TEST(DeviceGridTest, FollowsA2DIotaReshape) {
  hlo::Collective op;
  op.replica_groups.form = hlo::ReplicaGroups::Form::kIota;
  op.replica_groups.iota = hlo::IotaSpec{4, 2, {2, 4}, {1, 0}};
  const GroupList groups =
      GroupList::FromGroups({{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  std::optional<Grid> g = DeviceGrid(op, groups, true, {1, 8}, 8);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->rows, 2);
  EXPECT_EQ(g->columns, 4);
  EXPECT_EQ(g->group, (std::vector<int64_t>{0, 1, 2, 3, 0, 1, 2, 3}));
}

TEST(DeviceGridTest, ReplicasByPartitionsOrRowsOfSixteen) {
  hlo::Collective op;
  op.replica_groups.form = hlo::ReplicaGroups::Form::kExplicit;
  std::optional<Grid> g =
      DeviceGrid(op, GroupList::FromGroups({{0, 1}}), true, {2, 3}, 6);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->rows, 2);
  EXPECT_EQ(g->row_axis, "replica");
  EXPECT_EQ(g->group, (std::vector<int64_t>{0, 0, -1, -1, -1, -1}));
  g = DeviceGrid(op, GroupList(), true, {1, 20}, 20);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->rows, 2);
  EXPECT_EQ(g->columns, 16);
  EXPECT_EQ(g->id[19], 19);
  EXPECT_EQ(g->id[20], -1);  // past the end of the partial last row
  EXPECT_FALSE(DeviceGrid(op, GroupList(), true, {1, kMaxGridCells + 1},
                          kMaxGridCells + 1)
                   .has_value());
}

}  // namespace
}  // namespace topolint::explain
