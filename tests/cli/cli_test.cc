// End-to-end tests of the `topolint` command line: verbs, exit codes,
// formats, rule selection, settings files, baselines, stdin.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char kGoodDef[] = R"({
  "var": {},
  "CCInfo": {
    "replica_groups": [[[0, 4], [1, 5], [2, 6], [3, 7]]]
  }
})";

// Topology 1 is empty: the NEFF reader refuses it as MPMD.
const char kEmptyTopologyDef[] = R"({
  "CCInfo": {
    "replica_groups": [[[0, 1]], []]
  }
})";

TEST(CliTest, CleanInputExitsZero) {
  TempDir d;
  d.Write("a/def.json", kGoodDef);
  CliResult r = RunTopolint({"check", d.path() + "/a"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("no findings"));
}

TEST(CliTest, CheckIsTheDefaultVerb) {
  TempDir d;
  d.Write("a/def.json", kEmptyTopologyDef);
  CliResult r = RunTopolint({d.path() + "/a"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("[neff-empty-topology]"));
}

TEST(CliTest, ErrorFindingExitsOneWithLocatedMessage) {
  TempDir d;
  std::string f = d.Write("def.json", kEmptyTopologyDef);
  CliResult r = RunTopolint({"check", "--color", "never", f});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out,
              HasSubstr(f + ":3:34: error: Empty topology found at index 1, "
                            "possible MPMD neff file"));
}

TEST(CliTest, MissingPathIsUsageError) {
  CliResult r = RunTopolint({"check", "/nonexistent/topolint/input"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/topolint/input"));
  EXPECT_THAT(r.err, HasSubstr("no such file"));
}

TEST(CliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(RunTopolint({}).exit_code, 2);  // `check` alone checks `.`
  EXPECT_EQ(RunTopolint({"check", "--format", "xml", "."}).exit_code, 2);
  EXPECT_EQ(RunTopolint({"check", "--bogus", "."}).exit_code, 2);
  EXPECT_EQ(RunTopolint({"check", "--lnc", "0", "."}).exit_code, 2);
  EXPECT_EQ(RunTopolint({"check", "--rules", "no-such-rule", "."}).exit_code,
            2);
  EXPECT_EQ(RunTopolint({"check", "-"}).exit_code, 2);  // needs a name
}

TEST(CliTest, MalformedJsonIsAFindingNotExitTwo) {
  TempDir d;
  d.Write("def.json", "{\"CCInfo\": [1, 2,\n");
  CliResult r = RunTopolint({"check", "--color", "never", d.path()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("[json-syntax]"));
}

TEST(CliTest, RuleGlobsLaterEntriesWin) {
  TempDir d;
  d.Write("def.json", kEmptyTopologyDef);
  EXPECT_EQ(RunTopolint({"check", "--rules", "-*", d.path()}).exit_code, 0);
  EXPECT_EQ(RunTopolint({"check", "--rules", "-*,neff-*", d.path()}).exit_code,
            1);
  EXPECT_EQ(RunTopolint({"check", "--rules", "-*,neff-*,-neff-empty-topology",
                         d.path()})
                .exit_code,
            0);
}

TEST(CliTest, JsonFormatIsOneArrayOnStdout) {
  TempDir d;
  d.Write("def.json", kEmptyTopologyDef);
  CliResult r = RunTopolint({"check", "--format", "json", d.path()});
  EXPECT_EQ(r.exit_code, 1);
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j[0]["rule"], "neff-empty-topology");
  EXPECT_EQ(j[0]["severity"], "error");
  EXPECT_EQ(j[0]["line"], 3);
  EXPECT_TRUE(j[0]["notes"].is_array());
}

TEST(CliTest, SarifOutputValidatesAgainstTheSchema) {
  TempDir d;
  d.Write("def.json", kEmptyTopologyDef);
  std::string out = d.path() + "/report.sarif";
  CliResult r =
      RunTopolint({"check", "--format", "sarif", "-o", out, d.path()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");  // the report went to the file
  nlohmann::json j = nlohmann::json::parse(ReadAll(out));
  EXPECT_EQ(j["version"], "2.1.0");
  EXPECT_EQ(j["runs"][0]["tool"]["driver"]["name"], "topolint");
  std::string cmd =
      "python3 -c 'import json,sys,jsonschema; "
      "jsonschema.validate(json.load(open(sys.argv[1])), "
      "json.load(open(sys.argv[2])))' " +
      ShellQuote(out) + " " +
      ShellQuote(std::string(TOPOLINT_SOURCE_DIR) +
                 "/tests/data/sarif-2.1.0-rtm.5.json");
  EXPECT_EQ(std::system(cmd.c_str()), 0);
}

TEST(CliTest, GithubFormat) {
  TempDir d;
  std::string f = d.Write("def.json", kEmptyTopologyDef);
  CliResult r = RunTopolint({"check", "--format", "github", f});
  EXPECT_THAT(r.out, HasSubstr("::error file=" + f +
                               ",line=3,col=34,"
                               "title=neff-empty-topology::"));
}

TEST(CliTest, WerrorPromotesWarnings) {
  TempDir d;
  // A component config key nobody knows is a warning.
  d.Write("neuron_config.json",
          R"({"neuron_config": {"tp_degree": 2, "mlp_dp_szie": 1}})");
  CliResult plain = RunTopolint({"check", d.path()});
  EXPECT_EQ(plain.exit_code, 0) << plain.out;
  EXPECT_THAT(plain.out, HasSubstr("warning:"));
  CliResult werror = RunTopolint({"check", "--werror", d.path()});
  EXPECT_EQ(werror.exit_code, 1);
}

TEST(CliTest, StdinWithFilename) {
  CliResult r = RunTopolint({"check", "--stdin-filename", "job/def.json", "-"},
                            TOPOLINT_SOURCE_DIR, kEmptyTopologyDef);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("job/def.json:3:34: error:"));
}

TEST(CliTest, ProjectConfigIsFoundUpwardAndApplied) {
  TempDir d;
  d.Write(".topolint.json", R"({"rules": "-neff-empty-topology"})");
  d.Write("deep/unit/def.json", kEmptyTopologyDef);
  EXPECT_EQ(RunTopolint({"check", d.path() + "/deep/unit"}).exit_code, 0);
  // --config overrides the nearest file.
  std::string other = d.Write("other.json", R"({"rules": ["*"]})");
  EXPECT_EQ(RunTopolint({"check", "--config", other, d.path() + "/deep/unit"})
                .exit_code,
            1);
}

TEST(CliTest, ProjectConfigSeverityAndPerFileIgnores) {
  TempDir d;
  d.Write(".topolint.json",
          R"({"severity": {"neff-empty-topology": "warning"}})");
  d.Write("u/def.json", kEmptyTopologyDef);
  CliResult r = RunTopolint({"check", d.path() + "/u"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("warning: Empty topology"));

  TempDir e;
  e.Write(".topolint.json",
          R"({"per_file_ignores": {"legacy/*": ["neff-*"]}})");
  e.Write("legacy/def.json", kEmptyTopologyDef);
  EXPECT_EQ(RunTopolint({"check", e.path() + "/legacy"}).exit_code, 0);
}

TEST(CliTest, InvalidProjectConfigIsExitTwoWithPosition) {
  TempDir d;
  d.Write(".topolint.json", "{\n  \"lnc\": \"two\"\n}\n");
  d.Write("u/def.json", kGoodDef);
  CliResult r = RunTopolint({"check", d.path() + "/u"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(".topolint.json:2:10:"));
}

TEST(CliTest, BaselineHidesRecordedFindings) {
  TempDir d;
  d.Write("u/def.json", kEmptyTopologyDef);
  std::string base = d.path() + "/baseline.json";
  EXPECT_EQ(RunTopolint({"check", "--write-baseline", base, d.path() + "/u"})
                .exit_code,
            1);
  CliResult r = RunTopolint({"check", "--baseline", base, d.path() + "/u"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.err, HasSubstr("baseline hid 1 finding"));
  // An unrelated edit that moves the finding down keeps it hidden.
  d.Write("u/def.json", std::string("\n\n") + kEmptyTopologyDef);
  EXPECT_EQ(
      RunTopolint({"check", "--baseline", base, d.path() + "/u"}).exit_code, 0);
  // Fixing the problem leaves a stale entry, which is reported.
  d.Write("u/def.json", kGoodDef);
  CliResult fixed = RunTopolint({"check", "--baseline", base, d.path() + "/u"});
  EXPECT_EQ(fixed.exit_code, 0);
  EXPECT_THAT(fixed.err, HasSubstr("1 baseline entry no longer matches"));
}

TEST(CliTest, ParallelJobsGiveTheSameOutput) {
  TempDir d;
  for (int i = 0; i < 6; ++i) {
    d.Write("u" + std::to_string(i) + "/def.json", kEmptyTopologyDef);
  }
  CliResult one = RunTopolint({"check", "--color", "never", d.path()});
  CliResult many =
      RunTopolint({"check", "--color", "never", "-j", "4", d.path()});
  EXPECT_EQ(one.out, many.out);
  EXPECT_EQ(one.exit_code, many.exit_code);
}

TEST(CliTest, RulesListsEveryRuleAndShowsDocs) {
  CliResult list = RunTopolint({"rules"});
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_THAT(list.out, HasSubstr("xref-topology-mismatch"));
  EXPECT_THAT(list.out, HasSubstr("neff-empty-topology"));
  CliResult one = RunTopolint({"rules", "neff-empty-topology"});
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_THAT(one.out, HasSubstr("## What it checks"));
  EXPECT_EQ(RunTopolint({"rules", "no-such-rule"}).exit_code, 2);
}

TEST(CliTest, UnrecognisedJsonInADirectoryIsSkippedSilently) {
  TempDir d;
  d.Write("package.json", R"({"name": "x"})");
  d.Write("broken.json", "{");
  CliResult r = RunTopolint({"check", d.path()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
}

TEST(CliTest, StatisticsCountsPerRule) {
  TempDir d;
  d.Write("def.json", kEmptyTopologyDef);
  CliResult r = RunTopolint({"check", "--statistics", d.path()});
  EXPECT_THAT(r.err, HasSubstr("neff-empty-topology"));
}

TEST(CliTest, QuietSuppressesSummary) {
  TempDir d;
  d.Write("def.json", kGoodDef);
  CliResult r = RunTopolint({"check", "--quiet", d.path()});
  EXPECT_EQ(r.err, "");
}

TEST(CliTest, ColorOnlyWhenAsked) {
  TempDir d;
  d.Write("def.json", kEmptyTopologyDef);
  EXPECT_THAT(RunTopolint({"check", d.path()}).out, Not(HasSubstr("\x1b[")));
  EXPECT_THAT(RunTopolint({"check", "--color", "always", d.path()}).out,
              HasSubstr("\x1b["));
}

}  // namespace
}  // namespace topolint::testing
