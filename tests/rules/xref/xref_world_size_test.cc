// xref-world-size on hand-built units.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/rules/xref/xref_test_util.h"

namespace topolint::testing_xref {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

constexpr char kRule[] = "xref-world-size";
constexpr char kHeader[] = ", replica_count=1, num_partitions=8";
constexpr char kNeff[] = "[[[0, 4], [1, 5], [2, 6], [3, 7]]]";
constexpr char kGroups[] = "{{0,4},{1,5},{2,6},{3,7}}";

std::vector<Finding> WorldSize(const neff::DefJson& def,
                               const std::string& header = kHeader,
                               const std::string& groups = kGroups,
                               const CheckOptions& options = {}) {
  return OfRule(
      RunXref(MakeUnit(Hlo(header, {FlatAllReduce("ar", groups)}), def),
              options),
      kRule);
}

TEST(XrefWorldSizeTest, RankModelExamplePasses) {
  // docs/reference/rank-model.md §6: world size max(2, 0, 0, 1) = 2 = group
  // size.
  EXPECT_THAT(WorldSize(Def(kNeff)), IsEmpty());
  EXPECT_THAT(WorldSize(Def(kNeff, "", "2")), IsEmpty());
}

TEST(XrefWorldSizeTest, ExplicitWorldSizeAboveTheGroupSizeIsValid) {
  // docs/reference/rank-model.md §4: the op is compared with ws_rg of
  // topology[0] (2), not with the world size (8).
  EXPECT_THAT(WorldSize(Def(kNeff, "", "8")), IsEmpty());
}

TEST(XrefWorldSizeTest, PairsSpanAboveTheGroupSizeIsValid) {
  // A permute ring beside a TP all-reduce: ws_pairs 4 > group size 2.
  EXPECT_THAT(WorldSize(Def(kNeff, "[[0, 1], [1, 3]]")), IsEmpty());
}

TEST(XrefWorldSizeTest, AShapeMismatchAloneIsLeftToTopologyMismatch) {
  // topology[0] has groups of 4, the op of 2: xref-topology-mismatch says
  // so; xref-world-size adds nothing.
  neff::DefJson def = Def("[[[0, 1, 2, 3], [4, 5, 6, 7]]]");
  std::vector<Finding> all =
      RunXref(MakeUnit(Hlo(kHeader, {FlatAllReduce("ar", kGroups)}), def));
  EXPECT_THAT(OfRule(all, "xref-topology-mismatch"), SizeIs(1));
  EXPECT_THAT(OfRule(all, kRule), IsEmpty());
  // With xref-topology-mismatch off, xref-world-size tells it.
  std::vector<Finding> only = RunXref(
      MakeUnit(Hlo(kHeader, {FlatAllReduce("ar", kGroups)}), def), {}, {kRule});
  ASSERT_THAT(only, SizeIs(1));
  EXPECT_EQ(only[0].message,
            "%ar has groups of 2 ranks but ws_rg of topology[0] (its largest "
            "group) is 4; expected the op's group size");
  EXPECT_EQ(only[0].loc.file, "model.hlo");
  EXPECT_EQ(only[0].loc.line, 10);
  ASSERT_THAT(only[0].notes, SizeIs(1));
  EXPECT_EQ(only[0].notes[0].message, "topology[0] has groups of 4 ranks");
  EXPECT_EQ(only[0].notes[0].loc.file, "def.json");
}

TEST(XrefWorldSizeTest, NonUniformGroupsUseTheLargest) {
  std::vector<Finding> f = OfRule(
      RunXref(
          MakeUnit(Hlo(kHeader, {FlatAllReduce("ar", "{{0,1,2},{3,4,5,6,7}}")}),
                   Def("[[[0, 1, 2, 3], [4, 5, 6, 7]]]")),
          {}, {kRule}),
      kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message, HasSubstr("has groups of up to 5 ranks"));
}

TEST(XrefWorldSizeTest, EmptyFlattenedTopologyBoundsNoGroupSize) {
  // `[[[]]]`: every core participates; no group size to compare.
  EXPECT_THAT(
      OfRule(RunXref(MakeUnit(Hlo(kHeader, {FlatAllReduce("ar", kGroups)}),
                              Def("[[[]]]")),
                     {}, {kRule}),
             kRule),
      IsEmpty());
}

TEST(XrefWorldSizeTest, NeffRankOutsideTheDeviceSpace) {
  // 4 devices; the NEFF's pairs name rank 5.
  std::vector<Finding> f =
      WorldSize(Def("[[[0, 1], [2, 3]]]", "[[3, 5]]", "2"),
                ", replica_count=1, num_partitions=4", "{{0,1},{2,3}}");
  ASSERT_THAT(f, SizeIs(1));
  const Finding* range = nullptr;
  for (const Finding& x : f) {
    if (x.loc.file == "def.json") range = &x;
  }
  ASSERT_NE(range, nullptr);
  EXPECT_EQ(range->message,
            "rank 5 of src_target_pairs[0] is outside the device space [0, 4) "
            "(replica_count 1 x num_partitions 4) of model.hlo");
  EXPECT_EQ(range->anchor, "CCInfo.src_target_pairs[0]");
  ASSERT_THAT(range->notes, SizeIs(1));
  EXPECT_EQ(range->notes[0].message, "the HLO module has 4 devices");
  EXPECT_EQ(range->notes[0].loc.file, "model.hlo");
  EXPECT_EQ(range->notes[0].loc.line, 1);
}

TEST(XrefWorldSizeTest, OneFindingPerTopologyCountsTheOthers) {
  Unit u = MakeUnit(
      Hlo(", num_partitions=4", {Permute("cp", "{{0,1},{1,2},{2,3},{3,0}}")}),
      Def("[[[0, 4], [1, 5], [2, 6], [3, 7]]]",
          "[[0, 1], [1, 2], [2, 3], [3, 0]]"));
  std::vector<Finding> f = OfRule(RunXref(u), kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "rank 4 of topology[0] group 0 is outside the device space [0, 4) "
            "(replica_count 1 x num_partitions 4) of model.hlo; 3 more ranks "
            "of topology[0] are outside too");
  EXPECT_EQ(f[0].loc, (Location{"def.json", 3, 25}));
  EXPECT_EQ(f[0].anchor, "CCInfo.replica_groups[0][0][1]");
}

TEST(XrefWorldSizeTest, DeviceCountFromTheCommandLineIsSaid) {
  CheckOptions o;
  o.num_partitions = 4;
  std::vector<Finding> f = WorldSize(Def("[[[0, 1], [2, 3]]]", "[[3, 5]]", "2"),
                                     "", "{{0,1},{2,3}}", o);
  ASSERT_THAT(f, SizeIs(1));
  bool found = false;
  for (const Finding& x : f) {
    if (x.loc.file != "def.json") continue;
    found = true;
    EXPECT_THAT(x.notes[0].message,
                HasSubstr("4 devices (counts from --replica-count"));
  }
  EXPECT_TRUE(found);
}

TEST(XrefWorldSizeTest, ASingleDeviceModuleDoesNotBoundRanks) {
  // No counts anywhere: as XLA's verifier, ids are not bounded.
  EXPECT_THAT(WorldSize(Def(kNeff), ""), IsEmpty());
}

TEST(XrefWorldSizeTest, ExplicitWorldSizeBeyondTheDevicesOfAPermuteModule) {
  Unit u = MakeUnit(
      Hlo(", num_partitions=4", {Permute("cp", "{{0,1},{1,2},{2,3},{3,0}}")}),
      Def("[]", "[[0, 1], [1, 2], [2, 3], [3, 0]]", "16"));
  std::vector<Finding> f = OfRule(RunXref(u), kRule);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].message,
            "#rank_world_size is 16 but model.hlo has only 4 devices");
  EXPECT_EQ(f[0].anchor, "CCInfo.#rank_world_size");
}

TEST(XrefWorldSizeTest, MpmdNeffHasNoWorldSizeToCompare) {
  EXPECT_THAT(WorldSize(Def("[[[0, 4], [1, 5]], [[0, 1, 2, 3]]]", "", "8")),
              IsEmpty());
  EXPECT_THAT(WorldSize(Def("[[]]", "", "8")), IsEmpty());
}

TEST(XrefWorldSizeTest, MalformedWorldSizeIsNotCompared) {
  EXPECT_THAT(WorldSize(Def(kNeff, "", "\"8\"")), IsEmpty());
}

}  // namespace
}  // namespace topolint::testing_xref
