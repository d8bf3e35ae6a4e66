#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/neff/neff_test_util.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;
using testing_neff::LoadDefJson;
using testing_neff::OfRule;
using testing_neff::RunNeff;

std::vector<Finding> Check(const std::string& def_json) {
  return RunNeff({LoadDefJson(def_json, "m/def.json")});
}

void ExpectAt(const Location& loc, int64_t line, int64_t column) {
  EXPECT_EQ(loc.file, "m/def.json");
  EXPECT_EQ(loc.line, line);
  EXPECT_EQ(loc.column, column);
}

TEST(NeffRulesTest, WorkedExampleIsClean) {
  EXPECT_THAT(Check(R"({"var": {}, "dma_queue": [],
      "CCInfo": {"replica_groups": [[[0, 4], [1, 5], [2, 6], [3, 7]]],
                 "#rank_world_size": 8}})"),
              IsEmpty());
}

TEST(NeffRulesTest, SchemaProblemsAreReportedWithAnchors) {
  std::vector<Finding> f =
      Check("{\"CCInfo\": {\"replica_groups\": [[[0, -3]]]}}");
  std::vector<Finding> schema = OfRule(f, "neff-schema");
  ASSERT_EQ(schema.size(), 1u);
  ExpectAt(schema[0].loc, 1, 37);
  EXPECT_EQ(schema[0].anchor, "CCInfo.replica_groups[0][0][1]");
  EXPECT_THAT(schema[0].message, HasSubstr("is -3"));
  // The malformed topology is not judged by the other rules.
  EXPECT_EQ(f.size(), 1u);
}

TEST(NeffRulesTest, MissingCCInfo) {
  std::vector<Finding> f = Check(R"({"var": {"a": {}}})");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, "neff-schema");
  ExpectAt(f[0].loc, 1, 1);
  EXPECT_THAT(f[0].message, StartsWith("def.json has no CCInfo section"));
}

TEST(NeffRulesTest, EmptyTopology) {
  std::vector<Finding> f =
      Check("{\"CCInfo\": {\"replica_groups\": [[[0, 1]],\n  []]}}");
  std::vector<Finding> empty = OfRule(f, "neff-empty-topology");
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_THAT(empty[0].message,
              StartsWith("Empty topology found at index 1, possible MPMD neff "
                         "file"));
  ExpectAt(empty[0].loc, 2, 3);
  EXPECT_EQ(empty[0].anchor, "CCInfo.replica_groups[1]");
  // Not also "multiple topologies": the empty one is the finding.
  EXPECT_THAT(OfRule(f, "neff-multiple-topologies"), IsEmpty());
}

TEST(NeffRulesTest, EmptyTopologyListIsFine) {
  EXPECT_THAT(Check(R"({"CCInfo": {"replica_groups": []}})"), IsEmpty());
}

TEST(NeffRulesTest, InconsistentWorkerCount) {
  std::vector<Finding> f = Check(
      "{\"CCInfo\": {\"replica_groups\": [\n"
      "  [[0, 1, 2, 3], [4, 5, 6, 7]],\n"
      "  [[0, 4], [1, 5], [2, 6], [3, 7]]]}}");
  std::vector<Finding> bad = OfRule(f, "neff-inconsistent-worker-count");
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_THAT(bad[0].message,
              StartsWith("Inconsistent worker count across topologies: 4 vs "
                         "2. Possible MPMD"));
  ExpectAt(bad[0].loc, 3, 3);
  ASSERT_EQ(bad[0].notes.size(), 1u);
  ExpectAt(bad[0].notes[0].loc, 2, 3);
  EXPECT_THAT(bad[0].notes[0].message, HasSubstr("topology[0]"));
  EXPECT_THAT(OfRule(f, "neff-multiple-topologies"), IsEmpty());
}

TEST(NeffRulesTest, MultipleTopologiesWithAgreeingCounts) {
  std::vector<Finding> f = Check(
      "{\"CCInfo\": {\"replica_groups\": [\n"
      "  [[0, 1], [2, 3]],\n"
      "  [[0, 2], [1, 3]],\n"
      "  [[0, 3], [1, 2]]]}}");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, "neff-multiple-topologies");
  ExpectAt(f[0].loc, 3, 3);
  EXPECT_THAT(f[0].message, HasSubstr("holds 3 topologies"));
  EXPECT_EQ(f[0].anchor, "CCInfo.replica_groups[1]");
  ASSERT_EQ(f[0].notes.size(), 1u);
  ExpectAt(f[0].notes[0].loc, 2, 3);
  EXPECT_EQ(f[0].notes[0].message, "topology[0] is declared here");
}

TEST(NeffRulesTest, RaggedGroupsReportsTheOddGroup) {
  std::vector<Finding> f = Check(
      "{\"CCInfo\": {\"replica_groups\": [[[0, 1], [2, 3, 8], [4, 5], [6, "
      "7]]]}}");
  std::vector<Finding> ragged = OfRule(f, "neff-ragged-groups");
  ASSERT_EQ(ragged.size(), 1u);
  EXPECT_EQ(ragged[0].message,
            "group 1 of topology[0] has 3 ranks but 3 of its 4 groups have 2 "
            "ranks; every group of a topology must be the same size");
  ExpectAt(ragged[0].loc, 1, 41);
  ASSERT_EQ(ragged[0].notes.size(), 1u);
  ExpectAt(ragged[0].notes[0].loc, 1, 33);
  EXPECT_EQ(ragged[0].anchor, "CCInfo.replica_groups[0][1]");
}

TEST(NeffRulesTest, RaggedTwoGroupsComparesWithTheFirst) {
  std::vector<Finding> f =
      Check(R"({"CCInfo": {"replica_groups": [[[0, 1, 2], [3]]]}})");
  std::vector<Finding> ragged = OfRule(f, "neff-ragged-groups");
  ASSERT_EQ(ragged.size(), 1u);
  EXPECT_THAT(ragged[0].message,
              StartsWith("group 1 of topology[0] has 1 rank but group 0 has 3 "
                         "ranks"));
}

TEST(NeffRulesTest, DuplicateRankAcrossGroups) {
  std::vector<Finding> f = Check(
      "{\"CCInfo\": {\"replica_groups\": [[[0, 1],\n"
      "                                  [1, 2]]]}}");
  std::vector<Finding> dup = OfRule(f, "neff-duplicate-rank");
  ASSERT_EQ(dup.size(), 1u);
  EXPECT_EQ(dup[0].message,
            "rank 1 appears in group 0 and again in group 1 of topology[0]; "
            "expected each rank at most once in a topology");
  ExpectAt(dup[0].loc, 2, 36);
  ASSERT_EQ(dup[0].notes.size(), 1u);
  ExpectAt(dup[0].notes[0].loc, 1, 37);
  EXPECT_EQ(dup[0].anchor, "CCInfo.replica_groups[0][1][0]");
}

TEST(NeffRulesTest, DuplicateRankWithinOneGroup) {
  std::vector<Finding> f =
      Check(R"({"CCInfo": {"replica_groups": [[[3, 3]]]}})");
  std::vector<Finding> dup = OfRule(f, "neff-duplicate-rank");
  ASSERT_EQ(dup.size(), 1u);
  EXPECT_THAT(dup[0].message, StartsWith("rank 3 appears twice in group 0"));
}

TEST(NeffRulesTest, SameRankInDifferentTopologiesIsNotADuplicate) {
  std::vector<Finding> f =
      Check(R"({"CCInfo": {"replica_groups": [[[0, 1]], [[1, 0]]]}})");
  EXPECT_THAT(OfRule(f, "neff-duplicate-rank"), IsEmpty());
}

TEST(NeffRulesTest, DuplicatePairEndpoints) {
  std::vector<Finding> f = Check(
      R"({"CCInfo": {"src_target_pairs": [[0, 1], [0, 2], [3, 1], [2, 3]]}})");
  std::vector<Finding> dup = OfRule(f, "neff-duplicate-rank");
  ASSERT_EQ(dup.size(), 2u);
  EXPECT_THAT(dup[0].message,
              StartsWith("rank 0 is the source of src_target_pairs[0] and "
                         "again of src_target_pairs[1]"));
  ExpectAt(dup[0].loc, 1, 43);
  EXPECT_EQ(dup[0].anchor, "CCInfo.src_target_pairs[1][0]");
  ExpectAt(dup[0].notes[0].loc, 1, 35);
  EXPECT_THAT(dup[1].message,
              StartsWith("rank 1 is the target of src_target_pairs[0] and "
                         "again of src_target_pairs[2]"));
  EXPECT_EQ(dup[1].anchor, "CCInfo.src_target_pairs[2][1]");
}

TEST(NeffRulesTest, APermutationRingIsClean) {
  EXPECT_THAT(
      Check(R"({"CCInfo": {"src_target_pairs": [[0, 1], [1, 2], [2, 3], [3, 0]],
                           "#rank_world_size": 4}})"),
      IsEmpty());
}

TEST(NeffRulesTest, WorldSizeSmallerThanTheGroupSize) {
  std::vector<Finding> f = Check(
      "{\"CCInfo\": {\"replica_groups\": [[[0, 1, 2, 3]]],\n"
      "  \"#rank_world_size\": 2}}");
  std::vector<Finding> ws = OfRule(f, "neff-world-size");
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].message,
            "#rank_world_size is 2 but group 0 of topology[0] has 4 ranks; "
            "expected a world size of at least 4");
  ExpectAt(ws[0].loc, 2, 23);
  ASSERT_EQ(ws[0].notes.size(), 1u);
  ExpectAt(ws[0].notes[0].loc, 1, 33);
}

TEST(NeffRulesTest, WorldSizeSmallerThanThePairsSpan) {
  std::vector<Finding> f = Check(
      R"({"CCInfo": {"src_target_pairs": [[0, 7], [7, 0]], "#rank_world_size": 4}})");
  std::vector<Finding> ws = OfRule(f, "neff-world-size");
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_THAT(ws[0].message,
              StartsWith("#rank_world_size is 4 but src_target_pairs[0] uses "
                         "rank 7, so the pairs span 8 ranks"));
}

TEST(NeffRulesTest, WorldSizeAtLeastEverythingIsFine) {
  EXPECT_THAT(Check(R"({"CCInfo": {"replica_groups": [[[0, 1], [2, 3]]],
                                    "src_target_pairs": [[0, 3]],
                                    "#rank_world_size": 4}})"),
              IsEmpty());
  // 0 is the reader's "not given".
  EXPECT_THAT(Check(R"({"CCInfo": {"replica_groups": [[[0, 1]]],
                                    "#rank_world_size": 0}})"),
              IsEmpty());
}

TEST(NeffRulesTest, ArchiveGraphsAndProblemsAreChecked) {
  Unit unit;
  neff::NeffArchive a;
  a.file = "m.neff";
  a.problems.push_back({Location{"m.neff", 0, 0}, "header is too short"});
  a.graphs.push_back(LoadDefJson(R"({"CCInfo": {"replica_groups": [[]]}})",
                                 "m.neff:sg00/def.json"));
  unit.neff_archives.push_back(a);
  Emitter emit = testing_neff::AllRulesEmitter();
  CheckNeff(unit, CheckOptions{}, emit);
  ASSERT_EQ(emit.findings().size(), 2u);
  EXPECT_EQ(emit.findings()[0].rule, "neff-schema");
  EXPECT_EQ(emit.findings()[0].loc.file, "m.neff");
  EXPECT_EQ(emit.findings()[1].rule, "neff-empty-topology");
  EXPECT_EQ(emit.findings()[1].loc.file, "m.neff:sg00/def.json");
}

TEST(NeffRulesTest, DisabledRulesAreNotReported) {
  Unit unit;
  unit.def_jsons.push_back(
      LoadDefJson(R"({"CCInfo": {"replica_groups": [[[0, 0]]]}})"));
  Emitter emit([](std::string_view r) { return r != "neff-duplicate-rank"; },
               [](std::string_view) { return Severity::kError; });
  CheckNeff(unit, CheckOptions{}, emit);
  EXPECT_THAT(emit.findings(), IsEmpty());
}

}  // namespace
}  // namespace topolint
