// hlo-multiple-geometries.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/rules/hlo/hlo_test_util.h"

namespace topolint::testing_hlo {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using Kind = hlo::CollectiveKind;

// An op of the SPMD flow: flattened-id mode (channel_id and
// use_global_device_ids=true).
hlo::Collective& Spmd(hlo::Collective& op) {
  SetChannel(op);
  SetGlobal(op);
  return op;
}

TEST(HloMultipleGeometriesTest, IotaAndExplicitListThatAgreeAreOne) {
  ModuleBuilder b(1, 8);
  SetIota(Spmd(b.Add(Kind::kAllReduce, "%ar")), 4, 2, {2, 4}, {1, 0});
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%ar2")),
            {{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloMultipleGeometriesTest, TwoListsReportedOnceAtTheSecond) {
  ModuleBuilder b(1, 4);
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%ar")), {{0, 1}, {2, 3}});
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%same")), {{0, 1}, {2, 3}});
  SetGroups(Spmd(b.Add(Kind::kAllGather, "%ag")), {{0, 2}, {1, 3}});
  SetGroups(Spmd(b.Add(Kind::kAllGather, "%ag2")), {{0, 2}, {1, 3}});
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-multiple-geometries"));
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 3, kGroupsCol}));
  EXPECT_THAT(f[0].message,
              HasSubstr("%ag uses replica groups {{0,2},{1,3}} but %ar uses "
                        "{{0,1},{2,3}}"));
  EXPECT_THAT(f[0].message,
              HasSubstr("2 different data-moving group lists in one SPMD "
                        "module would need 2 NEFF topologies"));
  // Both lists have groups of 2: MPMD, but the reader's count check passes.
  EXPECT_THAT(f[0].message, HasSubstr("the worker counts agree (2 each)"));
  ASSERT_EQ(f[0].notes.size(), 1u);
  EXPECT_EQ(f[0].notes[0].loc, (Location{"model.hlo", 1, kGroupsCol}));
  EXPECT_EQ(f[0].anchor, "%ag in %main");
}

TEST(HloMultipleGeometriesTest, CountsDistinctLists) {
  ModuleBuilder b(1, 4);
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%a")), {{0, 1}, {2, 3}});
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%b")), {{0, 2}, {1, 3}});
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%c")), {{0, 1, 2, 3}});
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%d")), {{0, 2}, {1, 3}});
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-multiple-geometries"));
  EXPECT_THAT(f[0].message, HasSubstr("3 different data-moving group lists"));
}

// Lists that take turns, as a module's layers repeat them: each cache entry
// is decided once and its answer recalled (GeometryTracker keeps the last
// few by entry), in cycles shorter and longer than it keeps, forwards and
// backwards; the finding stays at the first differing op and the count of
// distinct lists stays 3.
TEST(HloMultipleGeometriesTest, ListsTakingTurnsAreDecidedAsOnce) {
  struct Spec {
    int64_t g;
    int64_t s;
    std::vector<int64_t> dims;
    std::vector<int64_t> perm;
  };
  // The first eight expand to the first list; the last two differ.
  const std::vector<Spec> specs = {
      {2, 4, {8}, {}},       {2, 4, {2, 4}, {}},    {2, 4, {1, 8}, {}},
      {2, 4, {8, 1}, {}},    {2, 4, {1, 2, 4}, {}}, {2, 4, {2, 1, 4}, {}},
      {2, 4, {2, 4, 1}, {}}, {2, 4, {1, 1, 8}, {}}, {2, 4, {4, 2}, {1, 0}},
      {4, 2, {8}, {}}};
  for (size_t cycle : {9u, 10u}) {
    ModuleBuilder b(1, 8);
    int64_t first_differing_line = 0;
    for (int round = 0; round < 4; ++round) {
      for (size_t k = 0; k < cycle; ++k) {
        const size_t i = round == 2 ? cycle - 1 - k : k;
        const Spec& spec = specs[i];
        SetIota(Spmd(b.Add(Kind::kAllReduce, "%ar")), spec.g, spec.s, spec.dims,
                spec.perm);
        if (i >= 8 && first_differing_line == 0) {
          first_differing_line = static_cast<int64_t>(round * cycle + k + 1);
        }
      }
    }
    std::vector<Finding> f = RunHlo(b.module());
    ASSERT_THAT(Rules(f), ElementsAre("hlo-multiple-geometries")) << cycle;
    EXPECT_EQ(f[0].loc.line, first_differing_line) << cycle;
    EXPECT_THAT(f[0].message,
                HasSubstr(cycle == 9 ? "2 different" : "3 different"))
        << cycle;
  }
}

TEST(HloMultipleGeometriesTest, GroupBoundariesMatterAndWorkerCountsDiffer) {
  ModuleBuilder b(1, 4);
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%a")), {{0, 1, 2, 3}});
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%b")), {{0, 1}, {2, 3}});
  const std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-multiple-geometries"));
  EXPECT_THAT(f[0].message,
              HasSubstr("the NEFF reader would refuse it (\"Inconsistent "
                        "worker count across topologies: 4 vs 2. Possible "
                        "MPMD\")"));
}

TEST(HloMultipleGeometriesTest, ReplicaModeMixOfGroupsIsOutOfScope) {
  // torch_xla replica mode: no channel_id, no partitions; TP, DP and PP
  // groups side by side are normal there.
  ModuleBuilder b;
  SetGroups(b.Add(Kind::kAllReduce, "%tp"), {{0, 1}, {2, 3}});
  SetGroups(b.Add(Kind::kAllGather, "%dp"), {{0, 2}, {1, 3}});
  SetGroups(b.Add(Kind::kAllReduce, "%all"), {{0, 1, 2, 3}});
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloMultipleGeometriesTest, SelfGroupsMoveNoData) {
  ModuleBuilder b(1, 4);
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%self")), {{0}, {1}, {2}, {3}});
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%tp")), {{0, 1}, {2, 3}});
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloMultipleGeometriesTest, CrossPartitionOpsCount) {
  ModuleBuilder b(1, 4);
  hlo::Collective& a2a = b.Add(Kind::kAllToAll, "%a2a");
  SetChannel(a2a);
  SetGroups(a2a, {{0, 1}, {2, 3}});
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%ar")), {{0, 2}, {1, 3}});
  EXPECT_THAT(Rules(RunHlo(b.module())), Contains("hlo-multiple-geometries"));
}

TEST(HloMultipleGeometriesTest, EmptyListsAndPermutesDoNotCount) {
  ModuleBuilder b(1, 4);
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%a")), {{0, 1}, {2, 3}});
  SetChannel(b.Add(Kind::kAllReduce, "%all"));  // absent: everyone
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%empty")), {});
  hlo::Collective& cp = b.Add(Kind::kCollectivePermute, "%cp");
  cp.source_target_pairs.present = true;
  cp.source_target_pairs.pairs = {{0, 1}, {1, 0}};
  // (%all and %empty have findings of their own: mode and empty list.)
  EXPECT_THAT(Rules(RunHlo(b.module())),
              Not(Contains("hlo-multiple-geometries")));
}

TEST(HloMultipleGeometriesTest, PerModule) {
  Unit unit;
  ModuleBuilder a(1, 4), b(1, 4);
  SetGroups(Spmd(a.Add(Kind::kAllReduce, "%a")), {{0, 1}, {2, 3}});
  SetGroups(Spmd(b.Add(Kind::kAllReduce, "%b")), {{0, 2}, {1, 3}});
  unit.hlo_modules = {a.module(), b.module()};
  Emitter emit([](std::string_view) { return true; },
               [](std::string_view) { return Severity::kError; });
  CheckHlo(unit, CheckOptions{}, emit);
  EXPECT_THAT(emit.findings(), IsEmpty());
}

}  // namespace
}  // namespace topolint::testing_hlo
