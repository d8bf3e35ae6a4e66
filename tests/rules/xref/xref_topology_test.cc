// xref-topology-mismatch on hand-built units.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/rules/xref/xref_test_util.h"

namespace topolint::testing_xref {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

constexpr char kRule[] = "xref-topology-mismatch";
constexpr char kHeader[] = ", replica_count=1, num_partitions=8";
constexpr char kNeff[] = "[[[0, 4], [1, 5], [2, 6], [3, 7]]]";

std::vector<Finding> Topology(const std::string& groups,
                              const std::string& neff_groups = kNeff,
                              const std::string& header = kHeader) {
  return OfRule(RunXref(MakeUnit(Hlo(header, {FlatAllReduce("ar", groups)}),
                                 Def(neff_groups))),
                kRule);
}

// Column (1-based) of `needle` in the single (ROOT) op `op`.
int64_t RootCol(const std::string& op, const std::string& needle) {
  return 3 + 5 + static_cast<int64_t>(op.find(needle));
}

TEST(XrefTopologyTest, EqualExplicitListPasses) {
  EXPECT_THAT(Topology("{{0,4},{1,5},{2,6},{3,7}}"), IsEmpty());
}

TEST(XrefTopologyTest, IotaThatExpandsToTheListPasses) {
  EXPECT_THAT(Topology("[4,2]<=[2,4]T(1,0)"), IsEmpty());
}

TEST(XrefTopologyTest, MeshThatExpandsToTheListPasses) {
  EXPECT_THAT(Topology("mesh['data'=2,'model'=4] {'data'}"), IsEmpty());
}

TEST(XrefTopologyTest, FirstDifferingGroupIsNamedAndLocated) {
  const std::string op = FlatAllReduce("ar", "{{0,4},{1,5},{2,6},{3,7}}");
  std::vector<Finding> f =
      OfRule(RunXref(MakeUnit(Hlo(kHeader, {op}),
                              Def("[[[0, 4], [1, 6], [2, 5], [3, 7]]]"))),
             kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "replica group 1 is {1,5} here but {1,6} in topology[0]");
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 10, RootCol(op, "{1,5}")}));
  EXPECT_EQ(f[0].anchor, "%ar");
  ASSERT_THAT(f[0].notes, SizeIs(2));
  EXPECT_EQ(f[0].notes[0].message, "topology[0] is declared here");
  EXPECT_EQ(f[0].notes[0].loc, (Location{"def.json", 3, 20}));
  EXPECT_EQ(f[0].notes[1].message, "group 1 of topology[0] is {1,6}");
  EXPECT_EQ(f[0].notes[1].loc, (Location{"def.json", 3, 29}));
}

TEST(XrefTopologyTest, DifferentShapeNamesBothShapes) {
  const std::string op = FlatAllReduce("ar", "[2,4]<=[8]");
  std::vector<Finding> f =
      OfRule(RunXref(MakeUnit(Hlo(kHeader, {op}), Def(kNeff))), kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "%ar has 2 groups of 4 but topology[0] has 4 groups of 2");
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 10, RootCol(op, "[2,4]")}));
  ASSERT_THAT(f[0].notes, SizeIs(1));
}

TEST(XrefTopologyTest, SameGroupCountButOtherUniformSizeIsAShapeDifference) {
  std::vector<Finding> f =
      Topology("{{0,1,2,3},{4,5,6,7}}", "[[[0, 1], [2, 3]]]");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "%ar has 2 groups of 4 but topology[0] has 2 groups of 2");
}

TEST(XrefTopologyTest, GroupsInAnotherOrderFail) {
  std::vector<Finding> f = Topology("{{1,5},{0,4},{2,6},{3,7}}");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message,
              HasSubstr("replica group 0 is {1,5} here but {0,4} in "
                        "topology[0] (the same groups in another order"));
}

TEST(XrefTopologyTest, RanksInAnotherOrderFail) {
  std::vector<Finding> f = Topology("{{0,4},{5,1},{2,6},{3,7}}");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message,
              HasSubstr("replica group 1 is {5,1} here but {1,5} in "
                        "topology[0] (the same ranks in another order"));
}

TEST(XrefTopologyTest, NonUniformListsAreDescribedBySizes) {
  std::vector<Finding> f =
      Topology("{{0,1,2},{3,4,5,6,7}}", "[[[0, 1], [2, 3], [4, 5, 6, 7]]]");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "%ar has 2 groups of sizes 3, 5 but topology[0] has 3 groups of "
            "sizes 2, 2, 4");
}

TEST(XrefTopologyTest, EveryCollectiveIsCompared) {
  hlo::Module m = Hlo(kHeader, {FlatAllReduce("a", "{{0,4},{1,5},{2,6},{3,7}}"),
                                FlatAllReduce("b", "{{0,4},{1,5},{2,7},{3,6}}"),
                                FlatAllReduce("c", "[4,2]<=[2,4]T(1,0)")});
  std::vector<Finding> f = OfRule(RunXref(MakeUnit(m, Def(kNeff))), kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].anchor, "%b");
  EXPECT_EQ(f[0].loc.line, 11);
}

TEST(XrefTopologyTest, MoreThanOneTopologyIsNotCompared) {
  EXPECT_THAT(Topology("[2,4]<=[8]",
                       "[[[0, 4], [1, 5], [2, 6], [3, 7]], [[0, 1], [2, 3], "
                       "[4, 5], [6, 7]]]"),
              IsEmpty());
}

TEST(XrefTopologyTest, AnEmptyTopologyIsNotCompared) {
  EXPECT_THAT(Topology("[2,4]<=[8]", "[[]]"), IsEmpty());
}

TEST(XrefTopologyTest, MalformedReplicaGroupsAreNotCompared) {
  // Group 1 has a negative rank: neff-schema reports it, and the topology is
  // left out of the model; comparing would invent a difference.
  EXPECT_THAT(Topology("{{0,4},{1,5},{2,6},{3,7}}",
                       "[[[0, 4], [1, -5], [2, 6], [3, 7]]]"),
              IsEmpty());
}

TEST(XrefTopologyTest, NoTopologyMeansOneGroupOfEveryRank) {
  std::vector<Finding> f = Topology("{{0,4},{1,5},{2,6},{3,7}}", "[]");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "%ar has 4 groups of 2 but the NEFF lists no topology, which "
            "puts every rank in one group");
  EXPECT_THAT(Topology("{{0,1,2,3,4,5,6,7}}", "[]"), IsEmpty());
  // Absent replica_groups reads as no topology too.
  EXPECT_THAT(OfRule(RunXref(MakeUnit(
                         Hlo(kHeader, {FlatAllReduce("ar", "{{0,1},{2,3}}")}),
                         Def("", "[[0, 1]]"))),
                     kRule),
              SizeIs(1));
}

TEST(XrefTopologyTest, EmptyListStandsForOneGroupOfAllParticipants) {
  // Cross-replica (no channel_id) over 4 replicas: {0,1,2,3}.
  const std::string op = AllReduce("ar", "replica_groups={}");
  Unit ok = MakeUnit(Hlo(", replica_count=4", {op}), Def("[[[0, 1, 2, 3]]]"));
  EXPECT_THAT(OfRule(RunXref(ok), kRule), IsEmpty());
  Unit none = MakeUnit(Hlo(", replica_count=4", {op}), Def("[]"));
  EXPECT_THAT(OfRule(RunXref(none), kRule), IsEmpty());

  Unit bad = MakeUnit(Hlo(", replica_count=4", {op}), Def("[[[0, 1, 3, 2]]]"));
  std::vector<Finding> f = OfRule(RunXref(bad), kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message,
              HasSubstr("replica group 0 is {0,1,2,3} here (implied by the "
                        "empty list) but {0,1,3,2} in topology[0]"));
  // An absent list is located at the opcode.
  const std::string absent_op = "%ar = f32[8]{0} all-reduce(%p), to_apply=%add";
  Unit absent = MakeUnit(Hlo(", replica_count=4", {absent_op}),
                         Def("[[[0, 1], [2, 3]]]"));
  f = OfRule(RunXref(absent), kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].loc.column, RootCol(absent_op, "all-reduce("));
  EXPECT_THAT(f[0].message, HasSubstr("%ar has 1 group of 4 (implied by the "
                                      "empty list) but topology[0] has 2 "
                                      "groups of 2"));
}

TEST(XrefTopologyTest, PermutesAreNotComparedWithTopologies) {
  Unit u = MakeUnit(
      Hlo(", num_partitions=4", {Permute("cp", "{{0,1},{1,2},{2,3},{3,0}}")}),
      Def("[[[0, 1], [2, 3]]]", "[[0, 1], [1, 2], [2, 3], [3, 0]]"));
  EXPECT_THAT(OfRule(RunXref(u), kRule), IsEmpty());
}

TEST(XrefTopologyTest, EveryDefJsonAndEveryNeffGraphIsPaired) {
  Unit u;
  u.hlo_modules.push_back(
      Hlo(kHeader, {FlatAllReduce("ar", "{{0,4},{1,5},{2,6},{3,7}}")}));
  u.def_jsons.push_back(Def(kNeff, "", "", "a/def.json"));
  u.def_jsons.push_back(
      Def("[[[0, 1], [2, 3], [4, 5], [6, 7]]]", "", "", "b/def.json"));
  neff::NeffArchive archive;
  archive.file = "x.neff";
  archive.graphs.push_back(Def("[[[0, 4], [1, 5], [2, 6], [3, 8]]]", "", "",
                               "x.neff:sg00/def.json"));
  archive.graphs.push_back(Def(kNeff, "", "", "x.neff:sg01/def.json"));
  u.neff_archives.push_back(std::move(archive));
  std::vector<Finding> f = OfRule(RunXref(u), kRule);
  ASSERT_THAT(f, SizeIs(2));
  EXPECT_EQ(f[0].notes[0].loc.file, "b/def.json");
  EXPECT_EQ(f[1].notes[0].loc.file, "x.neff:sg00/def.json");
  EXPECT_EQ(f[1].message,
            "replica group 3 is {3,7} here but {3,8} in topology[0]");
}

TEST(XrefTopologyTest, DisabledRuleReportsNothing) {
  Unit u =
      MakeUnit(Hlo(kHeader, {FlatAllReduce("ar", "[2,4]<=[8]")}), Def(kNeff));
  EXPECT_THAT(RunXref(u, {}, {"xref-permute-pairs"}), IsEmpty());
}

TEST(XrefTopologyTest, GroupsWithNoMeaningAreLeftToTheHloRules) {
  // An empty list in flattened-id mode names no participants (hlo-empty-group
  // reports it); there is nothing to compare.
  EXPECT_THAT(Topology("{}"), IsEmpty());
}

TEST(XrefTopologyTest, ListsLargerThanAnyNeffAreNotExpanded) {
  // 2^17 ids: more than the 2^16 floor and than topology[0]'s 8 ranks, so
  // the shape comes from the iota itself.
  std::vector<Finding> f = Topology("[2,65536]<=[131072]");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "%ar has 2 groups of 65536 but topology[0] has 4 groups of 2");
  // The implied group of an empty list, likewise.
  Unit u = MakeUnit(
      Hlo(", replica_count=200000", {AllReduce("ar", "replica_groups={}")}),
      Def(kNeff));
  f = OfRule(RunXref(u), kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "%ar has 1 group of 200000 (implied by the empty list) but "
            "topology[0] has 4 groups of 2");
}

}  // namespace
}  // namespace topolint::testing_xref
