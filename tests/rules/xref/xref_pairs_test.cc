// xref-permute-pairs, and the pure comparisons of rules/xref_compare.h.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/xref_compare.h"
#include "tests/rules/xref/xref_test_util.h"

namespace topolint::testing_xref {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::SizeIs;

constexpr char kRule[] = "xref-permute-pairs";
constexpr char kRing[] = "{{0,1},{1,2},{2,3},{3,0}}";

std::vector<Finding> Pairs(const std::string& hlo_pairs,
                           const neff::DefJson& def) {
  return OfRule(
      RunXref(
          MakeUnit(Hlo(", num_partitions=4", {Permute("cp", hlo_pairs)}), def)),
      kRule);
}

TEST(XrefPermutePairsTest, SamePairsPass) {
  EXPECT_THAT(Pairs(kRing, Def("[]", "[[0, 1], [1, 2], [2, 3], [3, 0]]")),
              IsEmpty());
}

TEST(XrefPermutePairsTest, OrderOfPairsDoesNotMatter) {
  EXPECT_THAT(Pairs(kRing, Def("[]", "[[3, 0], [2, 3], [1, 2], [0, 1]]")),
              IsEmpty());
}

TEST(XrefPermutePairsTest, DifferencesOnBothSidesAreNamed) {
  const std::string op = Permute("cp", kRing);
  std::vector<Finding> f =
      Pairs(kRing, Def("[]", "[[0, 1], [1, 3], [3, 2], [2, 0]]"));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "source_target_pairs of %cp differ from the NEFF's "
            "src_target_pairs: {1,2} and 2 more only here; [1,3] and 2 more "
            "only in src_target_pairs");
  // At the first HLO pair the NEFF lacks.
  EXPECT_EQ(f[0].loc,
            (Location{"model.hlo", 10,
                      3 + 5 + static_cast<int64_t>(op.find("{1,2}"))}));
  ASSERT_THAT(f[0].notes, SizeIs(2));
  EXPECT_EQ(f[0].notes[0].message, "src_target_pairs is declared here");
  EXPECT_EQ(f[0].notes[1].message,
            "src_target_pairs[1] is [1,3], which %cp does not have");
  EXPECT_EQ(f[0].notes[1].loc, (Location{"def.json", 4, 30}));
}

TEST(XrefPermutePairsTest, ExtraNeffPairAlone) {
  std::vector<Finding> f = Pairs("{{0,1},{1,2},{2,3}}",
                                 Def("[]", "[[0, 1], [1, 2], [2, 3], [3, 0]]"));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "source_target_pairs of %cp differ from the NEFF's "
            "src_target_pairs: [3,0] only in src_target_pairs");
}

TEST(XrefPermutePairsTest, NoNeffPairs) {
  std::vector<Finding> f = Pairs(kRing, Def("[]"));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "%cp has source_target_pairs {{0,1},{1,2},{2,3},{3,0}} but the "
            "NEFF declares no src_target_pairs");
  ASSERT_THAT(f[0].notes, SizeIs(1));
  EXPECT_EQ(f[0].notes[0].message, "CCInfo has no src_target_pairs");
  // An empty permute against no pairs is equal.
  EXPECT_THAT(Pairs("{}", Def("[]")), IsEmpty());
}

TEST(XrefPermutePairsTest, SendRecvPairsAreCompared) {
  hlo::Module m = Hlo(
      ", num_partitions=2",
      {"%tok = token[] after-all()",
       "%s = (f32[8]{0}, u32[], token[]) send(%p, %tok), channel_id=2, "
       "frontend_attributes={_xla_send_recv_source_target_pairs=\"{{0,1}}\"}"});
  ASSERT_THAT(m.collectives, SizeIs(1));
  EXPECT_THAT(OfRule(RunXref(MakeUnit(m, Def("[]", "[[0, 1]]"))), kRule),
              IsEmpty());
  std::vector<Finding> f =
      OfRule(RunXref(MakeUnit(m, Def("[]", "[[1, 0]]"))), kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].anchor, "%s");
}

TEST(XrefPermutePairsTest, MalformedNeffPairsAreNotCompared) {
  EXPECT_THAT(Pairs(kRing, Def("[]", "[[0, 1], [1, 2], [2, 3], [3]]")),
              IsEmpty());
}

TEST(XrefCompareTest, DescribeShape) {
  EXPECT_EQ(xref::DescribeShape(model::GroupList()), "no groups");
  EXPECT_EQ(xref::DescribeShape(model::GroupList::FromGroups({{0, 1, 2}})),
            "1 group of 3");
  EXPECT_EQ(xref::DescribeShape(
                model::GroupList::FromGroups({{0}, {1, 2}, {3, 4, 5}})),
            "3 groups of sizes 1, 2, 3");
}

TEST(XrefCompareTest, CompareGroupListsFindsTheFirstRank) {
  auto g = [](std::vector<std::vector<int64_t>> v) {
    return model::GroupList::FromGroups(v);
  };
  xref::GroupListDiff d =
      xref::CompareGroupLists(g({{0, 1}, {2, 3, 4}}), g({{0, 1}, {2, 4, 3}}));
  EXPECT_EQ(d.kind, xref::GroupListDiff::Kind::kGroup);
  EXPECT_EQ(d.group, 1);
  EXPECT_EQ(d.rank, 1);
  EXPECT_TRUE(d.same_ranks_reordered);
  EXPECT_EQ(xref::CompareGroupLists(g({{0, 1}}), g({{0, 1}})).kind,
            xref::GroupListDiff::Kind::kEqual);
  // A prefix: the shorter group ends first.
  d = xref::CompareGroupLists(g({{0, 1}, {2}}), g({{0, 1}, {2, 3}}));
  EXPECT_EQ(d.kind, xref::GroupListDiff::Kind::kGroup);
  EXPECT_EQ(d.rank, 1);
  EXPECT_FALSE(d.same_ranks_reordered);
}

TEST(XrefCompareTest, ComparePairSetsIgnoresOrderAndRepeats) {
  hlo::SourceTargetPairs h;
  h.present = true;
  h.pairs = {{2, 3}, {0, 1}, {0, 1}};
  neff::Pair a, b;
  a.src.value = 0;
  a.dst.value = 1;
  b.src.value = 5;
  b.dst.value = 6;
  xref::PairSetDiff d = xref::ComparePairSets(h, {a, b});
  EXPECT_THAT(d.only_hlo, ElementsAre(Pair(2, 3)));
  EXPECT_THAT(d.only_neff, ElementsAre(Pair(5, 6)));
  EXPECT_EQ(xref::PairsToString({{0, 1}, {1, 2}, {2, 3}}, true, 2),
            "[[0,1],[1,2],...]");
}

TEST(XrefCompareTest, IsSingleIotaGroup) {
  EXPECT_TRUE(
      xref::IsSingleIotaGroup(model::GroupList::FromGroups({{0, 1, 2, 3}})));
  EXPECT_FALSE(
      xref::IsSingleIotaGroup(model::GroupList::FromGroups({{0, 2, 1, 3}})));
  EXPECT_FALSE(
      xref::IsSingleIotaGroup(model::GroupList::FromGroups({{0, 1}, {2, 3}})));
  EXPECT_FALSE(xref::IsSingleIotaGroup(model::GroupList()));
}

}  // namespace
}  // namespace topolint::testing_xref
