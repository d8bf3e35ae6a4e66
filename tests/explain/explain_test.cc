// End-to-end: `topolint explain` on the worked example of
// docs/reference/rank-model.md §6 (fixtures/explain/rank-model-example), in
// text and JSON, plus cores that do not participate or are out of range, a
// config unit and unreadable input.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using Json = nlohmann::json;

constexpr char kExample[] = "fixtures/explain/rank-model-example";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  for (absl::string_view l : absl::StrSplit(text, '\n')) {
    out.emplace_back(l);
  }
  return out;
}

Json ParseJson(const std::string& text) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << text;
  return j;
}

TEST(ExplainTest, WorkedExampleText) {
  CliResult r = RunTopolint({"explain", "--lnc", "2", "--core", "9", kExample});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  auto has = [&](const std::string& line) {
    EXPECT_THAT(lines, Contains(line)) << r.out;
  };
  // The module: R, P, devices.
  has("  R = replica_count  = 1 (header)");
  has("  P = num_partitions = 8 (header)");
  has("  devices = R x P    = 8 (device id = replica * 8 + partition)");
  // The collective: name, opcode, mode, groups, iota form.
  has("  %ar = all-reduce (line 13)");
  has("    mode     flattened_id (channel_id=1, use_global_device_ids=true)");
  has("    groups   {{0,4},{1,5},{2,6},{3,7}}: 4 groups of 2");
  has("    iota     [4,2]<=[2,4]T(1,0) (as written)");
  // The 2x4 device grid: each column is a group; device 4 (core 9) marked.
  has("      column   0   1   2   3");
  has("      row 0    0   1   2   3");
  has("      row 1   0*   1   2   3");
  has("      * rank 4 = core 9 / lnc 2");
  // The NEFF envelope and the world size.
  has("  replica_groups[topology][group][rank], shape [1][4][2]");
  has("    topology[0]  {{0,4},{1,5},{2,6},{3,7}}: 4 groups of 2");
  has("    ws_rg    = 2  (largest group of each topology)");
  has("    ws_pairs = 0  (1 + largest src_target_pairs id, 0 if none)");
  has("    ws_expl  = 0  (#rank_world_size, absent)");
  has("    world size = max(2, 0, 0, 1) = 2");
  has("    fixtures/explain/rank-model-example/model.hlo %ar: equal, bit for "
      "bit");
  // The rank of physical core 9.
  has("physical core 9 (lnc 2, from --lnc)");
  has("  rank = core / lnc = 9 / 2 = 4");
  has("  topology[0] of fixtures/explain/rank-model-example/def.json: group 0 "
      "{0,4}, position 1");
  has("  fixtures/explain/rank-model-example/model.hlo: rank 4 is device 4 of "
      "[0, 8)");
  has("    %ar: group 0 {0,4}, position 1");
}

TEST(ExplainTest, WorkedExampleJson) {
  CliResult r = RunTopolint(
      {"explain", "--format", "json", "--lnc", "2", "--core", "9", kExample});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json doc = ParseJson(r.out);
  ASSERT_EQ(doc["units"].size(), 1u);
  const Json& u = doc["units"][0];

  const Json& m = u["hlo_modules"][0];
  EXPECT_EQ(m["replica_count"], 1);
  EXPECT_EQ(m["num_partitions"], 8);
  EXPECT_EQ(m["devices"], 8);
  const Json& ar = m["collectives"][0];
  EXPECT_EQ(ar["name"], "%ar");
  EXPECT_EQ(ar["opcode"], "all-reduce");
  EXPECT_EQ(ar["mode"], "flattened_id");
  EXPECT_EQ(ar["groups"], Json::parse("[[0,4],[1,5],[2,6],[3,7]]"));
  EXPECT_EQ(ar["num_groups"], 4);
  EXPECT_EQ(ar["group_size"], 2);
  EXPECT_EQ(ar["iota"], "[4,2]<=[2,4]T(1,0)");
  EXPECT_EQ(ar["device_grid"]["rows"], 2);
  EXPECT_EQ(ar["device_grid"]["columns"], 4);
  EXPECT_EQ(ar["device_grid"]["cells"][1][0],
            Json::parse(R"({"id": 4, "group": 0})"));

  const Json& n = u["neff"][0];
  EXPECT_EQ(n["shape"], Json::parse("[1,4,2]"));
  EXPECT_EQ(n["topologies"][0]["groups"],
            Json::parse("[[0,4],[1,5],[2,6],[3,7]]"));
  EXPECT_EQ(n["world_size"]["ws_rg"], 2);
  EXPECT_EQ(n["world_size"]["ws_pairs"], 0);
  EXPECT_EQ(n["world_size"]["ws_expl"], 0);
  EXPECT_EQ(n["world_size"]["world_size"], 2);
  EXPECT_EQ(n["topology0_matches"][0]["equal"], true);

  const Json& c = u["core"];
  EXPECT_EQ(c["core"], 9);
  EXPECT_EQ(c["lnc"], 2);
  EXPECT_EQ(c["rank"], 4);
  EXPECT_EQ(c["neff"][0]["status"], "member");
  EXPECT_EQ(c["neff"][0]["participates"], true);
  EXPECT_EQ(c["neff"][0]["group"], 0);
  EXPECT_EQ(c["neff"][0]["position"], 1);
  EXPECT_EQ(c["neff"][0]["group_ranks"], Json::parse("[0,4]"));
  EXPECT_EQ(c["modules"][0]["in_device_space"], true);
  EXPECT_EQ(c["modules"][0]["collectives"][0]["group"], 0);
  EXPECT_EQ(c["modules"][0]["collectives"][0]["position"], 1);
}

// Every module says the format it was read from, the same key for each
// front end: HLO text, binary HLO (plain and gzipped) and StableHLO.
TEST(ExplainTest, JsonNamesEachModulesInputFormat) {
  const std::pair<const char*, const char*> cases[] = {
      {"fixtures/explain/rank-model-example/model.hlo", "hlo-text"},
      {"fixtures/layouts/compiler-workdir/"
       "model.MODULE_1a2b3c4d5e6f7a8b9c0d+d41d8cd9.hlo_module.pb",
       "hlo-proto"},
      {"fixtures/hlo-sharding-rank/fail-binary-gzip-tuple/model.pb.gz",
       "hlo-proto"},
      {"fixtures/explain/placement-sdy-mesh/model.mlir", "stablehlo"},
  };
  for (const auto& [path, format] : cases) {
    CliResult r = RunTopolint({"explain", "--format", "json", path});
    ASSERT_EQ(r.exit_code, 0) << path << ": " << r.err;
    const Json doc = ParseJson(r.out);
    ASSERT_EQ(doc["units"].size(), 1u) << path;
    const Json& modules = doc["units"][0]["hlo_modules"];
    ASSERT_EQ(modules.size(), 1u) << path;
    EXPECT_EQ(modules[0]["format"], format) << path;
    // Placed after "file", in the fixed key order.
    EXPECT_LT(r.out.find("\"file\""), r.out.find("\"format\"")) << path;
  }
}

TEST(ExplainTest, CoreOutsideTheDeviceSpace) {
  // Core 17 at LNC 2 is rank 8: beyond the 8 devices, in no NEFF group.
  CliResult r = RunTopolint(
      {"explain", "--lnc", "2", "--core", "17", "--num-cores", "16", kExample});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  rank = core / lnc = 17 / 2 = 8\n"));
  EXPECT_THAT(r.out,
              HasSubstr("  core 17 is out of range: --num-cores is 16\n"));
  EXPECT_THAT(r.out, HasSubstr("rank 8 is in no group: core 17 does not "
                               "participate"));
  EXPECT_THAT(r.out, HasSubstr("model.hlo: rank 8 is out of range: outside "
                               "the device space [0, 8)"));
  EXPECT_THAT(r.out, Not(HasSubstr("* rank")));  // no grid cell is marked

  CliResult j = RunTopolint({"explain", "--format", "json", "--lnc", "2",
                             "--core", "17", "--num-cores", "16", kExample});
  ASSERT_EQ(j.exit_code, 0);
  const Json c = ParseJson(j.out)["units"][0]["core"];
  EXPECT_EQ(c["rank"], 8);
  EXPECT_EQ(c["core_in_range"], false);
  EXPECT_EQ(c["neff"][0]["status"], "absent");
  EXPECT_EQ(c["neff"][0]["participates"], false);
  EXPECT_EQ(c["modules"][0]["in_device_space"], false);
}

TEST(ExplainTest, CoreThatDoesNotParticipate) {
  TempDir dir;
  dir.Write("def.json",
            R"({"CCInfo": {"replica_groups": [[[0, 1], [4, 5]]]}})");
  // Core 5 at LNC 2 is rank 2, which no group of topology[0] holds.
  CliResult r =
      RunTopolint({"explain", "--lnc", "2", "--core", "5", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("rank 2 is in no group: core 5 does not "
                               "participate"));
  // Core 9 is rank 4: group 1, position 0.
  r = RunTopolint({"explain", "--lnc", "2", "--core", "9", dir.path()});
  EXPECT_THAT(r.out, HasSubstr(": group 1 {4,5}, position 0\n"));
}

TEST(ExplainTest, ReorderedRanksAreWordedAsTheRuleWordsThem) {
  // Ranks swapped inside one group keep the group set too: explain must
  // give the rule's reason (xref-topology-mismatch), not the group order.
  CliResult r = RunTopolint(
      {"explain", "fixtures/xref-topology-mismatch/fail-ranks-reordered"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(same ranks, another order)"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("same groups, another order")));
}

TEST(ExplainTest, NoTopologyMeansEveryCoreParticipates) {
  TempDir dir;
  dir.Write("def.json", R"({"CCInfo": {"replica_groups": []}})");
  CliResult r =
      RunTopolint({"explain", "--format", "json", "--core", "3", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json p = ParseJson(r.out)["units"][0]["core"]["neff"][0];
  EXPECT_EQ(p["status"], "all");
  EXPECT_EQ(p["participates"], true);
}

TEST(ExplainTest, EmptyFlattenedRankListMeansEveryCoreParticipates) {
  TempDir dir;
  dir.Write("def.json", R"({"CCInfo": {"replica_groups": [[[]]]}})");
  CliResult r = RunTopolint({"explain", "--core", "3", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("every core participates"));
  CliResult j =
      RunTopolint({"explain", "--format", "json", "--core", "3", dir.path()});
  const Json p = ParseJson(j.out)["units"][0]["core"]["neff"][0];
  EXPECT_EQ(p["status"], "all");
  EXPECT_EQ(p["participates"], true);
}

TEST(ExplainTest, NeffHeaderLncResolvesTheCore) {
  // model.neff's header says lnc_size 2 and no --lnc is given: core 9 is
  // rank 4, and explain names the header as the source.
  CliResult r = RunTopolint({"explain", "--core", "9",
                             "fixtures/lnc-rank-range/fail-neff-header-lnc2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("physical core 9 (lnc 2, from the header "
                               "lnc_size of "));
  EXPECT_THAT(r.out, HasSubstr("  rank = core / lnc = 9 / 2 = 4\n"));
  // --lnc wins over the header.
  r = RunTopolint({"explain", "--lnc", "1", "--core", "9",
                   "fixtures/lnc-rank-range/fail-neff-header-lnc2"});
  EXPECT_THAT(r.out, HasSubstr("  rank = core / lnc = 9 / 1 = 9\n"));
}

TEST(ExplainTest, ConfigLncResolvesTheCore) {
  TempDir dir;
  dir.Write("neuron_config.json",
            R"({"neuron_config": {"tp_degree": 8, "logical_nc_config": 2}})");
  CliResult r = RunTopolint({"explain", "--core", "9", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(lnc 2, from neuron_config.logical_nc_config "
                               "in "));
}

TEST(ExplainTest, CompileFlagsLncResolvesTheCore) {
  // compile_flags.json ranks below the header and above the config.
  TempDir dir;
  dir.Write("neuron_config.json",
            R"({"neuron_config": {"tp_degree": 8, "logical_nc_config": 1}})");
  dir.Write("compile_flags.json", R"(["--target=trn2", "-O1"])");
  CliResult r = RunTopolint({"explain", "--core", "9", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out,
              HasSubstr("(lnc 2, from the default LNC of --target=trn2 in "));
  EXPECT_THAT(r.out, HasSubstr("  rank = core / lnc = 9 / 2 = 4\n"));
  dir.Write("compile_flags.json", R"("--target=trn2 --lnc 1")");
  r = RunTopolint({"explain", "--core", "9", dir.path()});
  EXPECT_THAT(r.out, HasSubstr("(lnc 1, from the LNC flag in "));
  EXPECT_THAT(r.out, HasSubstr("  rank = core / lnc = 9 / 1 = 9\n"));
}

TEST(ExplainTest, HeaderlessDumpSaysTheCountIsNotRecorded) {
  TempDir dir;
  dir.Write(
      "model.hlo",
      "HloModule SyncTensorsGraph.7\n"
      "%add (x: f32[], y: f32[]) -> f32[] {\n"
      "  %x = f32[] parameter(0)\n"
      "  %y = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(%x, %y)\n"
      "}\n"
      "ENTRY %main (p: f32[8]) -> f32[8] {\n"
      "  %p = f32[8]{0} parameter(0)\n"
      "  ROOT %ar = f32[8]{0} all-reduce(%p), replica_groups=[4,8]<=[32], "
      "to_apply=%add\n"
      "}\n");
  dir.Write("vllm_config.json",
            R"({"tensor_parallel_size": 8, "data_parallel_size": 4})");
  CliResult r = RunTopolint({"explain", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("not recorded"));
  EXPECT_THAT(r.out, HasSubstr("--replica-count N / --num-partitions N"));
  EXPECT_THAT(r.out, HasSubstr("the collectives list ids 0..31 (32 devices"));
  EXPECT_THAT(r.out, HasSubstr("derived: "));
  EXPECT_THAT(r.out, HasSubstr("world size 32 (tensor_parallel_size 8 x "
                               "data_parallel_size 4)"));
  EXPECT_THAT(r.out, Not(HasSubstr("devices = R x P    = 1")));
  // Given on the command line, the counts are used as usual.
  r = RunTopolint({"explain", "--replica-count", "32", dir.path()});
  EXPECT_THAT(r.out, HasSubstr("R = replica_count  = 32 (--replica-count)"));
}

TEST(ExplainTest, SubModelSectionsAreExplainedEach) {
  TempDir dir;
  dir.Write("neuron_config.json",
            R"({"text_config": {"neuron_config": {"tp_degree": 8}},
                "vision_config": {"neuron_config": {"tp_degree": 4}}})");
  CliResult r = RunTopolint({"explain", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(text_config)"));
  EXPECT_THAT(r.out, HasSubstr("(vision_config)"));
}

TEST(ExplainTest, ComponentConfigRankGridAndFamilies) {
  TempDir dir;
  dir.Write("vllm_config.json",
            R"({"tensor_parallel_size": 4, "data_parallel_size": 2,
                "additional_config": {"neuron_config":
                                      {"attention_dp_size": 2}}})");
  CliResult r = RunTopolint({"explain", "--core", "5", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  EXPECT_THAT(r.out, HasSubstr("\n  TP = 4, DP = 2, world = 8 = "));
  EXPECT_THAT(lines, Contains("    TP     0   1   2   3"));
  EXPECT_THAT(lines, Contains("    DP 0   0   1   2   3"));
  EXPECT_THAT(lines, Contains("    DP 1   4  5*   6   7"));
  EXPECT_THAT(lines, Contains("    attention DP column (attention_dp_size=2) "
                              "(same groups as: dp (data_parallel_size=2))"));
  EXPECT_THAT(lines,
              Contains("      {{0,4},{1,5},{2,6},{3,7}}: 4 groups of 2"));
  EXPECT_THAT(r.out, HasSubstr(": DP row 1, TP column 1\n"));

  CliResult j = RunTopolint({"explain", "--format", "json", dir.path()});
  const Json c = ParseJson(j.out)["units"][0]["configs"][0];
  EXPECT_EQ(c["tp"], 4);
  EXPECT_EQ(c["dp"], 2);
  EXPECT_EQ(c["rank_grid"]["cells"][1][3]["id"], 7);
}

// A compiler work directory holds one unit per module: the unit headers
// name each unit's files so that they can be told apart; a directory with
// one unit keeps the short header.
TEST(ExplainTest, UnitsSharingADirectoryAreToldApartByTheirFiles) {
  constexpr char kWorkdir[] = "fixtures/layouts/compiler-workdir";
  const CliResult r = RunTopolint({"explain", kWorkdir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string header = std::string("unit ") + kWorkdir +
                             " (model.MODULE_1a2b3c4d5e6f7a8b9c0d+d41d8cd9."
                             "hlo_module.pb, model.MODULE_1a2b3c4d5e6f7a8b9c0d"
                             "+d41d8cd9.neff)";
  EXPECT_THAT(Lines(r.out), Contains(header)) << r.out;
  EXPECT_EQ(r.out.find(std::string("unit ") + kWorkdir + "\n"),
            std::string::npos)
      << r.out;

  const CliResult j = RunTopolint({"explain", "--format", "json", kWorkdir});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const Json doc = ParseJson(j.out);
  ASSERT_EQ(doc["units"].size(), 3u) << j.out;
  EXPECT_EQ(doc["units"][0]["files"].size(), 2u) << j.out;

  const CliResult one = RunTopolint({"explain", kExample});
  EXPECT_THAT(Lines(one.out), Contains(std::string("unit ") + kExample));
}

TEST(ExplainTest, UnreadableInputExitsTwo) {
  CliResult r = RunTopolint({"explain", "fixtures/explain/no-such-dir"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no-such-dir"));
  EXPECT_TRUE(r.out.empty());
}

TEST(ExplainTest, SarifIsNotAnExplainFormat) {
  CliResult r = RunTopolint({"explain", "--format", "sarif", kExample});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace topolint::testing
