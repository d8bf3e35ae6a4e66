#include "checker/model/world_size.h"

#include <string>

#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::model {
namespace {

using Kind = MpmdError::Kind;

neff::DefJson Load(const std::string& cc_info) {
  json::ParseResult r = json::Parse("{\"CCInfo\": " + cc_info + "}");
  EXPECT_TRUE(r.ok) << r.error.message;
  return neff::BuildDefJson(r.root, "def.json");
}

TEST(WorldSizeTest, EmptyTopologyListIsWorldOne) {
  WorldSize ws = ComputeWorldSize(Load(R"({"replica_groups": []})"));
  EXPECT_TRUE(ws.ok());
  EXPECT_EQ(ws.ws_rg, 0);
  EXPECT_EQ(ws.ws_pairs, 0);
  EXPECT_EQ(ws.ws_expl, 0);
  EXPECT_EQ(ws.world_size, 1);
  EXPECT_TRUE(ws.per_topology.empty());
}

TEST(WorldSizeTest, AbsentReplicaGroupsIsNoTopologies) {
  WorldSize ws = ComputeWorldSize(Load(R"({"#rank_world_size": 4})"));
  EXPECT_TRUE(ws.ok());
  EXPECT_EQ(ws.ws_rg, 0);
  EXPECT_EQ(ws.world_size, 4);
}

TEST(WorldSizeTest, RankModelWorkedExampleIsWorldTwo) {
  // docs/reference/rank-model.md §6: the strided all-reduce of a 2x4 mesh.
  WorldSize ws = ComputeWorldSize(
      Load(R"({"replica_groups": [[[0, 4], [1, 5], [2, 6], [3, 7]]]})"));
  EXPECT_TRUE(ws.ok());
  ASSERT_EQ(ws.per_topology.size(), 1u);
  EXPECT_EQ(ws.per_topology[0].workers, 2);
  EXPECT_EQ(ws.ws_rg, 2);
  EXPECT_EQ(ws.world_size, 2);
}

TEST(WorldSizeTest, OneTopologyUsesTheLargestGroup) {
  WorldSize ws = ComputeWorldSize(
      Load(R"({"replica_groups": [[[0], [1, 2, 3], [4, 5]]]})"));
  EXPECT_TRUE(ws.ok());
  EXPECT_EQ(ws.ws_rg, 3);
  EXPECT_EQ(ws.world_size, 3);
}

TEST(WorldSizeTest, VeryLargeGroups) {
  std::string group = "[";
  for (int i = 0; i < 100000; ++i) {
    if (i > 0) group += ",";
    group += std::to_string(i);
  }
  group += "]";
  WorldSize ws = ComputeWorldSize(Load("{\"replica_groups\": [[" + group +
                                       "]], \"src_target_pairs\": [[0, "
                                       "99999]]}"));
  EXPECT_TRUE(ws.ok());
  EXPECT_EQ(ws.ws_rg, 100000);
  EXPECT_EQ(ws.ws_pairs, 100000);
  EXPECT_EQ(ws.world_size, 100000);
}

TEST(WorldSizeTest, EmptyTopologyIsAnError) {
  neff::DefJson d = Load(R"({"replica_groups": [[[0, 1]], []]})");
  WorldSize ws = ComputeWorldSize(d);
  ASSERT_EQ(ws.errors.size(), 1u);
  const MpmdError& e = ws.errors[0];
  EXPECT_EQ(e.kind, Kind::kEmptyTopology);
  EXPECT_EQ(e.topology_index, 1);
  EXPECT_EQ(e.pos.line, d.topologies[1].pos.line);
  EXPECT_EQ(e.pos.column, d.topologies[1].pos.column);
}

TEST(WorldSizeTest, EmptyFirstTopology) {
  WorldSize ws = ComputeWorldSize(Load(R"({"replica_groups": [[]]})"));
  ASSERT_EQ(ws.errors.size(), 1u);
  EXPECT_EQ(ws.errors[0].kind, Kind::kEmptyTopology);
  EXPECT_EQ(ws.errors[0].topology_index, 0);
  EXPECT_EQ(ws.world_size, 1);
}

TEST(WorldSizeTest, InconsistentWorkerCountNamesBothCounts) {
  neff::DefJson d =
      Load(R"({"replica_groups": [[[0, 1, 2, 3]], [[0, 2], [1, 3]]]})");
  WorldSize ws = ComputeWorldSize(d);
  ASSERT_EQ(ws.errors.size(), 1u);
  const MpmdError& e = ws.errors[0];
  EXPECT_EQ(e.kind, Kind::kInconsistentWorkerCount);
  EXPECT_EQ(e.topology_index, 1);
  EXPECT_EQ(e.a, 4);
  EXPECT_EQ(e.b, 2);
  EXPECT_EQ(e.previous_index, 0);
  EXPECT_EQ(e.previous_pos.column, d.topologies[0].pos.column);
  EXPECT_EQ(e.pos.column, d.topologies[1].pos.column);
  // Refuse, not reconcile: the largest is reported but the error stays.
  EXPECT_EQ(ws.ws_rg, 4);
  EXPECT_FALSE(ws.ok());
}

TEST(WorldSizeTest, EachChangeOfWorkerCountIsOneError) {
  WorldSize ws = ComputeWorldSize(
      Load(R"({"replica_groups": [[[0, 1, 2, 3]], [[0, 1]], [[2, 3]]]})"));
  ASSERT_EQ(ws.errors.size(), 1u);
  EXPECT_EQ(ws.errors[0].topology_index, 1);

  ws = ComputeWorldSize(Load(
      R"({"replica_groups": [[[0, 1, 2, 3]], [[0, 1]], [[0, 1, 2, 3]]]})"));
  ASSERT_EQ(ws.errors.size(), 2u);
  EXPECT_EQ(ws.errors[1].topology_index, 2);
  EXPECT_EQ(ws.errors[1].a, 2);
  EXPECT_EQ(ws.errors[1].b, 4);
  EXPECT_EQ(ws.errors[1].previous_index, 1);
}

TEST(WorldSizeTest, AgreeingTopologiesAreNotAnError) {
  WorldSize ws = ComputeWorldSize(
      Load(R"({"replica_groups": [[[0, 1], [2, 3]], [[0, 2], [1, 3]]]})"));
  EXPECT_TRUE(ws.ok());
  EXPECT_EQ(ws.per_topology.size(), 2u);
  EXPECT_EQ(ws.world_size, 2);
}

TEST(WorldSizeTest, ZeroWorkerTopologyFirstIsNotCompared) {
  // The reader compares only when its running count is not 0.
  WorldSize ws =
      ComputeWorldSize(Load(R"({"replica_groups": [[[]], [[0, 1]]]})"));
  EXPECT_TRUE(ws.ok());
  EXPECT_EQ(ws.ws_rg, 2);
  ws = ComputeWorldSize(Load(R"({"replica_groups": [[[0, 1]], [[]]]})"));
  ASSERT_EQ(ws.errors.size(), 1u);
  EXPECT_EQ(ws.errors[0].a, 2);
  EXPECT_EQ(ws.errors[0].b, 0);
}

TEST(WorldSizeTest, PairsAndExplicitSizeTakePart) {
  WorldSize ws = ComputeWorldSize(Load(
      R"({"replica_groups": [[[0, 1]]], "src_target_pairs": [[0, 5], [5, 0]]})"));
  EXPECT_EQ(ws.ws_pairs, 6);
  EXPECT_EQ(ws.world_size, 6);
  ws = ComputeWorldSize(
      Load(R"({"replica_groups": [[[0, 1]]], "#rank_world_size": 16})"));
  EXPECT_EQ(ws.ws_expl, 16);
  EXPECT_EQ(ws.world_size, 16);
  ws = ComputeWorldSize(Load(R"({"src_target_pairs": []})"));
  EXPECT_EQ(ws.ws_pairs, 0);
  EXPECT_EQ(ws.world_size, 1);
}

TEST(WorldSizeTest, MalformedEntriesAreLeftToTheSchema) {
  // Topology 0 holds a negative rank and a float: a schema problem, so it is
  // not counted and cannot cause an inconsistency.
  neff::DefJson d = Load(R"({"replica_groups": [[[0, -1, 2.5, 7]], [[0, 1, 2]]],
               "src_target_pairs": [[0, "1"], [2, 3]]})");
  EXPECT_FALSE(d.schema_problems.empty());
  WorldSize ws = ComputeWorldSize(d);
  EXPECT_TRUE(ws.ok());
  ASSERT_EQ(ws.per_topology.size(), 1u);
  EXPECT_EQ(ws.per_topology[0].topology_index, 1);
  EXPECT_EQ(ws.ws_rg, 3);
  EXPECT_EQ(ws.ws_pairs, 4);
  EXPECT_EQ(ws.world_size, 4);
}

TEST(WorldSizeTest, PairsSpanOfNothingIsZero) {
  EXPECT_EQ(PairsSpan({}), 0);
  neff::Pair p;
  p.src.value = 0;
  p.dst.value = 0;
  EXPECT_EQ(PairsSpan({p}), 1);
}

}  // namespace
}  // namespace topolint::model
