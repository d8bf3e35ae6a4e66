#include "checker/model/component_groups.h"

#include <string>
#include <vector>

#include "checker/config/parallel_config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/config/config_test_util.h"

namespace topolint::model {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Groups = std::vector<std::vector<int64_t>>;

Groups Vec(const absl::StatusOr<GroupList>& g) {
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? g->ToVectors() : Groups{};
}

std::vector<int64_t> Range(int64_t from, int64_t to) {
  std::vector<int64_t> out;
  for (int64_t i = from; i < to; ++i) out.push_back(i);
  return out;
}

// The TP=8, DP=4 table of docs/reference/rank-model.md §5.
TEST(ComponentGroupsTest, Tp8Dp4TpRows) {
  EXPECT_EQ(Vec(TpGroups(8, 4)),
            (Groups{Range(0, 8), Range(8, 16), Range(16, 24), Range(24, 32)}));
}

TEST(ComponentGroupsTest, Tp8Dp4ComponentSize4IsAllRanks) {
  EXPECT_EQ(Vec(ComponentTpGroups(8, 4, 4)), (Groups{Range(0, 32)}));
  EXPECT_EQ(Vec(DpColumnGroups(8, 4, 4)), (Groups{{0, 8, 16, 24},
                                                  {1, 9, 17, 25},
                                                  {2, 10, 18, 26},
                                                  {3, 11, 19, 27},
                                                  {4, 12, 20, 28},
                                                  {5, 13, 21, 29},
                                                  {6, 14, 22, 30},
                                                  {7, 15, 23, 31}}));
}

TEST(ComponentGroupsTest, Tp8Dp4ComponentSize2IsTwoBlocks) {
  EXPECT_EQ(Vec(ComponentTpGroups(8, 4, 2)),
            (Groups{Range(0, 16), Range(16, 32)}));
  const Groups cols = Vec(DpColumnGroups(8, 4, 2));
  ASSERT_EQ(cols.size(), 16u);
  EXPECT_EQ(cols[0], (std::vector<int64_t>{0, 8}));
  EXPECT_EQ(cols[7], (std::vector<int64_t>{7, 15}));
  EXPECT_EQ(cols[8], (std::vector<int64_t>{16, 24}));
  EXPECT_EQ(cols[15], (std::vector<int64_t>{23, 31}));
}

TEST(ComponentGroupsTest, ComponentSize1IsTpAndSelfGroups) {
  EXPECT_EQ(Vec(ComponentTpGroups(8, 4, 1)), Vec(TpGroups(8, 4)));
  const Groups self = Vec(DpColumnGroups(8, 4, 1));
  ASSERT_EQ(self.size(), 32u);
  for (int64_t r = 0; r < 32; ++r) {
    EXPECT_EQ(self[static_cast<size_t>(r)], (std::vector<int64_t>{r}));
  }
}

TEST(ComponentGroupsTest, RefusesSizesThatDoNotDivide) {
  EXPECT_FALSE(ComponentTpGroups(8, 4, 3).ok());
  EXPECT_FALSE(DpColumnGroups(8, 4, 0).ok());
  EXPECT_FALSE(ContiguousGroups(6, 4).ok());
  EXPECT_FALSE(StridedGroups(8, 8, 3).ok());
  EXPECT_FALSE(StridedGroups(8, 3, 1).ok());
  EXPECT_FALSE(TpGroups(0, 4).ok());
}

TEST(ComponentGroupsTest, RefusesHugeLayouts) {
  absl::StatusOr<GroupList> g = TpGroups(int64_t{1} << 40, int64_t{1} << 40);
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(std::string(g.status().message()), HasSubstr("ranks"));
  EXPECT_FALSE(ContiguousGroups(kMaxFamilyRanks + 1, 1).ok());
  EXPECT_TRUE(ContiguousGroups(kMaxFamilyRanks, kMaxFamilyRanks).ok());
}

TEST(ComponentGroupsTest, Trn2Mesh) {
  const Groups rows = Vec(Trn2MeshRows(64));
  ASSERT_EQ(rows.size(), 8u);
  EXPECT_EQ(rows[0], (std::vector<int64_t>{0, 1, 2, 3, 12, 13, 14, 15}));
  EXPECT_EQ(rows[1], (std::vector<int64_t>{4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(rows[2], (std::vector<int64_t>{16, 17, 18, 19, 28, 29, 30, 31}));
  EXPECT_EQ(rows[3], Range(20, 28));
  const Groups cols = Vec(Trn2MeshColumns(64));
  ASSERT_EQ(cols.size(), 8u);
  EXPECT_EQ(cols[0], (std::vector<int64_t>{0, 4, 16, 20, 32, 36, 48, 52}));
  EXPECT_FALSE(Trn2MeshRows(32).ok());
}

std::vector<std::string> Names(const std::vector<GroupFamily>& fams) {
  std::vector<std::string> out;
  for (const GroupFamily& f : fams) out.push_back(f.name);
  return out;
}

TEST(VllmGroupFamiliesTest, EqualSizesAliasOneFamily) {
  VllmLayout l;
  l.tp = 8;
  l.dp = 4;
  l.components = {{"attention", "attention_dp_size", 4},
                  {"mlp", "mlp_dp_size", 4},
                  {"lm_head", "lm_head_dp_size", 1}};
  absl::StatusOr<std::vector<GroupFamily>> fams = VllmGroupFamilies(l);
  ASSERT_TRUE(fams.ok()) << fams.status();
  EXPECT_THAT(Names(*fams),
              ElementsAre("tp (tensor_parallel_size=8)",
                          "attention component TP (attention_dp_size=4)",
                          "attention DP column (attention_dp_size=4)",
                          "self groups (size 1)"));
  // mlp shares attention's groups; lm_head (size 1) shares tp and self.
  EXPECT_THAT((*fams)[0].aliases,
              ElementsAre("lm_head component TP (lm_head_dp_size=1)"));
  EXPECT_THAT((*fams)[1].aliases,
              ElementsAre("mlp component TP (mlp_dp_size=4)"));
  EXPECT_THAT((*fams)[2].aliases, ElementsAre("mlp DP column (mlp_dp_size=4)",
                                              "dp (data_parallel_size=4)"));
  EXPECT_THAT((*fams)[3].aliases,
              ElementsAre("lm_head DP column (lm_head_dp_size=1)"));
  EXPECT_EQ((*fams)[1].DisplayName(),
            "attention component TP (attention_dp_size=4) (same groups as: "
            "mlp component TP (mlp_dp_size=4))");
}

TEST(VllmGroupFamiliesTest, ExpertParallelColumnsAndRows) {
  VllmLayout l;
  l.tp = 4;
  l.dp = 2;
  l.ep = 4;  // rows of 8/4 = 2, columns stride 2
  absl::StatusOr<std::vector<GroupFamily>> fams = VllmGroupFamilies(l);
  ASSERT_TRUE(fams.ok());
  const GroupFamily* ep = nullptr;
  const GroupFamily* rows = nullptr;
  for (const GroupFamily& f : *fams) {
    if (f.name == "ep (expert parallel degree 4)") ep = &f;
    if (f.name == "ep-tp rows (expert parallel degree 4)") rows = &f;
  }
  ASSERT_NE(ep, nullptr);
  ASSERT_NE(rows, nullptr);
  EXPECT_EQ(ep->groups.ToVectors(), (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  EXPECT_EQ(rows->groups.ToVectors(), (Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  l.ep = 3;
  EXPECT_FALSE(VllmGroupFamilies(l).ok());
}

TEST(VllmGroupFamiliesTest, RefusesComponentThatDoesNotDivideDp) {
  VllmLayout l;
  l.tp = 8;
  l.dp = 4;
  l.components = {{"mlp", "mlp_dp_size", 3}};
  EXPECT_FALSE(VllmGroupFamilies(l).ok());
}

TEST(VllmGroupFamiliesTest, SamplingRowsAndColumns) {
  VllmLayout l;
  l.tp = 8;
  l.sampling_dp = 2;
  absl::StatusOr<std::vector<GroupFamily>> fams = VllmGroupFamilies(l);
  ASSERT_TRUE(fams.ok());
  ASSERT_EQ(fams->size(), 4u);  // tp, self (dp), rows, columns
  EXPECT_EQ((*fams)[2].groups.ToVectors(),
            (Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ((*fams)[3].groups.ToVectors(),
            (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
}

TEST(NxdiGroupFamiliesTest, AttentionDpInsideTp) {
  NxdiLayout l;
  l.tp = 8;
  l.world = 8;
  l.attention_dp = 4;
  absl::StatusOr<std::vector<GroupFamily>> fams = NxdiGroupFamilies(l);
  ASSERT_TRUE(fams.ok()) << fams.status();
  EXPECT_THAT(Names(*fams),
              ElementsAre("tp (tp_degree=8)",
                          "TP within attention DP (attention_dp_degree=4)",
                          "attention DP (attention_dp_degree=4)"));
  EXPECT_EQ((*fams)[1].groups.ToVectors(),
            (Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ((*fams)[2].groups.ToVectors(),
            (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
}

TEST(NxdiGroupFamiliesTest, ExpertAndDataParallelAcrossTpGroups) {
  NxdiLayout l;
  l.tp = 4;
  l.ep = 2;
  l.world = 8;
  absl::StatusOr<std::vector<GroupFamily>> fams = NxdiGroupFamilies(l);
  ASSERT_TRUE(fams.ok());
  ASSERT_EQ(fams->size(), 2u);
  EXPECT_EQ((*fams)[1].name, "dp across TP groups (world_size=8, tp_degree=4)");
  EXPECT_THAT((*fams)[1].aliases, ElementsAre("ep (ep_degree=2)"));
  EXPECT_EQ((*fams)[1].groups.ToVectors(),
            (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
}

TEST(NxdiGroupFamiliesTest, Trn2MeshOnlyWithoutSwitchCc) {
  NxdiLayout l;
  l.tp = 64;
  l.world = 64;
  l.cp = 8;
  absl::StatusOr<std::vector<GroupFamily>> fams = NxdiGroupFamilies(l);
  ASSERT_TRUE(fams.ok());
  EXPECT_EQ(fams->size(), 5u);
  l.switch_cc = true;
  fams = NxdiGroupFamilies(l);
  ASSERT_TRUE(fams.ok());
  EXPECT_EQ(fams->size(), 3u);
}

TEST(NxdiGroupFamiliesTest, DegenerateDegreesDoNotCrash) {
  NxdiLayout l;
  l.tp = 4;
  l.world = 16;
  l.pp = 0;
  l.moe_tp = 0;
  l.moe_ep = 2;
  EXPECT_FALSE(NxdiGroupFamilies(l).ok());  // moe_tp 0
  l.moe_tp = 1;
  l.moe_ep = int64_t{1} << 62;
  l.ep = int64_t{1} << 62;
  EXPECT_FALSE(NxdiGroupFamilies(l).ok());
  l.tp = 0;
  EXPECT_FALSE(NxdiGroupFamilies(l).ok());
}

TEST(NxdiGroupFamiliesTest, RefusesTpThatDoesNotDivideWorld) {
  NxdiLayout l;
  l.tp = 3;
  l.world = 8;
  EXPECT_FALSE(NxdiGroupFamilies(l).ok());
  l.tp = 8;
  l.cp = 3;
  EXPECT_FALSE(NxdiGroupFamilies(l).ok());
}

TEST(GroupFamiliesOfTest, FromVllmConfig) {
  const config::ComponentConfig c = config::testing::ConfigFromText(
      R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
          "neuron_config": {"attention_dp_size": 2}})");
  absl::StatusOr<std::vector<GroupFamily>> fams =
      GroupFamiliesOf(config::ReadParallelConfig(c));
  ASSERT_TRUE(fams.ok());
  // tp (+ 4 size-1 component TPs), attention TP, attention column,
  // self (4 size-1 columns), dp.
  EXPECT_THAT(Names(*fams),
              ElementsAre("tp (tensor_parallel_size=8)",
                          "attention component TP (attention_dp_size=2)",
                          "attention DP column (attention_dp_size=2)",
                          "self groups (size 1)", "dp (data_parallel_size=4)"));
  EXPECT_EQ((*fams)[0].aliases.size(), 4u);
}

TEST(GroupFamiliesOfTest, FromNxdiConfig) {
  const config::ComponentConfig c = config::testing::ConfigFromText(
      R"({"neuron_config": {"tp_degree": 4, "cp_degree": 2}})");
  absl::StatusOr<std::vector<GroupFamily>> fams =
      GroupFamiliesOf(config::ReadParallelConfig(c));
  ASSERT_TRUE(fams.ok());
  EXPECT_THAT(Names(*fams),
              ElementsAre("tp (tp_degree=4)", "TP within CP (cp_degree=2)",
                          "CP (cp_degree=2)"));
}

FamilyMatcher Tp8Dp4Matcher() {
  VllmLayout l;
  l.tp = 8;
  l.dp = 4;
  l.components = {{"attention", "attention_dp_size", 4}};
  absl::StatusOr<std::vector<GroupFamily>> fams = VllmGroupFamilies(l);
  EXPECT_TRUE(fams.ok());
  return FamilyMatcher(*std::move(fams));
}

TEST(FamilyMatcherTest, GroupOrderDoesNotMatter) {
  const FamilyMatcher m = Tp8Dp4Matcher();
  // The DP columns, listed in another order.
  GroupList g = GroupList::FromGroups({{7, 15, 23, 31},
                                       {0, 8, 16, 24},
                                       {1, 9, 17, 25},
                                       {2, 10, 18, 26},
                                       {3, 11, 19, 27},
                                       {4, 12, 20, 28},
                                       {5, 13, 21, 29},
                                       {6, 14, 22, 30}});
  FamilyMatch r = m.Match(g);
  EXPECT_EQ(r.exact, 2);
  EXPECT_EQ(r.same_partition, -1);
  EXPECT_EQ(r.nearest, 2);
  EXPECT_EQ(r.groups_in_common, 8);
}

TEST(FamilyMatcherTest, RankOrderInsideAGroupIsReportedSeparately) {
  const FamilyMatcher m = Tp8Dp4Matcher();
  GroupList g = GroupList::FromGroups({{8, 0, 16, 24},
                                       {1, 9, 17, 25},
                                       {2, 10, 18, 26},
                                       {3, 11, 19, 27},
                                       {4, 12, 20, 28},
                                       {5, 13, 21, 29},
                                       {6, 14, 22, 30},
                                       {7, 15, 23, 31}});
  FamilyMatch r = m.Match(g);
  EXPECT_EQ(r.exact, -1);
  EXPECT_EQ(r.same_partition, 2);
}

TEST(FamilyMatcherTest, NearestHasMostGroupsInCommon) {
  const FamilyMatcher m = Tp8Dp4Matcher();
  // Two TP rows right, the other two split differently.
  GroupList g = GroupList::FromGroups({Range(0, 8),
                                       Range(8, 16),
                                       {16, 17, 18, 19, 24, 25, 26, 27},
                                       {20, 21, 22, 23, 28, 29, 30, 31}});
  FamilyMatch r = m.Match(g);
  EXPECT_EQ(r.exact, -1);
  EXPECT_EQ(r.same_partition, -1);
  EXPECT_EQ(r.nearest, 0);
  EXPECT_EQ(r.groups_in_common, 2);
  EXPECT_EQ(m.FindGroup(0, g.group(2)), -1);
  EXPECT_EQ(m.FindGroup(0, g.group(1)), 1);
  EXPECT_EQ(m.GroupContaining(0, 16), 2);
  EXPECT_EQ(m.GroupContaining(0, 99), -1);
  EXPECT_EQ(m.GroupContaining(0, -1), -1);
  EXPECT_EQ(m.GroupContaining(7, 0), -1);  // no such family
}

TEST(FamilyMatcherTest, NearestPrefersTheSameGroupSizeOnTies) {
  const FamilyMatcher m = Tp8Dp4Matcher();
  // Nothing in common with any family; groups of 4 like the DP columns.
  GroupList g = GroupList::FromGroups({{0, 1, 2, 3},
                                       {4, 5, 6, 7},
                                       {8, 9, 10, 11},
                                       {12, 13, 14, 15},
                                       {16, 17, 18, 19},
                                       {20, 21, 22, 23},
                                       {24, 25, 26, 27},
                                       {28, 29, 30, 31}});
  FamilyMatch r = m.Match(g);
  EXPECT_EQ(r.exact, -1);
  EXPECT_EQ(r.groups_in_common, 0);
  EXPECT_EQ(r.nearest, 2);
}

TEST(FamilyMatcherTest, SubsetIsNotAMatch) {
  const FamilyMatcher m = Tp8Dp4Matcher();
  GroupList g = GroupList::FromGroups({Range(0, 8), Range(8, 16)});
  FamilyMatch r = m.Match(g);
  EXPECT_EQ(r.exact, -1);
  EXPECT_EQ(r.nearest, 0);
  EXPECT_EQ(r.groups_in_common, 2);
  // A repeated group does not count twice.
  g = GroupList::FromGroups(
      {Range(0, 8), Range(0, 8), Range(16, 24), Range(24, 32)});
  r = m.Match(g);
  EXPECT_EQ(r.exact, -1);
  EXPECT_EQ(r.groups_in_common, 3);
}

}  // namespace
}  // namespace topolint::model
