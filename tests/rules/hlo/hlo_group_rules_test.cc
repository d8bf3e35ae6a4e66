// hlo-empty-group, hlo-device-id-range, hlo-duplicate-device-id,
// hlo-group-coverage, hlo-nonuniform-groups; cases after XLA's
// hlo_verifier_test.cc (2026-02 wording).
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/diag/temp_dir.h"
#include "tests/rules/hlo/hlo_test_util.h"

namespace topolint::testing_hlo {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Kind = hlo::CollectiveKind;

// MakeAllReduceComputation: R defaults to the ids listed.
hlo::Module AllReduce(std::vector<std::vector<int64_t>> groups,
                      std::optional<int64_t> r = std::nullopt,
                      std::optional<int64_t> p = std::nullopt,
                      bool channel = false, bool global = false) {
  ModuleBuilder b(r, p);
  hlo::Collective& op = b.Add(Kind::kAllReduce, "%crs");
  SetGroups(op, std::move(groups));
  if (channel) SetChannel(op);
  if (global) SetGlobal(op);
  return b.module();
}

TEST(HloGroupRulesTest, NoReplicaGroupsOk) {
  EXPECT_THAT(RunHlo(AllReduce({})), IsEmpty());
  EXPECT_THAT(RunHlo(AllReduce({}, 4, 1, true)), IsEmpty());
}

TEST(HloGroupRulesTest, DifferentGroupSizesOkOnAllReduce) {
  EXPECT_THAT(RunHlo(AllReduce({{0}, {1, 3}, {2}})), IsEmpty());
}

TEST(HloGroupRulesTest, EmptyReplicaGroup) {
  std::vector<Finding> f = RunHlo(AllReduce({{0}, {}}));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-empty-group"));
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 1, GroupCol(1)}));
  EXPECT_THAT(f[0].message, HasSubstr("replica group 1 of %crs is empty"));
  EXPECT_EQ(f[0].anchor, "%crs in %main");
}

TEST(HloGroupRulesTest, OnlyFirstEmptyGroupReported) {
  EXPECT_EQ(Only(RunHlo(AllReduce({{}, {0}, {}})), "hlo-empty-group").size(),
            1u);
}

TEST(HloGroupRulesTest, RepeatedReplicaId) {
  std::vector<Finding> f = RunHlo(AllReduce({{0, 1}, {2, 3}, {4, 0}}));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-duplicate-device-id"));
  EXPECT_THAT(f[0].message, HasSubstr("replica 0 is repeated in %crs's"));
  EXPECT_EQ(f[0].loc.column, IdCol(2, 1));
}

TEST(HloGroupRulesTest, MissingReplicaIdIsOutOfRange2026) {
  // 2025-06 said "Replica 4 is not named"; 2026-02 reports 6 out of range.
  std::vector<Finding> f = RunHlo(AllReduce({{0, 1}, {2, 3}, {5, 6}}));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-device-id-range"));
  EXPECT_THAT(f[0].message,
              HasSubstr("replica 6 is out of range (should be in [0, 6)) in "
                        "%crs's replica groups"));
  EXPECT_EQ(f[0].loc.column, IdCol(2, 1));
}

TEST(HloGroupRulesTest, NegativeId) {
  std::vector<Finding> f = RunHlo(AllReduce({{-1, 0}}));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-device-id-range"));
  EXPECT_THAT(f[0].message, HasSubstr("replica -1 is out of range"));
  EXPECT_EQ(f[0].loc.column, IdCol(0, 0));
}

TEST(HloGroupRulesTest, RangeAndDuplicateEachReportedOnce) {
  // n = 6: 7 and 9 are out of range, 1 repeats twice.
  std::vector<Finding> f = RunHlo(AllReduce({{0, 7, 1}, {1, 9, 1}}));
  EXPECT_EQ(Only(f, "hlo-device-id-range").size(), 1u);
  EXPECT_THAT(Only(f, "hlo-device-id-range")[0].message,
              HasSubstr("replica 7 is out of range"));
  ASSERT_EQ(Only(f, "hlo-duplicate-device-id").size(), 1u);
  EXPECT_EQ(Only(f, "hlo-duplicate-device-id")[0].loc.column, IdCol(1, 0));
}

TEST(HloGroupRulesTest, RepeatedOutOfRangeIdIsARangeProblem) {
  std::vector<Finding> f = RunHlo(AllReduce({{0, 7}, {7, 1}}));
  EXPECT_THAT(Rules(f), ElementsAre("hlo-device-id-range"));
}

TEST(HloGroupRulesTest, NotEnoughReplicasInGroupConfig) {
  std::vector<Finding> f = RunHlo(AllReduce({{0, 1}}, 8));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-group-coverage"));
  EXPECT_THAT(f[0].message,
              HasSubstr("In cross_replica mode, replica groups should contain "
                        "8 replicas, but found 2"));
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 1, kGroupsCol}));
}

TEST(HloGroupRulesTest, TooManyReplicasInGroupConfig) {
  // R = 2 but 4 ids: 2 and 3 are also beyond the 2 replicas.
  std::vector<Finding> f = RunHlo(AllReduce({{0, 1}, {2, 3}}, 2));
  EXPECT_THAT(Rules(f),
              ElementsAre("hlo-device-id-range", "hlo-group-coverage"));
  EXPECT_THAT(f[0].message,
              HasSubstr("replica 2 is out of range (should be in [0, 2))"));
  EXPECT_THAT(f[1].message,
              HasSubstr("should contain 2 replicas, but found 4"));
}

TEST(HloGroupRulesTest, CrossReplicaAndPartition) {
  EXPECT_THAT(
      Only(RunHlo(AllReduce({{0, 1}, {2, 3}}, 2, 1, true)),
           "hlo-group-coverage")
          .at(0)
          .message,
      HasSubstr("In cross_replica_and_partition mode, replica groups should "
                "contain 2 replicas, but found 4"));
  EXPECT_THAT(RunHlo(AllReduce({{0, 1}, {2, 3}}, 4, 1, true)), IsEmpty());
}

TEST(HloGroupRulesTest, FlattenedId) {
  EXPECT_THAT(Only(RunHlo(AllReduce({{0, 1}, {2, 3}}, 1, 2, true, true)),
                   "hlo-group-coverage")
                  .at(0)
                  .message,
              HasSubstr("In flattened_id mode, replica groups should contain 2 "
                        "flattened IDs, but found 4"));
  EXPECT_THAT(RunHlo(AllReduce({{0, 1}, {2, 3}}, 2, 2, true, true)), IsEmpty());
  // An id beyond R*P (and the ids listed) is out of range.
  std::vector<Finding> f =
      RunHlo(AllReduce({{0, 1}, {2, 4}}, 2, 2, true, true));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-device-id-range"));
  EXPECT_THAT(f[0].message, HasSubstr("flattened id 4 is out of range"));
}

TEST(HloGroupRulesTest, EmptyListInFlattenedIdMode) {
  std::vector<Finding> f = RunHlo(AllReduce({}, 2, 2, true, true));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-empty-group"));
  EXPECT_THAT(f[0].message,
              HasSubstr("Replica groups must be specified in flattened-id "
                        "mode"));
  EXPECT_EQ(f[0].loc.column, kGroupsCol);

  // Attribute absent: reported at the opcode.
  ModuleBuilder b(2, 2);
  hlo::Collective& op = b.Add(Kind::kAllGather, "%ag");
  SetChannel(op);
  SetGlobal(op);
  f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-empty-group"));
  EXPECT_EQ(f[0].loc.column, kOpcodeCol);
}

TEST(HloGroupRulesTest, CountFromFlagsWhenHeaderOmitsIt) {
  CheckOptions options;
  options.replica_count = 8;
  EXPECT_THAT(Rules(RunHlo(AllReduce({{0, 1}}), options)),
              ElementsAre("hlo-group-coverage"));
  // The header wins over the flag.
  EXPECT_THAT(RunHlo(AllReduce({{0, 1}}, 2), options), IsEmpty());
}

TEST(HloGroupRulesTest, UniformSizeRequiredExceptAllReduce) {
  for (Kind k : {Kind::kAllGather, Kind::kReduceScatter, Kind::kAllToAll,
                 Kind::kRaggedAllToAll}) {
    ModuleBuilder b;
    hlo::Collective& op = b.Add(k, "%op");
    SetGroups(op, {{0, 1}, {2}, {3, 4}});
    std::vector<Finding> f = Only(RunHlo(b.module()), "hlo-nonuniform-groups");
    ASSERT_EQ(f.size(), 1u) << hlo::CollectiveKindName(k);
    EXPECT_THAT(f[0].message,
                HasSubstr("replica group 1 {2} of %op has 1 ids but group 0 "
                          "has 2"));
    EXPECT_THAT(f[0].message,
                HasSubstr("Replica groups expected to be of uniform size"));
    EXPECT_EQ(f[0].loc.column, GroupCol(1));
  }
  EXPECT_THAT(
      Only(RunHlo(AllReduce({{0, 1}, {2}, {3, 4}})), "hlo-nonuniform-groups"),
      IsEmpty());
}

TEST(HloGroupRulesTest, AllToAllCrossPartition) {
  ModuleBuilder bad(1, 2);
  hlo::Collective& op = bad.Add(Kind::kAllToAll, "%a2a");
  SetGroups(op, {{0, 1}, {2, 3}});
  SetChannel(op);
  op.operand_count = 2;
  EXPECT_THAT(Only(RunHlo(bad.module()), "hlo-group-coverage").at(0).message,
              HasSubstr("In cross_partition mode, replica groups should "
                        "contain 2 partitions, but found 4"));

  ModuleBuilder good(1, 4);
  hlo::Collective& op2 = good.Add(Kind::kAllToAll, "%a2a");
  SetGroups(op2, {{0, 1}, {2, 3}});
  SetChannel(op2);
  op2.operand_count = 2;
  EXPECT_THAT(RunHlo(good.module()), IsEmpty());
}

TEST(HloGroupRulesTest, CollectivePermuteAndSendHaveNoGroupChecks) {
  ModuleBuilder b(2, 2);
  hlo::Collective& cp = b.Add(Kind::kCollectivePermute, "%cp");
  SetChannel(cp);
  b.Add(Kind::kSend, "%send");
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloGroupRulesTest, LargeIotaIsAccepted) {
  ModuleBuilder b(65536);
  hlo::Collective& op = b.Add(Kind::kAllReduce, "%ar");
  SetIota(op, 1, 65536, {65536});
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());

  ModuleBuilder flat(256, 256);
  hlo::Collective& op2 = flat.Add(Kind::kAllGather, "%ag");
  SetIota(op2, 256, 256, {256, 256}, {1, 0});
  SetChannel(op2);
  SetGlobal(op2);
  EXPECT_THAT(RunHlo(flat.module()), IsEmpty());
}

TEST(HloGroupRulesTest, LargeIotaAgainstWrongCount) {
  ModuleBuilder b(1024);
  hlo::Collective& op = b.Add(Kind::kAllReduce, "%ar");
  SetIota(op, 1, 65536, {65536});
  std::vector<Finding> f = RunHlo(b.module());
  EXPECT_THAT(Rules(f),
              ElementsAre("hlo-device-id-range", "hlo-group-coverage"));
  EXPECT_THAT(f[0].message, HasSubstr("replica 1024 is out of range"));
  EXPECT_EQ(f[0].loc.column, kGroupsCol);  // iota: the value itself
}

TEST(HloGroupRulesTest, UnexpandableIotaIsReported) {
  ModuleBuilder b;
  hlo::Collective& op = b.Add(Kind::kAllReduce, "%ar");
  SetIota(op, 2, 4, {6});
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-group-coverage"));
  EXPECT_THAT(f[0].message,
              HasSubstr("%ar's replica groups cannot be expanded: iota "
                        "[2,4]<=[6]"));

  ModuleBuilder huge;
  hlo::Collective& op2 = huge.Add(Kind::kAllReduce, "%ar");
  SetIota(op2, int64_t{1} << 20, int64_t{1} << 20, {1 << 20, 1 << 20}, {1, 0});
  f = RunHlo(huge.module());
  ASSERT_THAT(Rules(f), ElementsAre("hlo-group-coverage"));
  EXPECT_THAT(f[0].message, HasSubstr("the most topolint expands"));
}

TEST(HloGroupRulesTest, MeshGroupsAreExpandedAndLocatedAtTheValue) {
  ModuleBuilder b(2);  // mesh[x=2,y=2] {x} -> {0,2},{1,3}: 4 ids, R = 2
  hlo::Collective& op = b.Add(Kind::kAllReduce, "%ar");
  op.replica_groups.form = hlo::ReplicaGroups::Form::kMesh;
  op.replica_groups.pos = {1, kGroupsCol};
  op.replica_groups.mesh.axes = {{"x", 2}, {"y", 2}};
  op.replica_groups.mesh.grouped = {{"x", 0, 0}};
  std::vector<Finding> f = RunHlo(b.module());
  ASSERT_THAT(Rules(f),
              ElementsAre("hlo-device-id-range", "hlo-group-coverage"));
  EXPECT_THAT(f[0].message, HasSubstr("replica 2 is out of range"));
  EXPECT_EQ(f[0].loc.column, kGroupsCol);
}

TEST(HloGroupRulesTest, CollectiveBroadcastGroupsAreChecked) {
  // Stricter than XLA's verifier: the runtime resolves these groups too.
  ModuleBuilder b;
  SetGroups(b.Add(Kind::kCollectiveBroadcast, "%cb"), {{0, 1}, {1, 0}});
  EXPECT_THAT(Rules(RunHlo(b.module())),
              ElementsAre("hlo-duplicate-device-id"));
}

TEST(HloGroupRulesTest, InvalidModeSkipsCountChecks) {
  // use_global_device_ids=true without channel: only hlo-group-mode and the
  // mode-independent checks apply.
  hlo::Module m = AllReduce({{0, 1}}, 8, 2, false, true);
  EXPECT_THAT(Rules(RunHlo(m)), ElementsAre("hlo-group-mode"));
}

TEST(HloGroupRulesTest, SourceLineNoteOnlyForAFileThatExists) {
  // A file that exists for the user (here: this test's own source, relative
  // to the working directory or absolute) gets a note.
  hlo::Module m = AllReduce({{0}, {}});
  const std::string here = std::string(TOPOLINT_SOURCE_DIR) +
                           "/tests/rules/hlo/hlo_group_rules_test.cc";
  m.collectives[0].source_file = here;
  m.collectives[0].source_line = 42;
  std::vector<Finding> f = RunHlo(m);
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(f[0].notes.size(), 1u);
  EXPECT_EQ(f[0].notes[0].loc, (Location{here, 42, 0}));
  EXPECT_THAT(f[0].notes[0].message, HasSubstr("%crs"));
  // A path from the producer's machine: no note, the position is in the
  // message text.
  m.collectives[0].source_file =
      "/home/ubuntu/venv/lib/python3.10/site-packages/torch_xla/no_such.py";
  f = RunHlo(m);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].notes, IsEmpty());
  EXPECT_THAT(f[0].message,
              HasSubstr("(created at /home/ubuntu/venv/lib/python3.10/"
                        "site-packages/torch_xla/no_such.py:42, as the "
                        "producer recorded it)"));
}

TEST(HloGroupRulesTest, SourceLineNoteFromTheRepositoryRoot) {
  // A relative source path that is neither in the working directory nor
  // beside the module is looked up from the git work tree holding the
  // module, however deep the module is.
  TempDir dir;
  std::filesystem::create_directories(dir.Path("repo/.git"));
  std::filesystem::create_directories(dir.Path("repo/out/deep"));
  std::filesystem::create_directories(dir.Path("repo/src"));
  const std::string source = dir.Write("repo/src/train_gc.py", "");
  hlo::Module m = AllReduce({{0}, {}});
  m.file = dir.Path("repo/out/deep/model.hlo");
  m.collectives[0].source_file = "src/train_gc.py";
  m.collectives[0].source_line = 7;
  std::vector<Finding> f = RunHlo(m);
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(f[0].notes.size(), 1u);
  EXPECT_EQ(f[0].notes[0].loc.file,
            std::filesystem::proximate(source).string());
  // Outside any work tree holding that file: no note.
  m.file = dir.Path("elsewhere/model.hlo");
  f = RunHlo(m);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].notes, IsEmpty());
}

}  // namespace
}  // namespace topolint::testing_hlo
