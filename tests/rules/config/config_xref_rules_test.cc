// CheckConfigXref: config-world-size and xref-config-groups.
#include <string>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/families.h"
#include "tests/config/config_test_util.h"
#include "tests/neff/neff_test_util.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

constexpr char kVllmTp8Dp4[] =
    R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
        "kv_transfer_config": {"kv_role": "kv_consumer"},
        "neuron_config": {"attention_dp_size": 4, "mlp_dp_size": 2}})";

std::string Module(const std::string& header, const std::string& ops) {
  return "HloModule m, " + header +
         "\n\nENTRY %main (p: f32[8]) -> f32[8] {\n"
         "  %p = f32[8]{0} parameter(0)\n" +
         ops + "}\n";
}

std::string AllReduce(const std::string& name, const std::string& groups,
                      bool root = false) {
  return std::string("  ") + (root ? "ROOT " : "") + "%" + name +
         " = f32[8]{0} all-reduce(f32[8]{0} %p), channel_id=1, "
         "replica_groups=" +
         groups + ", use_global_device_ids=true, to_apply=%add\n";
}

std::vector<Finding> RunXref(std::string_view config, const std::string& hlo,
                             const CheckOptions& options = {}) {
  Unit unit;
  unit.configs.push_back(config::testing::ConfigFromText(config, "c.json"));
  unit.hlo_modules.push_back(hlo::ParseHloText(hlo, "m.hlo"));
  EXPECT_THAT(unit.hlo_modules[0].syntax_errors, IsEmpty());
  Emitter emit([](std::string_view) { return true; },
               [](std::string_view) { return Severity::kError; });
  CheckConfigXref(unit, options, emit);
  return emit.findings();
}

TEST(ConfigWorldSizeTest, MatchingCountsAreQuiet) {
  EXPECT_THAT(
      RunXref(kVllmTp8Dp4, Module("replica_count=1, num_partitions=32",
                                  AllReduce("ar", "[4,8]<=[32]", true))),
      IsEmpty());
}

TEST(ConfigWorldSizeTest, ReportsAtTheConfigWithHeaderNote) {
  const std::vector<Finding> f =
      RunXref(kVllmTp8Dp4, Module("replica_count=1, num_partitions=16",
                                  AllReduce("ar", "[2,8]<=[16]", true)));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "config-world-size");
  EXPECT_EQ(f[0].loc, (Location{"c.json", 1, 26}));
  EXPECT_EQ(f[0].message,
            "the config's world size is 32 (tensor_parallel_size 8 x "
            "data_parallel_size 4), but HLO module 'm' runs on 16 devices "
            "(replica_count 1 (header) x num_partitions 16 (header))");
  ASSERT_THAT(f[0].notes, SizeIs(1));
  EXPECT_EQ(f[0].notes[0].loc.file, "m.hlo");
  EXPECT_EQ(f[0].notes[0].loc.line, 1);
}

TEST(ConfigWorldSizeTest, UsesFlagsWhenTheHeaderIsSilent) {
  CheckOptions opts;
  opts.num_partitions = 32;
  EXPECT_THAT(
      RunXref(kVllmTp8Dp4,
              Module("is_scheduled=true", AllReduce("ar", "[4,8]<=[32]", true)),
              opts),
      IsEmpty());
  // Without them the module does not record its device count, which is
  // not 1: nothing is compared (no "runs on 1 devices").
  EXPECT_THAT(
      RunXref(kVllmTp8Dp4, Module("is_scheduled=true",
                                  AllReduce("ar", "[4,8]<=[32]", true))),
      IsEmpty());
  opts.num_partitions = 16;
  const std::vector<Finding> f = RunXref(
      kVllmTp8Dp4,
      Module("is_scheduled=true", AllReduce("ar", "[2,8]<=[16]", true)), opts);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message, HasSubstr("runs on 16 devices"));
}

// A module whose header records no counts (every binary HloModuleProto of a
// compile cache): the device count is derived, as explain derives it.
std::vector<Finding> RunHeaderless(std::string_view config,
                                   const std::string& ops,
                                   const std::string& def_json = "") {
  Unit unit;
  unit.configs.push_back(config::testing::ConfigFromText(config, "c.json"));
  unit.hlo_modules.push_back(
      hlo::ParseHloText(Module("is_scheduled=true", ops), "m.hlo"));
  EXPECT_THAT(unit.hlo_modules[0].syntax_errors, IsEmpty());
  if (!def_json.empty()) {
    unit.def_jsons.push_back(testing_neff::LoadDefJson(def_json, "def.json"));
  }
  Emitter emit([](std::string_view) { return true; },
               [](std::string_view) { return Severity::kError; });
  CheckConfigXref(unit, CheckOptions{}, emit);
  return emit.findings();
}

TEST(ConfigWorldSizeTest, HeaderlessModuleCountsTheIdsItLists) {
  // Issue 43 §7: tp_degree 4 above modules whose groups span 8 devices.
  const std::vector<Finding> f =
      RunHeaderless(R"({"neuron_config": {"tp_degree": 4}})",
                    AllReduce("ar", "{{0,1,2,3,4,5,6,7}}", true));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "config-world-size");
  EXPECT_THAT(f[0].message,
              HasSubstr("but HLO module 'm' runs on 8 devices (the device "
                        "ids its collectives list, 0..7; its header records "
                        "no replica_count or num_partitions)"));
  ASSERT_THAT(f[0].notes, SizeIs(1));
  EXPECT_EQ(f[0].notes[0].loc.file, "m.hlo");
  EXPECT_EQ(f[0].notes[0].loc.line, 5);
  EXPECT_THAT(f[0].notes[0].message, HasSubstr("lists device id 7 here"));
  // The largest id decides, wherever it is listed.
  EXPECT_THAT(RunHeaderless(R"({"neuron_config": {"tp_degree": 8}})",
                            AllReduce("a", "{{0,1,2,3,4,5}}") +
                                AllReduce("b", "[1,8]<=[8]", true)),
              SizeIs(1));  // only a's groups: none of TP 8's families
  EXPECT_THAT(RunHeaderless(R"({"neuron_config": {"tp_degree": 8}})",
                            AllReduce("b", "[1,8]<=[8]", true)),
              IsEmpty());
}

TEST(ConfigWorldSizeTest, HeaderlessModuleWithoutIdsUsesTheNeffWorld) {
  const std::string ops = AllReduce("ar", "{}", true);
  const std::string def =
      R"({"CCInfo": {"replica_groups": [[[0,1,2,3,4,5,6,7]]]}})";
  const std::vector<Finding> f =
      RunHeaderless(R"({"neuron_config": {"tp_degree": 4}})", ops, def);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "config-world-size");
  EXPECT_THAT(f[0].message,
              HasSubstr("runs on 8 devices (the world size of def.json"));
  EXPECT_EQ(f[0].notes[0].loc.file, "def.json");
  EXPECT_THAT(RunHeaderless(R"({"neuron_config": {"tp_degree": 8}})", ops, def),
              IsEmpty());
  // Recorded nowhere: nothing is compared (explain says so).
  EXPECT_THAT(RunHeaderless(R"({"neuron_config": {"tp_degree": 4}})", ops),
              IsEmpty());
}

TEST(XrefConfigGroupsTest, HeaderlessModuleGroupsAreCompared) {
  // 8 devices, as the config: the groups are compared as written, and
  // {0,4},{1,5},... is none of TP 8's families.
  const std::vector<Finding> f =
      RunHeaderless(R"({"neuron_config": {"tp_degree": 8}})",
                    AllReduce("ar", "{{0,4},{1,5},{2,6},{3,7}}", true));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "xref-config-groups");
  EXPECT_EQ(f[0].loc.file, "m.hlo");
  // Counts that differ: the world size, not the groups.
  const std::vector<Finding> g =
      RunHeaderless(R"({"neuron_config": {"tp_degree": 16}})",
                    AllReduce("ar", "{{0,4},{1,5},{2,6},{3,7}}", true));
  ASSERT_THAT(g, SizeIs(1));
  EXPECT_EQ(g[0].rule, "config-world-size");
}

TEST(ConfigWorldSizeTest, NxdiWorldSizeOrTpPpEp) {
  const std::string hlo = Module("replica_count=1, num_partitions=16",
                                 AllReduce("ar", "[2,8]<=[16]", true));
  EXPECT_THAT(
      RunXref(R"({"neuron_config": {"tp_degree": 8, "ep_degree": 2}})", hlo),
      IsEmpty());
  const std::vector<Finding> f =
      RunXref(R"({"neuron_config": {"tp_degree": 8, "world_size": 8}})", hlo);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(
      f[0].message,
      HasSubstr("world size is 8 (world_size as written), but HLO module"));
}

TEST(XrefConfigGroupsTest, EveryConfigFamilyIsAccepted) {
  std::string ops;
  ops += AllReduce("tp", "[4,8]<=[32]");               // TP rows
  ops += AllReduce("attn_tp", "[1,32]<=[32]");         // attention TP (all)
  ops += AllReduce("attn_col", "[8,4]<=[4,8]T(1,0)");  // DP columns of 4
  ops += AllReduce("mlp_tp", "[2,16]<=[32]");          // MLP TP blocks
  ops += AllReduce("mlp_col",
                   "{{0,8},{1,9},{2,10},{3,11},{4,12},{5,13},{6,14},{7,15},"
                   "{16,24},{17,25},{18,26},{19,27},{20,28},{21,29},{22,30},"
                   "{23,31}}");                    // MLP DP columns
  ops += AllReduce("self", "[32,1]<=[32]", true);  // size-1 groups
  EXPECT_THAT(
      RunXref(kVllmTp8Dp4, Module("replica_count=1, num_partitions=32", ops)),
      IsEmpty());
}

TEST(XrefConfigGroupsTest, NamesTheNearestFamilyAndTheDifference) {
  // Rows of 8, but rows 2 and 3 interleaved.
  const std::vector<Finding> f = RunXref(
      kVllmTp8Dp4,
      Module("replica_count=1, num_partitions=32",
             AllReduce("ar",
                       "{{0,1,2,3,4,5,6,7},{8,9,10,11,12,13,14,15},"
                       "{16,17,18,19,24,25,26,27},{20,21,22,23,28,29,30,31}}",
                       true)));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "xref-config-groups");
  EXPECT_EQ(f[0].loc.file, "m.hlo");
  EXPECT_EQ(f[0].loc.line, 5);
  EXPECT_EQ(f[0].anchor, "%ar");
  EXPECT_THAT(f[0].message,
              HasSubstr("all-reduce %ar: groups {{0,1,2,3,4,5,6,7},"));
  EXPECT_THAT(f[0].message,
              HasSubstr("(4 groups of 8, as global device ids) are none of "
                        "the config's group families; nearest is "
                        "'tp (tensor_parallel_size=8)"));
  EXPECT_THAT(f[0].message, HasSubstr("(2 of 4 groups in common)"));
  EXPECT_THAT(f[0].message,
              HasSubstr("group 2 is {16,17,18,19,24,25,26,27} here, but the "
                        "family's group holding rank 16 is "
                        "{16,17,18,19,20,21,22,23}"));
  ASSERT_THAT(f[0].notes, SizeIs(1));
  EXPECT_EQ(f[0].notes[0].loc.file, "c.json");
}

TEST(XrefConfigGroupsTest, RankOrderMattersForAllGatherOnly) {
  const std::string groups =
      "{{8,0,16,24},{1,9,17,25},{2,10,18,26},{3,11,19,27},{4,12,20,28},"
      "{5,13,21,29},{6,14,22,30},{7,15,23,31}}";
  // all-reduce: membership is what counts.
  EXPECT_THAT(RunXref(kVllmTp8Dp4, Module("replica_count=1, num_partitions=32",
                                          AllReduce("ar", groups, true))),
              IsEmpty());
  const std::string ag =
      "  ROOT %ag = f32[32]{0} all-gather(f32[8]{0} %p), channel_id=1, "
      "replica_groups=" +
      groups + ", dimensions={0}, use_global_device_ids=true\n";
  const std::vector<Finding> f =
      RunXref(kVllmTp8Dp4, Module("replica_count=1, num_partitions=32", ag));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message,
              HasSubstr("all-gather %ag: its groups are those of the "
                        "config's 'attention DP column"));
  EXPECT_THAT(f[0].message,
              HasSubstr("group 0 lists its ranks as {8,0,16,24} where the "
                        "family has {0,8,16,24}"));
}

TEST(XrefConfigGroupsTest, SkippedWhenWorldSizesDiffer) {
  const std::vector<Finding> f =
      RunXref(kVllmTp8Dp4, Module("replica_count=1, num_partitions=16",
                                  AllReduce("ar", "[4,4]<=[16]", true)));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "config-world-size");
}

TEST(XrefConfigGroupsTest, SkippedWhenTheLayoutDoesNotDivide) {
  EXPECT_THAT(RunXref(R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
              "neuron_config": {"mlp_dp_size": 3}})",
                      Module("replica_count=1, num_partitions=32",
                             AllReduce("ar", "[8,4]<=[32]", true))),
              IsEmpty());
}

TEST(XrefConfigGroupsTest, SkippedWhenALayoutFieldIsMalformed) {
  EXPECT_THAT(
      RunXref(R"({"tensor_parallel_size": "8", "data_parallel_size": 32})",
              Module("replica_count=1, num_partitions=32",
                     AllReduce("ar", "[8,4]<=[32]", true))),
      IsEmpty());
}

TEST(XrefConfigGroupsTest, CrossReplicaIdsAreFlattened) {
  // replica_count=32: replica ids are the global ids.
  const std::string op =
      "  ROOT %ar = f32[8]{0} all-reduce(f32[8]{0} %p), "
      "replica_groups=[4,8]<=[32], to_apply=%add\n";
  EXPECT_THAT(RunXref(kVllmTp8Dp4, Module("replica_count=32", op)), IsEmpty());
}

TEST(XrefConfigGroupsTest, NxdiAttentionDpGroups) {
  const char* cfg =
      R"({"neuron_config": {"tp_degree": 8, "attention_dp_degree": 4,
                            "tkg_batch_size": 4,
                            "is_continuous_batching": true}})";
  std::string ops = AllReduce("inner", "[4,2]<=[8]");
  ops += AllReduce("dp", "[2,4]<=[4,2]T(1,0)", true);
  EXPECT_THAT(RunXref(cfg, Module("replica_count=1, num_partitions=8", ops)),
              IsEmpty());
  const std::vector<Finding> f =
      RunXref(cfg, Module("replica_count=1, num_partitions=8",
                          AllReduce("bad", "[2,4]<=[8]", true)));
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "xref-config-groups");
}

}  // namespace
}  // namespace topolint
