// lnc-core-count: the collective world is a core count the Neuron runtime
// refuses on the target (trn1, trn1n: 1, 2, 8, 16 or a multiple of 32).
#include "rules/lnc_core_count.h"

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "checker/config/compile_flags.h"
#include "checker/hlo/text/hlo_parser.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/families.h"
#include "tests/common/run_cli.h"
#include "tests/config/config_test_util.h"
#include "tests/neff/neff_test_util.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_neff::LoadDefJson;

constexpr char kRuntimeMessage[] =
    "\"nrt_load_collectives: Unsupported topology. Supported number of "
    "Neuron Cores is 1, 2, 8, 16 or a multiple of 32\"";

TEST(LncCoreCountTest, Trn1CountsAsTheRuntimeStatesThem) {
  for (int64_t n : {1, 2, 8, 16, 32, 64, 96, 128, 256, 1024}) {
    EXPECT_TRUE(Trn1SupportsCoreCount(n)) << n;
  }
  for (int64_t n : {-32, -1, 0,  3,  4,  5,  6,  7,  9,  12,
                    15,  17, 24, 31, 33, 48, 63, 65, 80, 100}) {
    EXPECT_FALSE(Trn1SupportsCoreCount(n)) << n;
  }
}

TEST(LncCoreCountTest, OnlyTrn1AndTrn1nHaveARule) {
  for (const char* t : {"trn1", "trn1n", "TRN1", "Trn1n"}) {
    const CoreCountRule* rule = CoreCountRuleFor(t);
    ASSERT_NE(rule, nullptr) << t;
    EXPECT_EQ(rule->nearest(24), "16 or 32");
    EXPECT_EQ(rule->nearest(4), "2 or 8");
    EXPECT_EQ(rule->nearest(12), "8 or 16");
    EXPECT_EQ(rule->nearest(48), "32 or 64");
  }
  // No public source states a rule for these (docs/rules/lnc-core-count.md).
  for (const char* t : {"inf2", "trn2", "trn2n", "trn3", "inf1", "", "trn"}) {
    EXPECT_EQ(CoreCountRuleFor(t), nullptr) << t;
  }
}

config::CompileFlags Flags(const std::string& text) {
  return config::ParseCompileFlags(text, "m/compile_flags.json");
}

TEST(LncCoreCountTest, TargetFromTheCommandLineWinsOverCompileFlags) {
  Unit unit;
  unit.compile_flags.push_back(Flags(R"(["--lnc=1"])"));
  unit.compile_flags.push_back(Flags(R"(["--target=trn1"])"));
  CheckOptions options;
  std::optional<TargetStatement> t = ResolveTarget(unit, options);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->target, "trn1");
  EXPECT_EQ(t->source, "--target=trn1 in compile_flags.json");
  ASSERT_TRUE(t->loc.has_value());
  EXPECT_EQ(t->loc->line, 1);
  EXPECT_EQ(t->loc->column, 3);

  options.target = "inf2";
  options.target_origin = "--target=inf2 on the compiler's command line";
  t = ResolveTarget(unit, options);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->target, "inf2");
  EXPECT_EQ(t->source, "--target=inf2 on the compiler's command line");
  EXPECT_FALSE(t->loc.has_value());

  EXPECT_FALSE(ResolveTarget(Unit{}, CheckOptions{}).has_value());
}

std::vector<Finding> RunRule(const Unit& unit,
                             const CheckOptions& options = {}) {
  Emitter emit = testing_neff::AllRulesEmitter();
  CheckLnc(unit, options, emit);
  return testing_neff::OfRule(emit.findings(), "lnc-core-count");
}

// An HLO module with `header` and `entry_body` (the ENTRY's instructions
// after its parameter %p), and an %add reducer.
hlo::Module Module(const std::string& header, const std::string& entry_body) {
  return hlo::ParseHloText(header +
                               "\n"
                               "%add (x: f32[], y: f32[]) -> f32[] {\n"
                               "  %x = f32[] parameter(0)\n"
                               "  %y = f32[] parameter(1)\n"
                               "  ROOT %s = f32[] add(%x, %y)\n"
                               "}\n"
                               "ENTRY %e (p: f32[8]) -> f32[8] {\n"
                               "  %p = f32[8]{0} parameter(0)\n" +
                               entry_body + "}\n",
                           "m.hlo");
}

Unit Trn1Unit(const std::string& def_json) {
  Unit unit;
  unit.compile_flags.push_back(Flags(R"(["--target=trn1", "-O1"])"));
  if (!def_json.empty()) {
    unit.def_jsons.push_back(LoadDefJson(def_json, "u/def.json"));
  }
  return unit;
}

TEST(LncCoreCountTest, NeffWorldOf24OnTrn1) {
  std::vector<Finding> f = RunRule(Trn1Unit(
      "{\"CCInfo\": {\"replica_groups\": [[[0, 1, 2, 3, 4, 5, 6, 7], [8, 9, "
      "10, 11, 12, 13, 14, 15], [16, 17, 18, 19, 20, 21, 22, 23]]],\n"
      "  \"#rank_world_size\": 24}}"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message,
            std::string("the NEFF's collectives span 24 ranks (replica_groups "
                        "list ranks 0..23, largest group 8; #rank_world_size "
                        "24), and the Neuron runtime refuses 24 Neuron cores "
                        "on trn1 (--target=trn1 in compile_flags.json): ") +
                kRuntimeMessage + " (nearest supported: 16 or 32)");
  EXPECT_EQ(f[0].loc.file, "u/def.json");
  EXPECT_EQ(f[0].loc.line, 2);  // at #rank_world_size, which decides
  EXPECT_EQ(f[0].loc.column, 23);
  ASSERT_EQ(f[0].notes.size(), 1u);
  EXPECT_EQ(f[0].notes[0].message, "the target is trn1 here");
  EXPECT_EQ(f[0].notes[0].loc.file, "m/compile_flags.json");
}

TEST(LncCoreCountTest, SupportedNeffWorldsPass) {
  for (const char* groups :
       {"[[[0]]]", "[[[0, 1]]]", "[[[0, 1, 2, 3], [4, 5, 6, 7]]]",
        "[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]]"}) {
    EXPECT_THAT(
        RunRule(Trn1Unit(std::string("{\"CCInfo\": {\"replica_groups\": ") +
                         groups + "}}")),
        IsEmpty())
        << groups;
  }
  EXPECT_THAT(RunRule(Trn1Unit(R"({"CCInfo": {"replica_groups": [[[0, 1]]],
                                          "#rank_world_size": 64}})")),
              IsEmpty());
}

// The ranks the groups list count, not only the largest group: TP groups
// of 4 over ranks 0..7 (no #rank_world_size) are a world of 8.
TEST(LncCoreCountTest, RanksListedCountBeyondTheLargestGroup) {
  std::vector<Finding> f =
      RunRule(Trn1Unit(R"({"CCInfo": {"replica_groups": [[[0, 1, 2, 3],
                                                    [4, 5, 6, 7],
                                                    [8, 9, 10, 11]]]}})"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message,
              HasSubstr("span 12 ranks (replica_groups list ranks 0..11, "
                        "largest group 4)"));
  EXPECT_EQ(f[0].loc.line, 1);
  EXPECT_EQ(f[0].loc.column, 31);  // replica_groups
}

TEST(LncCoreCountTest, PairsSpanCounts) {
  std::vector<Finding> f = RunRule(Trn1Unit(
      R"({"CCInfo": {"src_target_pairs": [[0, 1], [1, 2], [2, 3], [3, 0]]}})"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message,
              HasSubstr("span 4 ranks (src_target_pairs span 4)"));
  EXPECT_THAT(f[0].message, HasSubstr("(nearest supported: 2 or 8)"));
}

TEST(LncCoreCountTest, UnknownOrUncheckedTargetsReportNothing) {
  const std::string world24 =
      R"({"CCInfo": {"replica_groups": [[[0, 1]]], "#rank_world_size": 24}})";
  Unit no_target;
  no_target.def_jsons.push_back(LoadDefJson(world24, "u/def.json"));
  EXPECT_THAT(RunRule(no_target), IsEmpty());
  for (const char* flags : {R"(["--target=inf2"])", R"(["--target=trn2"])",
                            R"(["--target=trn2", "--lnc=1"])"}) {
    Unit unit = no_target;
    unit.compile_flags.push_back(Flags(flags));
    EXPECT_THAT(RunRule(unit), IsEmpty()) << flags;
  }
  // The command line's target wins: inf2 there, trn1 in the flags file.
  Unit unit = Trn1Unit(world24);
  CheckOptions options;
  options.target = "inf2";
  EXPECT_THAT(RunRule(unit, options), IsEmpty());
  options.target = "trn1n";
  options.target_origin = "--target=trn1n on the compiler's command line";
  std::vector<Finding> f = RunRule(unit, options);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message,
              HasSubstr("24 Neuron cores on trn1n (--target=trn1n on the "
                        "compiler's command line)"));
  EXPECT_THAT(f[0].notes, IsEmpty());
}

TEST(LncCoreCountTest, MpmdNeffIsLeftToTheNeffRules) {
  EXPECT_THAT(
      RunRule(Trn1Unit(
          R"({"CCInfo": {"replica_groups": [[[0, 1, 2]], [[0, 1]]]}})")),
      IsEmpty());
}

TEST(LncCoreCountTest, ModuleDeviceCountWithoutANeff) {
  Unit unit = Trn1Unit("");
  unit.hlo_modules.push_back(
      Module("HloModule m, replica_count=1, num_partitions=12",
             "  ROOT %ar = f32[8]{0} all-reduce(%p), channel_id=1, "
             "replica_groups=[3,4]<=[12], use_global_device_ids=true, "
             "to_apply=%add\n"));
  std::vector<Finding> f = RunRule(unit);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message,
              HasSubstr("HLO module 'm' runs its collectives on 12 ranks "
                        "(replica_count 1 x num_partitions 12)"));
  EXPECT_THAT(f[0].message, HasSubstr("(nearest supported: 8 or 16)"));
  EXPECT_EQ(f[0].loc.file, "m.hlo");
  EXPECT_EQ(f[0].loc.line, 1);
  EXPECT_EQ(f[0].loc.column, 31);  // num_partitions
  EXPECT_EQ(f[0].anchor, "world:m");
}

TEST(LncCoreCountTest, ModuleWithoutACountUsesTheIdsListed) {
  Unit unit = Trn1Unit("");
  unit.hlo_modules.push_back(
      Module("HloModule g",
             "  ROOT %cp = f32[8]{0} collective-permute(%p), channel_id=1, "
             "source_target_pairs={{0,1},{1,2},{2,3},{3,4},{4,5},{5,0}}\n"));
  std::vector<Finding> f = RunRule(unit);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message,
              HasSubstr("on 6 ranks (the ids they list, 0..5; the module "
                        "records no device count)"));
}

TEST(LncCoreCountTest, TheNeffWinsOverTheModule) {
  // The module says 12 devices, the NEFF the runtime loads 32 ranks: only
  // the NEFF is checked (the disagreement is xref-world-size's).
  Unit unit = Trn1Unit(
      R"({"CCInfo": {"replica_groups": [[[0, 1]]], "#rank_world_size": 32}})");
  unit.hlo_modules.push_back(
      Module("HloModule m, num_partitions=12",
             "  ROOT %ar = f32[8]{0} all-reduce(%p), channel_id=1, "
             "replica_groups=[6,2]<=[12], use_global_device_ids=true, "
             "to_apply=%add\n"));
  EXPECT_THAT(RunRule(unit), IsEmpty());
}

TEST(LncCoreCountTest, ModuleWithoutCollectivesIsNotChecked) {
  Unit unit = Trn1Unit("");
  unit.hlo_modules.push_back(Module("HloModule m, num_partitions=12",
                                    "  ROOT %n = f32[8]{0} negate(%p)\n"));
  EXPECT_THAT(RunRule(unit), IsEmpty());
}

// NxDI passes neuron_config.target to the compiler as --target; a unit
// whose config is all there is (checked before compiling) is checked by the
// world the config records.
TEST(LncCoreCountTest, NxdiConfigGivesTargetAndWorld) {
  const auto config = [](int tp, const char* target) {
    return config::testing::ConfigFromText(
        fmt::format(R"({{"neuron_config": {{"tp_degree": {}, "target": {}}}}})",
                    tp, target),
        "c.json");
  };
  Unit unit;
  unit.configs.push_back(config(24, "\"trn1\""));
  std::optional<TargetStatement> t = ResolveTarget(unit, CheckOptions{});
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->target, "trn1");
  EXPECT_EQ(t->source, "neuron_config.target \"trn1\" in c.json");
  std::vector<Finding> f = RunRule(unit);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message,
              HasSubstr("the config's world is 24 ranks (tp_degree 24 x "
                        "pp_degree 1 x ep_degree 1)"));
  EXPECT_EQ(f[0].loc.file, "c.json");

  // A compile_flags.json target wins over the config's.
  unit.compile_flags.push_back(Flags(R"(["--target=inf2"])"));
  EXPECT_THAT(RunRule(unit), IsEmpty());

  // target null (the platform decides), or a supported world: nothing.
  for (const auto& [tp, target] : std::vector<std::pair<int, const char*>>{
           {24, "null"}, {32, "\"trn1\""}, {16, "\"trn1n\""}}) {
    Unit u;
    u.configs.push_back(config(tp, target));
    EXPECT_THAT(RunRule(u), IsEmpty()) << tp << " " << target;
  }

  // With a NEFF, the NEFF's world is checked, not the config's.
  Unit with_neff = Trn1Unit(R"({"CCInfo": {"replica_groups": [[[0, 1]]]}})");
  with_neff.configs.push_back(config(24, "\"trn1\""));
  EXPECT_THAT(RunRule(with_neff), IsEmpty());
}

TEST(LncCoreCountTest, RunsBesideLncRankRange) {
  // --num-cores 16 and a world of 24 on trn1: both lnc rules report.
  Unit unit = Trn1Unit(
      R"({"CCInfo": {"replica_groups": [[[0, 23]]], "#rank_world_size": 24}})");
  CheckOptions options;
  options.num_cores = 16;
  Emitter emit = testing_neff::AllRulesEmitter();
  CheckLnc(unit, options, emit);
  EXPECT_EQ(testing_neff::OfRule(emit.findings(), "lnc-core-count").size(), 1u);
  EXPECT_EQ(testing_neff::OfRule(emit.findings(), "lnc-rank-range").size(), 1u);
}

}  // namespace

namespace testing {
namespace {

// `topolint check` of a case, with its `args` file as the golden test
// reads it.
CliResult Check(const std::string& dir) {
  std::vector<std::string> args = {"check", "--color", "never"};
  std::istringstream in(
      ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/" + dir + "/args"));
  for (std::string w; in >> w;) args.push_back(w);
  args.push_back(dir);
  return RunTopolint(args);
}

TEST(LncCoreCountCliTest, ReportsTheFailingCase) {
  CliResult r = Check("fixtures/lnc-core-count/fail-basic");
  EXPECT_NE(r.out.find("[lnc-core-count]"), std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1);
}

TEST(LncCoreCountCliTest, PassesThePassingCase) {
  CliResult r = Check("fixtures/lnc-core-count/pass-basic");
  EXPECT_EQ(r.out.find("[lnc-core-count]"), std::string::npos) << r.out;
  EXPECT_LT(r.exit_code, 2) << r.err;
}

}  // namespace
}  // namespace testing
}  // namespace topolint
