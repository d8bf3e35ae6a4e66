#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/neff/neff_test_util.h"

namespace topolint {
namespace {

using ::testing::IsEmpty;
using testing_neff::LoadDefJson;

std::vector<Finding> RunLnc(Unit unit, std::optional<int64_t> num_cores,
                            int64_t lnc) {
  CheckOptions options;
  options.num_cores = num_cores;
  options.lnc = lnc;
  Emitter emit = testing_neff::AllRulesEmitter();
  CheckLnc(unit, options, emit);
  return emit.findings();
}

Unit UnitWith(const std::string& def_json) {
  Unit unit;
  unit.def_jsons.push_back(LoadDefJson(def_json, "u/def.json"));
  return unit;
}

TEST(LncRulesTest, NothingWithoutNumCores) {
  EXPECT_THAT(RunLnc(UnitWith(R"({"CCInfo": {"replica_groups": [[[0, 99]]]}})"),
                     std::nullopt, 2),
              IsEmpty());
}

TEST(LncRulesTest, RanksBelowTheLogicalCoreCountAreFine) {
  EXPECT_THAT(
      RunLnc(
          UnitWith(
              R"({"CCInfo": {"replica_groups": [[[0, 1, 2, 3, 4, 5, 6, 7]]]}})"),
          16, 2),
      IsEmpty());
}

TEST(LncRulesTest, RankBeyondTheLogicalCores) {
  std::vector<Finding> f =
      RunLnc(UnitWith("{\"CCInfo\": {\"replica_groups\": [[[0, 1], [8, 9]]],\n"
                      "             \"src_target_pairs\": [[9, 0], [0, 12]]}}"),
             16, 2);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].rule, "lnc-rank-range");
  EXPECT_EQ(f[0].message,
            "rank 8 (replica_groups[0][1][0]) is not below num_cores / lnc = "
            "16 / 2 = 8 (physical cores 16..17 do not exist)");
  EXPECT_EQ(f[0].loc.file, "u/def.json");
  EXPECT_EQ(f[0].loc.line, 1);
  EXPECT_EQ(f[0].loc.column, 42);
  EXPECT_EQ(f[0].anchor, "CCInfo.replica_groups[0][1][0]");
  EXPECT_EQ(f[1].message,
            "rank 9 (replica_groups[0][1][1]) is not below num_cores / lnc = "
            "16 / 2 = 8 (physical cores 18..19 do not exist)");
  // Rank 9 again in the pairs is not repeated; 12 is new.
  EXPECT_EQ(f[2].message,
            "rank 12 (src_target_pairs[1][1]) is not below num_cores / lnc = "
            "16 / 2 = 8 (physical cores 24..25 do not exist)");
  EXPECT_EQ(f[2].loc.line, 2);
  EXPECT_EQ(f[2].loc.column, 47);
}

TEST(LncRulesTest, LncOneNamesOnePhysicalCore) {
  std::vector<Finding> f = RunLnc(
      UnitWith(
          R"({"CCInfo": {"replica_groups": [[[0, 1, 2, 3, 4, 5, 6, 7, 8]]]}})"),
      8, 1);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message,
            "rank 8 (replica_groups[0][0][8]) is not below num_cores / lnc = "
            "8 / 1 = 8 (physical core 8 does not exist)");
}

TEST(LncRulesTest, ArchiveGraphsAreChecked) {
  Unit unit;
  neff::NeffArchive a;
  a.graphs.push_back(LoadDefJson(R"({"CCInfo": {"replica_groups": [[[4]]]}})",
                                 "m.neff:sg01/def.json"));
  unit.neff_archives.push_back(a);
  std::vector<Finding> f = RunLnc(unit, 8, 2);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].loc.file, "m.neff:sg01/def.json");
}

TEST(LncRulesTest, HloExplicitGroupsAndPairs) {
  hlo::Module m;
  m.file = "model.hlo";
  hlo::Collective ar;
  ar.name = "%ar";
  ar.pos = {3, 3};
  ar.replica_groups.SetGroups({{0, 4}, {1, 5}});
  ar.replica_groups.id_layout.Add(0, 0, {3, 60});
  ar.replica_groups.id_layout.Add(1, 4, {3, 62});
  ar.replica_groups.id_layout.Add(2, 1, {3, 66});
  ar.replica_groups.id_layout.Add(3, 5, {3, 68});
  m.collectives.push_back(ar);
  hlo::Collective cp;
  cp.name = "%cp";
  cp.pos = {4, 3};
  cp.kind = hlo::CollectiveKind::kCollectivePermute;
  cp.source_target_pairs.present = true;
  cp.source_target_pairs.pairs = {{0, 1}, {1, 6}};
  cp.source_target_pairs.pair_pos = {{4, 50}, {4, 56}};
  m.collectives.push_back(cp);
  Unit unit;
  unit.hlo_modules.push_back(m);
  std::vector<Finding> f = RunLnc(unit, 8, 2);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].message,
            "rank 4 in replica group 0 of %ar is not below num_cores / lnc = "
            "8 / 2 = 4 (physical cores 8..9 do not exist)");
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 3, 62}));
  EXPECT_EQ(f[0].anchor, "%ar");
  EXPECT_EQ(f[1].loc, (Location{"model.hlo", 3, 68}));
  EXPECT_EQ(f[2].message,
            "rank 6 in source-target pair 1 of %cp is not below num_cores / "
            "lnc = 8 / 2 = 4 (physical cores 12..13 do not exist)");
  EXPECT_EQ(f[2].loc, (Location{"model.hlo", 4, 56}));
}

TEST(LncRulesTest, FewerCoresThanOneLncMeansNoRanks) {
  std::vector<Finding> f =
      RunLnc(UnitWith(R"({"CCInfo": {"replica_groups": [[[0]]]}})"), 1, 2);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message,
            "rank 0 (replica_groups[0][0][0]) is not below num_cores / lnc = "
            "1 / 2 = 0 (physical cores 0..1 do not exist)");
}

}  // namespace
}  // namespace topolint
