#include "checker/neff/def_json.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/neff/neff_test_util.h"

namespace topolint::neff {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing_neff::LoadCCInfo;
using testing_neff::LoadDefJson;

void ExpectPos(TextPos pos, int64_t line, int64_t column) {
  EXPECT_EQ(pos.line, line);
  EXPECT_EQ(pos.column, column);
}

TEST(DefJsonTest, IsDefJson) {
  EXPECT_TRUE(IsDefJson(json::Parse(R"({"CCInfo": {}})").root));
  EXPECT_TRUE(IsDefJson(json::Parse(R"({"var": 1, "CCInfo": 3})").root));
  EXPECT_FALSE(IsDefJson(json::Parse(R"({"var": {}})").root));
  EXPECT_FALSE(IsDefJson(json::Parse(R"([{"CCInfo": {}}])").root));
  EXPECT_FALSE(IsDefJson(json::Parse(R"("CCInfo")").root));
}

TEST(DefJsonTest, WellFormedCCInfoWithPositions) {
  const std::string text =
      "{\n"
      "  \"var\": {\"a\": {\"type\": \"input\"}},\n"
      "  \"dma_queue\": [1, 2],\n"
      "  \"CCInfo\": {\n"
      "    \"replica_groups\": [[[0, 4], [1, 5]]],\n"
      "    \"src_target_pairs\": [[0, 1], [1, 0]],\n"
      "    \"#rank_world_size\": 8\n"
      "  }\n"
      "}\n";
  DefJson d = LoadDefJson(text, "x/def.json");
  EXPECT_EQ(d.file, "x/def.json");
  EXPECT_TRUE(d.schema_problems.empty());
  EXPECT_TRUE(d.has_cc_info);
  ExpectPos(d.cc_info_pos, 4, 13);
  EXPECT_TRUE(d.has_replica_groups);
  ExpectPos(d.replica_groups_pos, 5, 23);
  EXPECT_EQ(d.topology_count, 1);
  ASSERT_EQ(d.topologies.size(), 1u);
  EXPECT_TRUE(d.all_topologies_kept());
  const Topology& t = d.topologies[0];
  EXPECT_EQ(t.index, 0);
  ExpectPos(t.pos, 5, 24);
  ASSERT_EQ(t.num_groups(), 2);
  ExpectPos(t.group_pos(1), 5, 33);
  ASSERT_EQ(t.group_size(1), 2);
  EXPECT_EQ(t.rank(1, 1), 5);
  ExpectPos(t.rank_pos(1, 1), 5, 37);
  EXPECT_TRUE(d.has_pairs);
  EXPECT_EQ(d.pair_count, 2);
  ASSERT_EQ(d.pairs.size(), 2u);
  EXPECT_EQ(d.pairs[1].index, 1);
  ExpectPos(d.pairs[1].pos, 6, 34);
  EXPECT_EQ(d.pairs[1].src.value, 1);
  EXPECT_EQ(d.pairs[1].dst.value, 0);
  ExpectPos(d.pairs[1].dst.pos, 6, 38);
  EXPECT_TRUE(d.has_explicit_world_size);
  EXPECT_EQ(d.explicit_world_size.value, 8);
  ExpectPos(d.explicit_world_size.pos, 7, 25);
}

TEST(DefJsonTest, MissingCCInfoIsASchemaProblemAtTheStart) {
  DefJson d = LoadDefJson("\n  {\"var\": {}, \"dma_queue\": []}");
  EXPECT_FALSE(d.has_cc_info);
  ASSERT_EQ(d.schema_problems.size(), 1u);
  ExpectPos(d.schema_problems[0].pos, 1, 1);
  EXPECT_EQ(d.schema_problems[0].message,
            "def.json has no CCInfo section; expected \"CCInfo\": "
            "{\"replica_groups\": [...]}");
  EXPECT_EQ(d.schema_problems[0].anchor, "CCInfo");
}

TEST(DefJsonTest, DocumentThatIsNotAnObject) {
  DefJson d = LoadDefJson(" [1, 2]");
  ASSERT_EQ(d.schema_problems.size(), 1u);
  ExpectPos(d.schema_problems[0].pos, 1, 2);
  EXPECT_THAT(d.schema_problems[0].message,
              StartsWith("def.json is an array; expected an object"));
}

TEST(DefJsonTest, CCInfoNotAnObject) {
  DefJson d = LoadDefJson(R"({"CCInfo": [[[0, 1]]]})");
  EXPECT_TRUE(d.has_cc_info);
  ASSERT_EQ(d.schema_problems.size(), 1u);
  ExpectPos(d.schema_problems[0].pos, 1, 12);
  EXPECT_THAT(d.schema_problems[0].message,
              StartsWith("CCInfo is an array; expected an object"));
  EXPECT_TRUE(d.topologies.empty());
}

TEST(DefJsonTest, AbsentReplicaGroupsIsNoTopologiesAndNoProblem) {
  DefJson d = LoadCCInfo(R"({"src_target_pairs": [[0, 1]]})");
  EXPECT_TRUE(d.schema_problems.empty());
  EXPECT_FALSE(d.has_replica_groups);
  EXPECT_EQ(d.topology_count, 0);
  EXPECT_TRUE(d.topologies.empty());
  EXPECT_EQ(d.pairs.size(), 1u);
}

TEST(DefJsonTest, ReplicaGroupsNotAnArray) {
  DefJson d = LoadCCInfo(R"({"replica_groups": {"0": [0, 1]}})");
  ASSERT_EQ(d.schema_problems.size(), 1u);
  EXPECT_EQ(d.schema_problems[0].message,
            "replica_groups is an object; expected a 3-D array "
            "[topology][group][rank]");
  EXPECT_EQ(d.schema_problems[0].anchor, "CCInfo.replica_groups");
}

TEST(DefJsonTest, TwoDimensionalReplicaGroupsIsOneProblem) {
  DefJson d = LoadCCInfo(R"({"replica_groups": [[0, 1], [2, 3]]})");
  ASSERT_EQ(d.schema_problems.size(), 1u);
  EXPECT_THAT(d.schema_problems[0].message,
              StartsWith("replica_groups is a 2-D list [group][rank]; "
                         "expected 3-D [topology][group][rank]"));
  EXPECT_EQ(d.schema_problems[0].anchor, "CCInfo.replica_groups");
  ExpectPos(d.schema_problems[0].pos, 2, 30);
  EXPECT_EQ(d.topology_count, 2);
  EXPECT_TRUE(d.topologies.empty());
  EXPECT_FALSE(d.all_topologies_kept());
}

TEST(DefJsonTest, TopologyThatIsAListOfRanks) {
  DefJson d = LoadCCInfo(R"({"replica_groups": [[[0, 1]], [2, 3]]})");
  ASSERT_EQ(d.schema_problems.size(), 1u);
  EXPECT_THAT(d.schema_problems[0].message,
              StartsWith("replica_groups[1] is a list of ranks, not of "
                         "groups; expected replica_groups to be 3-D"));
  EXPECT_EQ(d.schema_problems[0].anchor, "CCInfo.replica_groups[1]");
  ASSERT_EQ(d.topologies.size(), 1u);
  EXPECT_EQ(d.topologies[0].index, 0);
}

TEST(DefJsonTest, BadTopologyAndGroupElements) {
  DefJson d = LoadCCInfo(R"({"replica_groups": [5, [[0], "x"]]})");
  ASSERT_EQ(d.schema_problems.size(), 2u);
  EXPECT_EQ(d.schema_problems[0].message,
            "replica_groups[0] is 5; expected a topology (an array of groups, "
            "each an array of ranks)");
  EXPECT_EQ(d.schema_problems[1].message,
            "replica_groups[1][1] is the string \"x\"; expected a group (an "
            "array of ranks)");
  EXPECT_EQ(d.schema_problems[1].anchor, "CCInfo.replica_groups[1][1]");
}

TEST(DefJsonTest, EveryKindOfBadRankIsLocated) {
  const std::string text =
      "{\"CCInfo\": {\"replica_groups\": [[\n"
      "  [0, -1, 1.5, \"3\", true, null, 2.0, [4], 4294967296,\n"
      "   99999999999999999999, 18446744073709551615, NaN]\n"
      "]]}}";
  DefJson d = LoadDefJson(text);
  const std::vector<SchemaProblem>& p = d.schema_problems;
  ASSERT_EQ(p.size(), 11u);
  EXPECT_EQ(p[0].message,
            "rank replica_groups[0][0][1] is -1; expected a non-negative "
            "integer");
  ExpectPos(p[0].pos, 2, 7);
  EXPECT_EQ(p[0].anchor, "CCInfo.replica_groups[0][0][1]");
  EXPECT_THAT(p[1].message, HasSubstr("is 1.5, a floating-point number;"));
  ExpectPos(p[1].pos, 2, 11);
  EXPECT_THAT(p[2].message, HasSubstr("is the string \"3\";"));
  EXPECT_THAT(p[3].message, HasSubstr("is true, a boolean;"));
  EXPECT_THAT(p[4].message, HasSubstr("is null;"));
  EXPECT_THAT(p[5].message, HasSubstr("is 2.0, a floating-point number;"));
  EXPECT_THAT(p[6].message, HasSubstr("is an array;"));
  EXPECT_EQ(p[7].message,
            "rank replica_groups[0][0][8] is 4294967296; expected a "
            "non-negative integer no larger than 2147483647");
  EXPECT_THAT(p[8].message, HasSubstr("is 99999999999999999999; expected a "
                                      "non-negative integer no larger"));
  ExpectPos(p[8].pos, 3, 4);
  EXPECT_THAT(p[9].message, HasSubstr("is 18446744073709551615; expected a "
                                      "non-negative integer no larger"));
  EXPECT_THAT(p[10].message, HasSubstr("is NaN, a floating-point number"));
  EXPECT_EQ(d.topology_count, 1);
  EXPECT_TRUE(d.topologies.empty());
}

TEST(DefJsonTest, MalformedTopologyIsLeftOutButIndicesAreKept) {
  DefJson d =
      LoadCCInfo(R"({"replica_groups": [[[0, "1"]], [[0, 1]], [[2, 3]]]})");
  ASSERT_EQ(d.schema_problems.size(), 1u);
  EXPECT_EQ(d.topology_count, 3);
  ASSERT_EQ(d.topologies.size(), 2u);
  EXPECT_EQ(d.topologies[0].index, 1);
  EXPECT_EQ(d.topologies[1].index, 2);
  EXPECT_EQ(d.topologies[1].rank(0, 0), 2);
}

TEST(DefJsonTest, EmptyTopologiesAndGroupsAreWellFormed) {
  DefJson d = LoadCCInfo(R"({"replica_groups": [[], [[]]]})");
  EXPECT_TRUE(d.schema_problems.empty());
  ASSERT_EQ(d.topologies.size(), 2u);
  EXPECT_TRUE(d.topologies[0].empty());
  ASSERT_EQ(d.topologies[1].num_groups(), 1);
  EXPECT_EQ(d.topologies[1].group_size(0), 0);
}

TEST(DefJsonTest, BadPairs) {
  DefJson d = LoadCCInfo(
      R"({"src_target_pairs": [[0, 1], [2], 3, [1, -2], ["0", 1.5], [4, 5, 6]]})");
  const std::vector<SchemaProblem>& p = d.schema_problems;
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0].message,
            "src_target_pairs[1] is an array of 1 element; expected a [src, "
            "dst] pair of ranks");
  EXPECT_EQ(p[1].message,
            "src_target_pairs[2] is 3; expected a [src, dst] pair of ranks");
  EXPECT_EQ(p[2].message,
            "src_target_pairs[3][1] (dst) is -2; expected a non-negative "
            "integer rank");
  EXPECT_EQ(p[2].anchor, "CCInfo.src_target_pairs[3][1]");
  EXPECT_THAT(p[3].message, StartsWith("src_target_pairs[4][0] (src) is the "
                                       "string \"0\""));
  EXPECT_THAT(p[4].message, StartsWith("src_target_pairs[4][1] (dst) is 1.5"));
  EXPECT_EQ(p[5].message,
            "src_target_pairs[5] is an array of 3 elements; expected a [src, "
            "dst] pair of ranks");
  EXPECT_EQ(d.pair_count, 6);
  ASSERT_EQ(d.pairs.size(), 1u);
  EXPECT_EQ(d.pairs[0].index, 0);
}

TEST(DefJsonTest, PairsNotAnArray) {
  DefJson d = LoadCCInfo(R"({"src_target_pairs": "0->1"})");
  ASSERT_EQ(d.schema_problems.size(), 1u);
  EXPECT_THAT(d.schema_problems[0].message,
              StartsWith("src_target_pairs is the string \"0->1\"; expected an "
                         "array of [src, dst] pairs"));
}

TEST(DefJsonTest, BadExplicitWorldSize) {
  for (const char* bad : {"\"8\"", "-8", "8.0", "null", "[8]"}) {
    DefJson d = LoadCCInfo(std::string(R"({"#rank_world_size": )") + bad + "}");
    ASSERT_EQ(d.schema_problems.size(), 1u) << bad;
    EXPECT_THAT(d.schema_problems[0].message,
                StartsWith("#rank_world_size is "));
    EXPECT_THAT(d.schema_problems[0].message,
                HasSubstr("expected a non-negative integer"));
    EXPECT_EQ(d.schema_problems[0].anchor, "CCInfo.#rank_world_size");
    EXPECT_FALSE(d.has_explicit_world_size);
  }
  DefJson ok = LoadCCInfo(R"({"#rank_world_size": 0})");
  EXPECT_TRUE(ok.schema_problems.empty());
  EXPECT_TRUE(ok.has_explicit_world_size);
  EXPECT_EQ(ok.explicit_world_size.value, 0);
}

TEST(DefJsonTest, DuplicateKeysUseTheLastAndAreReported) {
  DefJson d = LoadDefJson(
      "{\"CCInfo\": {\"replica_groups\": [[[0]]],\n"
      "             \"replica_groups\": [[[0, 1]]]}}");
  ASSERT_EQ(d.schema_problems.size(), 1u);
  ExpectPos(d.schema_problems[0].pos, 2, 14);
  EXPECT_THAT(
      d.schema_problems[0].message,
      StartsWith("CCInfo has \"replica_groups\" twice (first at 1:13)"));
  ASSERT_EQ(d.topologies.size(), 1u);
  EXPECT_EQ(d.topologies[0].group_size(0), 2);
}

TEST(DefJsonTest, ProblemsAreCappedWithASummary) {
  std::string group = "[";
  for (int i = 0; i < 80; ++i) group += (i ? ",-1" : "-1");
  group += "]";
  DefJson d = LoadCCInfo("{\"replica_groups\": [[" + group + "]]}");
  ASSERT_EQ(d.schema_problems.size(), kMaxSchemaProblems + 1);
  EXPECT_EQ(d.schema_problems.back().message,
            "30 more schema problems in this file not shown");
}

}  // namespace
}  // namespace topolint::neff
