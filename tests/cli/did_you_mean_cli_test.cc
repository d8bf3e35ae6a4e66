// Issue 47 §3: whatever is mistyped is answered with the intended spelling,
// from the flag table and the rule registry, by one edit distance
// (checker/diag/spelling.h).
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kGoodHlo[] =
    "HloModule m, replica_count=1, num_partitions=2\n\n"
    "ENTRY %main (p: f32[8]) -> f32[8] {\n"
    "  ROOT %p = f32[8]{0} parameter(0)\n"
    "}\n";

TEST(DidYouMeanTest, UnknownOption) {
  TempDir d;
  d.Write("m.hlo", kGoodHlo);
  CliResult r = RunTopolint({"check", "--formt", "json", d.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown option '--formt'; did you mean "
                               "'--format'?"));
  r = RunTopolint({"--follow-symlink", d.path()});
  EXPECT_THAT(r.err, HasSubstr("did you mean '--follow-symlinks'?"));
  r = RunTopolint({"--quite", d.path()});
  EXPECT_THAT(r.err, HasSubstr("did you mean '--quiet'?"));
  // Nothing close: no guess.
  r = RunTopolint({"--frobnicate", d.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown option '--frobnicate'"));
  EXPECT_THAT(r.err, Not(HasSubstr("did you mean")));
}

TEST(DidYouMeanTest, OptionValue) {
  CliResult r = RunTopolint({"check", "--color", "allways"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--color must be auto, always or never, got "
                               "'allways'; did you mean 'always'?"));
  r = RunTopolint({"check", "--format=jsno"});
  EXPECT_THAT(r.err, HasSubstr("did you mean 'json'?"));
}

TEST(DidYouMeanTest, Command) {
  TempDir d;
  CliResult r = RunTopolint({"chek", "."}, d.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("'chek' is neither a command nor a file; did "
                               "you mean `topolint check`?"));
  r = RunTopolint({"explian"}, d.path());
  EXPECT_THAT(r.err, HasSubstr("did you mean `topolint explain`?"));
  // A file of that name is checked, as before.
  d.Write("chek", kGoodHlo);
  r = RunTopolint({"chek"}, d.path());
  EXPECT_THAT(r.err, Not(HasSubstr("did you mean")));
  // help, version and -V work.
  r = RunTopolint({"help"}, d.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("commands:"));
  r = RunTopolint({"help", "rules"}, d.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("usage: topolint rules"));
  for (const char* v : {"version", "-V", "--version"}) {
    r = RunTopolint({v}, d.path());
    EXPECT_EQ(r.exit_code, 0) << v;
    EXPECT_THAT(r.out, HasSubstr("topolint ")) << v;
  }
}

TEST(DidYouMeanTest, RulesGlobAndRuleId) {
  TempDir d;
  d.Write("m.hlo", kGoodHlo);
  CliResult r = RunTopolint({"check", "--rules", "-hlo-sytax", d.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("rule glob 'hlo-sytax' matches no rule; did "
                               "you mean 'hlo-syntax'?"));
  r = RunTopolint({"rules", "neff-empty-topolgy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown rule 'neff-empty-topolgy'; did you "
                               "mean 'neff-empty-topology'?"));
}

TEST(DidYouMeanTest, PerFileIgnores) {
  TempDir d;
  d.Write(".topolint.json",
          R"({"per_file_ignores": {"*.hlo": ["hlo-sytax"]}})");
  d.Write("m.hlo", kGoodHlo);
  CliResult r = RunTopolint({"check", d.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean 'hlo-syntax'?"));
}

TEST(DidYouMeanTest, SuppressionComment) {
  TempDir d;
  d.Write("m.hlo",
          "HloModule m, replica_count=1, num_partitions=2\n\n"
          "ENTRY %main (p: f32[8]) -> f32[8] {\n"
          "  // topolint: disable-next-line=hlo-duplicate-devise-id\n"
          "  ROOT %p = f32[8]{0} parameter(0)\n"
          "}\n");
  CliResult r = RunTopolint({"check", "--color", "never", d.path()});
  EXPECT_THAT(r.out, HasSubstr("[unused-suppression]"));
  EXPECT_THAT(r.out, HasSubstr("suppression names no known rule "
                               "(hlo-duplicate-devise-id (did you mean "
                               "'hlo-duplicate-device-id'?))"));
}

}  // namespace
}  // namespace topolint::testing
