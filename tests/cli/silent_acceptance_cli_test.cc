// Issue 43 §9: what a user gave is never silently dropped. A single-valued
// option given twice with two values is a usage error, and a
// `per_file_ignores` rule glob that matches no rule is an error with a
// did-you-mean, as `rules` and `severity` are.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kEmptyTopologyDef[] =
    R"({"CCInfo": {"replica_groups": [[[0, 1]], []]}})";
constexpr char kGoodHlo[] =
    "HloModule m, replica_count=1, num_partitions=2\n\n"
    "ENTRY %main (p: f32[8]) -> f32[8] {\n"
    "  ROOT %p = f32[8]{0} parameter(0)\n"
    "}\n";

TEST(SilentAcceptanceTest, ARepeatedSingleValuedOptionIsRefused) {
  TempDir d;
  d.Write("bad.hlo", "HloModule m\n\nENTRY %main {\n  %x = f32[8 broken\n");
  d.Write("good.hlo", kGoodHlo);
  // Before: only good.hlo was checked, exit 0.
  CliResult r = RunTopolint({"check", "--hlo", d.path() + "/bad.hlo", "--hlo",
                             d.path() + "/good.hlo"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--hlo given twice"));
  EXPECT_THAT(r.err, HasSubstr("give it once"));
  // Every spelling of one option counts as one: -o and --output=.
  r = RunTopolint({"check", "-o", d.path() + "/a.txt",
                   "--output=" + d.path() + "/b.txt", d.path() + "/good.hlo"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--output given twice"));
  EXPECT_FALSE(std::filesystem::exists(d.path() + "/a.txt"));
  EXPECT_FALSE(std::filesystem::exists(d.path() + "/b.txt"));
  r = RunTopolint(
      {"check", "--format", "json", "--format=sarif", d.path() + "/good.hlo"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--format given twice ('json' and 'sarif')"));
  // The same value twice loses nothing: accepted.
  r = RunTopolint({"check", "--format", "json", "--format", "json",
                   d.path() + "/good.hlo"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Options that collect values stay repeatable.
  r = RunTopolint({"check", "--rules", "hlo-*", "--rules", "-hlo-syntax",
                   "--include", "good", "--include", "x", d.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(SilentAcceptanceTest, PerFileIgnoresRuleGlobMustMatchARule) {
  TempDir d;
  d.Write(".topolint.json",
          "{\n  \"per_file_ignores\": {\"legacy/*\": [\"neff-*\", "
          "\"neff-empty-topolgy\"]}\n}\n");
  d.Write("legacy/def.json", kEmptyTopologyDef);
  CliResult r = RunTopolint({"check", d.path() + "/legacy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(".topolint.json:2:47:"));
  EXPECT_THAT(r.err, HasSubstr("rule glob 'neff-empty-topolgy' (for files "
                               "'legacy/*') matches no rule; did you mean "
                               "'neff-empty-topology'?"));
  // "all" is a suppression comment's word, not a glob: it matched nothing
  // and silenced nothing; now it says so.
  d.Write(".topolint.json", R"({"per_file_ignores": {"legacy/*": "all"}})");
  r = RunTopolint({"check", d.path() + "/legacy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("rule glob 'all'"));
  d.Write(".topolint.json", R"({"per_file_ignores": {"legacy/*": "*"}})");
  r = RunTopolint({"check", d.path() + "/legacy"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("matches no rule")));
}

}  // namespace
}  // namespace topolint::testing
