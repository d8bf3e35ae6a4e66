// The public C++ API (include/topolint/topolint.h): units from files and
// in-memory texts, options, project configs, errors, and parity with the CLI.
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/api/api_test_util.h"
#include "tests/common/run_cli.h"
#include "tests/common/sample_inputs.h"
#include "topolint/topolint.h"

namespace topolint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;
namespace api = ::topolint::api;

std::vector<std::string> Rules(const std::vector<api::Finding>& findings) {
  std::vector<std::string> out;
  for (const api::Finding& f : findings) out.push_back(f.rule);
  return out;
}

std::vector<api::Finding> MustCheck(const api::Unit& unit,
                                    const api::Options& options = {}) {
  std::vector<api::Finding> findings;
  api::Status st = api::Check(unit, options, &findings);
  EXPECT_TRUE(st.ok()) << st.message;
  return findings;
}

// The API's findings equal the CLI's `--format json` report `cli_json`
// field by field; the API names files `file_prefix` + the CLI's name.
void ExpectSameAsCliJson(const std::vector<api::Finding>& f,
                         const std::string& cli_json,
                         const std::string& file_prefix = "") {
  const nlohmann::json expected = nlohmann::json::parse(cli_json);
  ASSERT_EQ(f.size(), expected.size());
  for (size_t i = 0; i < f.size(); ++i) {
    const nlohmann::json& e = expected[i];
    EXPECT_EQ(f[i].rule, e["rule"]);
    EXPECT_EQ(api::SeverityName(f[i].severity), e["severity"]);
    EXPECT_EQ(f[i].message, e["message"]);
    EXPECT_EQ(file_prefix + e["file"].get<std::string>(), f[i].file);
    EXPECT_EQ(f[i].line, e["line"]);
    EXPECT_EQ(f[i].column, e["column"]);
    EXPECT_EQ(f[i].notes.size(), e["notes"].size());
  }
}

TEST(ApiTest, InMemoryDefJsonFindingIsLocatedInTheDisplayName) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("out/def.json", kEmptyTopologyDef).ok());
  std::vector<api::Finding> f = MustCheck(unit);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, "neff-empty-topology");
  EXPECT_EQ(f[0].severity, api::Severity::kError);
  EXPECT_THAT(f[0].message,
              StartsWith("Empty topology found at index 1, possible MPMD neff "
                         "file"));
  EXPECT_EQ(f[0].file, "out/def.json");
  EXPECT_EQ(f[0].line, 1);
  EXPECT_EQ(f[0].column, 41);
  EXPECT_EQ(f[0].fingerprint.size(), 16u);
  EXPECT_TRUE(api::HasErrors(f));
  EXPECT_THAT(api::FormatFinding(f[0]),
              StartsWith("out/def.json:1:41: error: Empty topology found at "
                         "index 1"));
  EXPECT_THAT(api::FormatFinding(f[0]), HasSubstr(" [neff-empty-topology]"));
}

TEST(ApiTest, CleanUnitHasNoFindings) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("m/model.hlo", kModuleHlo).ok());
  ASSERT_TRUE(unit.AddText("m/def.json", kGoodDef).ok());
  std::vector<api::Finding> f = MustCheck(unit);
  EXPECT_THAT(f, IsEmpty());
  EXPECT_FALSE(api::HasErrors(f));
}

TEST(ApiTest, HloAndDefJsonOfOneUnitAreCrossChecked) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("m/model.hlo", kModuleHlo).ok());
  ASSERT_TRUE(unit.AddText("m/def.json", kTransposedDef).ok());
  std::vector<api::Finding> f = MustCheck(unit);
  ASSERT_THAT(Rules(f), ElementsAre("xref-topology-mismatch"));
  EXPECT_EQ(f[0].file, "m/model.hlo");
  EXPECT_EQ(f[0].line, 11);
  EXPECT_EQ(f[0].column, 56);
  ASSERT_FALSE(f[0].notes.empty());
  EXPECT_EQ(f[0].notes[0].file, "m/def.json");
  EXPECT_EQ(f[0].notes[0].line, 1);
}

TEST(ApiTest, InputsInDifferentDirectoriesStillFormOneUnit) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("hlo/model.hlo", kModuleHlo).ok());
  ASSERT_TRUE(unit.AddText("neff/def.json", kTransposedDef).ok());
  EXPECT_THAT(Rules(MustCheck(unit)), ElementsAre("xref-topology-mismatch"));
}

TEST(ApiTest, ExplicitKindsOverrideTheName) {
  api::Unit unit;
  ASSERT_TRUE(
      unit.AddText("ccinfo", kEmptyTopologyDef, api::InputKind::kDefJson).ok());
  ASSERT_TRUE(unit.AddText("module", kModuleHlo, api::InputKind::kHlo).ok());
  EXPECT_THAT(Rules(MustCheck(unit)), ElementsAre("neff-empty-topology"));
}

TEST(ApiTest, ComponentConfigTextIsChecked) {
  api::Unit unit;
  ASSERT_TRUE(
      unit.AddText("cfg",
                   R"({"neuron_config": {"tp_degree": 4, "tp_degre": 2}})",
                   api::InputKind::kComponentConfig)
          .ok());
  std::vector<api::Finding> f = MustCheck(unit);
  ASSERT_THAT(Rules(f), ElementsAre("config-unknown-key"));
  EXPECT_EQ(f[0].severity, api::Severity::kWarning);
  EXPECT_EQ(f[0].file, "cfg");
  EXPECT_THAT(f[0].message, HasSubstr("tp_degre"));
}

TEST(ApiTest, AutoKindRecognisesHloTextWithoutExtension) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("module", kModuleHlo).ok());
  ASSERT_EQ(unit.inputs().size(), 1u);
  EXPECT_EQ(unit.inputs()[0].kind, api::InputKind::kHlo);
}

// StableHLO text in memory is told by content as the CLI tells it on
// standard input (one function, ClassifyInMemory), and checked the same.
TEST(ApiTest, InMemoryStableHloFindingsEqualTheCli) {
  const std::string text = ReadSource(
      "fixtures/hlo-empty-group/fail-stablehlo-interpret-nx0/model.mlir");
  api::Unit unit;
  api::Status st = unit.AddText("m/jit_step", text);
  ASSERT_TRUE(st.ok()) << st.message;
  ASSERT_EQ(unit.inputs().size(), 1u);
  EXPECT_EQ(unit.inputs()[0].kind, api::InputKind::kHlo);
  const std::vector<api::Finding> f = MustCheck(unit);
  EXPECT_THAT(Rules(f), ElementsAre("hlo-empty-group", "hlo-group-coverage"));

  CliResult cli = RunTopolint(
      {"check", "--format", "json", "--stdin-filename", "m/jit_step", "-"},
      TOPOLINT_SOURCE_DIR, text);
  ASSERT_EQ(cli.exit_code, 1) << cli.err;
  ExpectSameAsCliJson(f, cli.out);
}

TEST(ApiTest, NeffBytesFromMemoryAreChecked) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("a.neff", "x").ok());
  std::vector<api::Finding> findings;
  ASSERT_TRUE(api::Check(unit, api::Options{}, &findings).ok());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].rule, "neff-schema");
  EXPECT_EQ(findings[0].file, "a.neff");
  EXPECT_THAT(findings[0].message, HasSubstr("shorter than the 1024-byte"));
}

TEST(ApiTest, BadAddTextRequestsAreRefused) {
  api::Unit unit;
  api::Status st = unit.AddText("notes.txt", "hello");
  EXPECT_EQ(st.code, api::Status::Code::kInvalidArgument);
  EXPECT_THAT(st.message, HasSubstr("notes.txt"));
  EXPECT_EQ(unit.AddText("", kGoodDef).code,
            api::Status::Code::kInvalidArgument);
  ASSERT_TRUE(unit.AddText("def.json", kGoodDef).ok());
  st = unit.AddText("def.json", kGoodDef);
  EXPECT_EQ(st.code, api::Status::Code::kInvalidArgument);
  EXPECT_THAT(st.message, HasSubstr("already in the unit"));
  EXPECT_EQ(unit.size(), 1u);
}

TEST(ApiTest, MalformedJsonIsAFindingNotAnError) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("def.json", "{\"CCInfo\": [1,\n").ok());
  std::vector<api::Finding> f = MustCheck(unit);
  ASSERT_THAT(Rules(f), ElementsAre("json-syntax"));
  EXPECT_EQ(f[0].file, "def.json");
  EXPECT_GE(f[0].line, 1);
}

TEST(ApiTest, EmptyUnitIsAnError) {
  std::vector<api::Finding> f;
  api::Status st = api::Check(api::Unit(), {}, &f);
  EXPECT_EQ(st.code, api::Status::Code::kInvalidArgument);
  EXPECT_THAT(st.message, HasSubstr("no inputs"));
}

TEST(ApiTest, FilesOnDiskAreClassifiedAndChecked) {
  TempDir d;
  std::string hlo = d.Write("m/model.hlo", kModuleHlo);
  std::string def = d.Write("m/def.json", kTransposedDef);
  api::Unit unit;
  ASSERT_TRUE(unit.AddFile(hlo).ok());
  ASSERT_TRUE(unit.AddFile(def).ok());
  EXPECT_EQ(unit.inputs()[0].kind, api::InputKind::kHlo);
  EXPECT_EQ(unit.inputs()[1].kind, api::InputKind::kAuto);  // JSON: content
  std::vector<api::Finding> f = MustCheck(unit);
  ASSERT_THAT(Rules(f), ElementsAre("xref-topology-mismatch"));
  EXPECT_EQ(f[0].file, hlo);
}

TEST(ApiTest, BadAddFileRequestsAreRefused) {
  TempDir d;
  api::Unit unit;
  api::Status st = unit.AddFile(d.path() + "/missing.hlo");
  EXPECT_EQ(st.code, api::Status::Code::kNotFound);
  EXPECT_THAT(st.message, HasSubstr("missing.hlo"));
  EXPECT_EQ(unit.AddFile(d.path()).code, api::Status::Code::kInvalidArgument);
  std::string txt = d.Write("notes.txt", "not an input");
  EXPECT_EQ(unit.AddFile(txt).code, api::Status::Code::kInvalidArgument);
  std::string def = d.Write("def.json", kGoodDef);
  ASSERT_TRUE(unit.AddFile(def).ok());
  EXPECT_EQ(unit.AddFile(def).code, api::Status::Code::kInvalidArgument);
  EXPECT_TRUE(unit.AddText(def, kGoodDef).ok());  // texts have their own names
}

TEST(ApiTest, RuleGlobsSelectRules) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("def.json", kEmptyTopologyDef).ok());
  api::Options options;
  options.rules = {"-*", "hlo-*"};
  EXPECT_THAT(MustCheck(unit, options), IsEmpty());
  options.rules = {"-*,hlo-*", "neff-empty-*"};  // later entries win
  EXPECT_THAT(Rules(MustCheck(unit, options)),
              ElementsAre("neff-empty-topology"));
}

TEST(ApiTest, BadOptionsAreErrors) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("def.json", kGoodDef).ok());
  std::vector<api::Finding> f;
  api::Options options;
  options.rules = {"no-such-rule"};
  api::Status st = api::Check(unit, options, &f);
  EXPECT_EQ(st.code, api::Status::Code::kInvalidArgument);
  EXPECT_THAT(st.message, HasSubstr("no-such-rule"));
  options = {};
  options.lnc = 0;
  st = api::Check(unit, options, &f);
  EXPECT_EQ(st.code, api::Status::Code::kInvalidArgument);
  EXPECT_THAT(st.message, HasSubstr("lnc"));
  options = {};
  options.num_partitions = -3;
  EXPECT_EQ(api::Check(unit, options, &f).code,
            api::Status::Code::kInvalidArgument);
}

TEST(ApiTest, NumPartitionsAndWerrorApply) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("w.hlo", kNotFlattenedHlo).ok());
  EXPECT_THAT(MustCheck(unit), IsEmpty());  // 1 partition: nothing to flatten
  api::Options options;
  options.num_partitions = 2;
  std::vector<api::Finding> f = MustCheck(unit, options);
  ASSERT_THAT(Rules(f), ElementsAre("hlo-not-flattened-id"));
  EXPECT_EQ(f[0].severity, api::Severity::kWarning);
  EXPECT_EQ(f[0].line, 11);
  EXPECT_EQ(f[0].column, 24);
  EXPECT_FALSE(api::HasErrors(f));
  options.werror = true;
  f = MustCheck(unit, options);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, api::Severity::kError);
  EXPECT_TRUE(api::HasErrors(f));
}

TEST(ApiTest, LncAndNumCoresApply) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("def.json", kFourRankDef).ok());
  api::Options options;
  options.num_cores = 4;
  EXPECT_THAT(MustCheck(unit, options), IsEmpty());
  options.lnc = 2;
  EXPECT_THAT(Rules(MustCheck(unit, options)),
              ElementsAre("lnc-rank-range", "lnc-rank-range"));
}

TEST(ApiTest, ProjectConfigAppliesAndOptionsWinOverIt) {
  TempDir d;
  std::string cfg = d.Write(
      ".topolint.json",
      R"({"severity": {"neff-empty-topology": "warning"}, "num_cores": 4})");
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("def.json", kEmptyTopologyDef).ok());
  api::Options options;
  options.project_config = cfg;
  std::vector<api::Finding> f = MustCheck(unit, options);
  ASSERT_THAT(Rules(f), ElementsAre("neff-empty-topology"));
  EXPECT_EQ(f[0].severity, api::Severity::kWarning);
  options.werror = true;  // on top of the config
  f = MustCheck(unit, options);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, api::Severity::kError);

  api::Unit ranks;
  ASSERT_TRUE(ranks.AddText("def.json", kFourRankDef).ok());
  options = {};
  options.project_config = cfg;
  options.lnc = 2;  // with the config's num_cores 4
  EXPECT_THAT(Rules(MustCheck(ranks, options)),
              ElementsAre("lnc-rank-range", "lnc-rank-range"));
}

TEST(ApiTest, ProjectConfigIsSearchedOnlyWhenAsked) {
  TempDir d;
  d.Write(".topolint.json", R"({"rules": "-neff-empty-topology"})");
  std::string def = d.Write("sub/def.json", kEmptyTopologyDef);
  api::Unit unit;
  ASSERT_TRUE(unit.AddFile(def).ok());
  EXPECT_THAT(Rules(MustCheck(unit)), ElementsAre("neff-empty-topology"));
  api::Options options;
  options.search_project_config = true;
  EXPECT_THAT(MustCheck(unit, options), IsEmpty());
}

TEST(ApiTest, InvalidProjectConfigIsAnError) {
  TempDir d;
  std::string cfg = d.Write(".topolint.json", R"({"lnc": "two"})");
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("def.json", kGoodDef).ok());
  api::Options options;
  options.project_config = cfg;
  std::vector<api::Finding> f;
  api::Status st = api::Check(unit, options, &f);
  EXPECT_EQ(st.code, api::Status::Code::kInvalidArgument);
  EXPECT_THAT(st.message, HasSubstr(cfg + ":1:"));
  options.project_config = d.path() + "/missing.json";
  st = api::Check(unit, options, &f);
  EXPECT_EQ(st.code, api::Status::Code::kInvalidArgument);
  EXPECT_THAT(st.message, HasSubstr("missing.json"));
}

TEST(ApiTest, CheckPathsGroupsFilesByDirectoryLikeTheCli) {
  TempDir d;
  d.Write("a/model.hlo", kModuleHlo);
  d.Write("a/def.json", kTransposedDef);
  d.Write("b/def.json", kEmptyTopologyDef);
  d.Write("c/model.hlo", kModuleHlo);  // clean alone
  std::vector<api::Finding> f;
  ASSERT_TRUE(api::CheckPaths({d.path()}, {}, &f).ok());
  EXPECT_THAT(Rules(f),
              ElementsAre("xref-topology-mismatch", "neff-empty-topology"));
  EXPECT_EQ(f[0].file, d.path() + "/a/model.hlo");
  EXPECT_EQ(f[1].file, d.path() + "/b/def.json");

  api::Status st = api::CheckPaths({d.path() + "/nope"}, {}, &f);
  EXPECT_EQ(st.code, api::Status::Code::kNotFound);
  EXPECT_THAT(f, IsEmpty());
  EXPECT_EQ(api::CheckPaths({}, {}, &f).code,
            api::Status::Code::kInvalidArgument);
}

TEST(ApiTest, FindingsEqualTheCliJsonOutput) {
  TempDir d;
  d.Write("m/model.hlo", kModuleHlo);
  d.Write("m/def.json", kTransposedDef);
  d.Write("n/def.json", kEmptyTopologyDef);
  CliResult cli =
      RunTopolint({"check", "--format", "json", "m", "n"}, d.path());
  ASSERT_EQ(cli.exit_code, 1) << cli.err;

  std::vector<api::Finding> f;
  ASSERT_TRUE(api::CheckPaths({d.path() + "/m", d.path() + "/n"}, {}, &f).ok());
  ExpectSameAsCliJson(f, cli.out, d.path() + "/");
}

TEST(ApiTest, ConcurrentChecksAgree) {
  api::Unit unit;
  ASSERT_TRUE(unit.AddText("m/model.hlo", kModuleHlo).ok());
  ASSERT_TRUE(unit.AddText("m/def.json", kTransposedDef).ok());
  std::vector<api::Finding> reference = MustCheck(unit);
  ASSERT_EQ(reference.size(), 1u);
  std::vector<std::vector<api::Finding>> results(4);
  std::vector<std::thread> threads;
  for (auto& r : results) {
    threads.emplace_back([&unit, &r] {
      for (int i = 0; i < 20; ++i) {
        if (!api::Check(unit, {}, &r).ok()) r.clear();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& r : results) {
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(api::FormatFinding(r[0]), api::FormatFinding(reference[0]));
    EXPECT_EQ(r[0].fingerprint, reference[0].fingerprint);
  }
}

TEST(ApiTest, VersionIsTheProjectVersion) {
  EXPECT_THAT(std::string(api::Version()),
              ::testing::MatchesRegex("[0-9]+\\.[0-9]+\\.[0-9]+"));
}

}  // namespace
}  // namespace topolint::testing
