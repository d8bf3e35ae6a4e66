// The LNC resolution order of docs/reference/rank-model.md §3
// (rules/lnc_resolution.h).
#include "rules/lnc_resolution.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/config/config_test_util.h"

namespace topolint {
namespace {

neff::NeffArchive ArchiveWithLnc(int64_t lnc) {
  neff::NeffArchive a;
  a.file = "model.neff";
  a.header_ok = true;
  a.lnc_size = lnc;
  return a;
}

Unit UnitWith(std::optional<int64_t> header, std::optional<int64_t> config) {
  Unit u;
  if (header) u.neff_archives.push_back(ArchiveWithLnc(*header));
  if (config) {
    u.configs.push_back(config::testing::ConfigFromText(
        "{\"neuron_config\": {\"tp_degree\": 8, \"logical_nc_config\": " +
            std::to_string(*config) + "}}",
        "neuron_config.json"));
  }
  return u;
}

TEST(LncResolutionTest, DefaultIsOne) {
  const LncStatement s = ResolveLnc(Unit{}, CheckOptions{});
  EXPECT_EQ(s.value, 1);
  EXPECT_EQ(s.origin, LncOrigin::kDefault);
  EXPECT_EQ(s.source, "the default");
}

TEST(LncResolutionTest, HeaderBeatsConfig) {
  const LncStatement s = ResolveLnc(UnitWith(2, 1), CheckOptions{});
  EXPECT_EQ(s.value, 2);
  EXPECT_EQ(s.origin, LncOrigin::kNeffHeader);
  EXPECT_EQ(s.source, "the header lnc_size of model.neff");
}

TEST(LncResolutionTest, ConfigWhenNoHeader) {
  const LncStatement s = ResolveLnc(UnitWith(std::nullopt, 2), CheckOptions{});
  EXPECT_EQ(s.value, 2);
  EXPECT_EQ(s.origin, LncOrigin::kConfig);
  EXPECT_EQ(s.source, "neuron_config.logical_nc_config in neuron_config.json");
  ASSERT_TRUE(s.loc.has_value());
  EXPECT_EQ(s.loc->file, "neuron_config.json");
}

TEST(LncResolutionTest, OptionsBeatEverything) {
  CheckOptions o;
  o.lnc = 1;
  o.lnc_given = true;
  o.lnc_origin = ".topolint.json";
  const LncStatement s = ResolveLnc(UnitWith(2, 2), o);
  EXPECT_EQ(s.value, 1);
  EXPECT_EQ(s.origin, LncOrigin::kOption);
  EXPECT_EQ(s.source, ".topolint.json");
  // Every statement is listed, in order, the default last.
  const std::vector<LncStatement> all = LncStatements(UnitWith(2, 2), o);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[1].origin, LncOrigin::kNeffHeader);
  EXPECT_EQ(all[2].origin, LncOrigin::kConfig);
  EXPECT_EQ(all[3].origin, LncOrigin::kDefault);
}

TEST(LncResolutionTest, UnreadableHeaderIsSkipped) {
  Unit u = UnitWith(2, std::nullopt);
  u.neff_archives[0].header_ok = false;
  EXPECT_EQ(ResolveLnc(u, CheckOptions{}).origin, LncOrigin::kDefault);
}

TEST(LncResolutionTest, CompileFlagsRankBetweenHeaderAndConfig) {
  Unit u = UnitWith(std::nullopt, 1);
  u.compile_flags.push_back(config::ParseCompileFlags(
      "[\"--target=trn2\"]", "MODULE_1/compile_flags.json"));
  LncStatement s = ResolveLnc(u, CheckOptions{});
  EXPECT_EQ(s.value, 2);
  EXPECT_EQ(s.origin, LncOrigin::kCompileFlags);
  EXPECT_EQ(s.source,
            "the default LNC of --target=trn2 in MODULE_1/compile_flags.json");
  ASSERT_TRUE(s.loc.has_value());
  EXPECT_EQ(s.loc->file, "MODULE_1/compile_flags.json");
  EXPECT_EQ(s.loc->line, 1);
  EXPECT_EQ(s.loc->column, 3);
  // An explicit flag wins over the target's default and is named as such.
  u.compile_flags[0] = config::ParseCompileFlags(
      "[\"--target=trn2\", \"--lnc=1\"]", "compile_flags.json");
  s = ResolveLnc(u, CheckOptions{});
  EXPECT_EQ(s.value, 1);
  EXPECT_EQ(s.origin, LncOrigin::kCompileFlags);
  EXPECT_EQ(s.source, "the LNC flag in compile_flags.json");
  // The header ranks above the flags.
  u.neff_archives.push_back(ArchiveWithLnc(2));
  EXPECT_EQ(ResolveLnc(u, CheckOptions{}).origin, LncOrigin::kNeffHeader);
  const std::vector<LncStatement> all = LncStatements(u, CheckOptions{});
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[1].origin, LncOrigin::kCompileFlags);
  EXPECT_EQ(all[2].origin, LncOrigin::kConfig);
}

TEST(LncResolutionTest, FlagsWithoutLncAreNoSource) {
  Unit u;
  u.compile_flags.push_back(
      config::ParseCompileFlags("[\"--target=inf2\", \"-O2\"]", "f.json"));
  u.compile_flags.push_back(
      config::ParseCompileFlags("[\"--lnc=zero\"]", "g.json"));
  EXPECT_EQ(ResolveLnc(u, CheckOptions{}).origin, LncOrigin::kDefault);
}

}  // namespace
}  // namespace topolint
