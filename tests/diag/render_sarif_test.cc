#include <cstdlib>
#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/diag/finding_samples.h"
#include "tests/diag/temp_dir.h"

namespace topolint {
namespace {

using Json = nlohmann::json;

constexpr const char* kSchema =
    TOPOLINT_SOURCE_DIR "/tests/data/sarif-2.1.0-rtm.5.json";

std::vector<RuleDescriptor> SampleRules() {
  return {
      {"hlo-empty-group", Severity::kError, "a group is empty",
       "Checks that no replica group is empty.",
       "https://example.invalid/rules/hlo-empty-group.md",
       "# hlo-empty-group\n\n## What it checks\n\nNo group is empty.\n"},
      {"hlo-not-flattened-id", Severity::kWarning, "not flattened-id mode", "",
       "docs/rules/hlo-not-flattened-id.md", ""},
      {"xref-topology-mismatch", Severity::kError, "groups differ",
       "Compares HLO groups with topology[0].",
       "docs/rules/xref-topology-mismatch.md", ""},
  };
}

std::vector<Finding> SampleFindings() {
  Finding mismatch =
      SampleFinding("xref-topology-mismatch", {"run dir/model.hlo", 14, 76},
                    "group 1 differs", Severity::kError, "%ar");
  mismatch.notes.push_back({{"run dir/def.json", 3, 25}, "declared here"});
  mismatch.notes.push_back({{"run dir/def.json", 0, 0}, "the whole file"});
  return {
      SampleFinding("hlo-empty-group", {"m.hlo", 3, 0}, "group 0 is empty"),
      SampleFinding("hlo-not-flattened-id", {"a.neff:sg00/def.json", 0, 0},
                    "not flattened", Severity::kWarning),
      mismatch,
      SampleFinding("made-up-rule", {"/abs/x.hlo", 1, 1}, "unregistered",
                    Severity::kNote),
  };
}

// Validates `doc` against the SARIF schema with python3-jsonschema.
// Returns the exit status (0 = valid), or -1 when the validator is missing.
// `quiet` hides the validator's report (for documents meant to fail).
int ValidateWithSchema(const Json& doc, const TempDir& dir,
                       bool quiet = false) {
  if (std::system("python3 -c 'import jsonschema' >/dev/null 2>&1") != 0) {
    return -1;
  }
  const std::string path = dir.Write("out.sarif", doc.dump());
  const std::string cmd =
      "python3 -c 'import json,jsonschema,sys; "
      "jsonschema.validate(json.load(open(sys.argv[1])), "
      "json.load(open(sys.argv[2])))' '" +
      path + "' '" + kSchema + "'" + (quiet ? " 2>/dev/null" : "");
  return std::system(cmd.c_str());
}

TEST(RenderSarifTest, ValidatesAgainstTheSarifSchema) {
  TempDir dir;
  const Json doc =
      Json::parse(RenderSarif(SampleFindings(), SampleRules(), "0.1.0"));
  const int status = ValidateWithSchema(doc, dir);
  if (status == -1) GTEST_SKIP() << "python3 jsonschema is not installed";
  EXPECT_EQ(status, 0);

  // The validator must reject what the schema forbids, or the check above
  // proves nothing.
  Json broken = doc;
  broken["runs"][0]["results"][0]["level"] = "fatal";
  EXPECT_NE(ValidateWithSchema(broken, dir, /*quiet=*/true), 0);
  Json no_driver = doc;
  no_driver["runs"][0]["tool"].erase("driver");
  EXPECT_NE(ValidateWithSchema(no_driver, dir, /*quiet=*/true), 0);
}

TEST(RenderSarifTest, EmptyRunValidates) {
  TempDir dir;
  const Json doc = Json::parse(RenderSarif({}, {}, ""));
  EXPECT_EQ(doc["runs"][0]["results"], Json::array());
  EXPECT_FALSE(doc["runs"][0]["tool"]["driver"].contains("version"));
  const int status = ValidateWithSchema(doc, dir);
  if (status == -1) GTEST_SKIP() << "python3 jsonschema is not installed";
  EXPECT_EQ(status, 0);
}

TEST(RenderSarifTest, LogAndDriver) {
  const Json doc =
      Json::parse(RenderSarif(SampleFindings(), SampleRules(), "0.1.0"));
  EXPECT_EQ(doc["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  EXPECT_EQ(doc["version"], "2.1.0");
  ASSERT_EQ(doc["runs"].size(), 1u);
  const Json& driver = doc["runs"][0]["tool"]["driver"];
  EXPECT_EQ(driver["name"], "topolint");
  EXPECT_EQ(driver["version"], "0.1.0");
  EXPECT_EQ(driver["semanticVersion"], "0.1.0");
  EXPECT_EQ(driver["informationUri"], std::string(kTopolintInformationUri));
  EXPECT_FALSE(doc["runs"][0].contains("columnKind"));

  // The rules with results, in the order of their first result.
  ASSERT_EQ(driver["rules"].size(), 3u);
  const Json expected_rule = {
      {"id", "hlo-empty-group"},
      {"name", "HloEmptyGroup"},
      {"shortDescription", {{"text", "a group is empty"}}},
      {"fullDescription", {{"text", "a group is empty"}}},
      {"help",
       {{"text",
         "a group is empty\n\nThe rule's page: "
         "https://example.invalid/rules/hlo-empty-group.md (`topolint rules "
         "hlo-empty-group` prints it)."},
        {"markdown",
         "# hlo-empty-group\n\n## What it checks\n\nNo group is empty.\n"}}},
      {"helpUri", "https://example.invalid/rules/hlo-empty-group.md"},
      {"defaultConfiguration", {{"level", "error"}}}};
  EXPECT_EQ(driver["rules"][0], expected_rule);
  // A relative help path is never written as helpUri.
  EXPECT_FALSE(driver["rules"][1].contains("helpUri"));
  EXPECT_EQ(driver["rules"][1]["help"],
            Json({{"text",
                   "not flattened-id mode\n\n`topolint rules "
                   "hlo-not-flattened-id` prints the rule's page."}}));
  EXPECT_EQ(driver["rules"][1]["fullDescription"]["text"],
            "not flattened-id mode");
  EXPECT_EQ(driver["rules"][1]["defaultConfiguration"]["level"], "warning");
  EXPECT_EQ(driver["rules"][2]["name"], "XrefTopologyMismatch");
}

// Issue 47: 3 results used to carry every rule's description three times
// (152 KB); each rule with a result is described once, the others not.
TEST(RenderSarifTest, OnlyRulesWithResultsAreDescribedOnce) {
  std::vector<RuleDescriptor> rules = SampleRules();
  const std::string page(20000, 'p');
  for (RuleDescriptor& r : rules) r.page = page;
  const std::vector<Finding> findings = {
      SampleFinding("xref-topology-mismatch", {"m.hlo", 1, 1}, "a"),
      SampleFinding("hlo-empty-group", {"m.hlo", 2, 1}, "b"),
      SampleFinding("xref-topology-mismatch", {"m.hlo", 3, 1}, "c")};
  const std::string text = RenderSarif(findings, rules, "1.2.3-rc.1");
  const Json doc = Json::parse(text);
  const Json& run = doc["runs"][0];
  const Json& listed = run["tool"]["driver"]["rules"];
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0]["id"], "xref-topology-mismatch");
  EXPECT_EQ(listed[1]["id"], "hlo-empty-group");
  EXPECT_EQ(run["results"][0]["ruleIndex"], 0);
  EXPECT_EQ(run["results"][1]["ruleIndex"], 1);
  EXPECT_EQ(run["results"][2]["ruleIndex"], 0);
  EXPECT_LT(text.size(), 2 * page.size() + 4000);  // each page once
  EXPECT_EQ(run["tool"]["driver"]["semanticVersion"], "1.2.3-rc.1");
  // Not a semantic version: version only.
  const Json odd = Json::parse(RenderSarif(findings, rules, "fuzz"));
  EXPECT_FALSE(odd["runs"][0]["tool"]["driver"].contains("semanticVersion"));
  // No results: no rules.
  EXPECT_EQ(Json::parse(RenderSarif({}, rules,
                                    "1"))["runs"][0]["tool"]["driver"]["rules"],
            Json::array());
}

// GitHub shows related locations only through links in the message
// ("SARIF support for code scanning": relatedLocations).
TEST(RenderSarifTest, NotesAreLinkedFromTheMessage) {
  Finding f = SampleFinding(
      "xref-topology-mismatch", {"m.hlo", 12, 83},
      "replica group 1 is {1,5} here but {1,6} in topology[0] (rank 30)");
  f.notes.push_back({{"def.json", 3, 24}, "topology[0] is declared here"});
  f.notes.push_back({{"def.json", 3, 30}, "rank 3 first appears here"});
  f.notes.push_back({{"cfg.json", 2, 5}, "kv_role is set here"});
  const Json result = Json::parse(
      RenderSarif({f}, SampleRules(), "1"))["runs"][0]["results"][0];
  // "[" and "]" in link text are escaped (SARIF 2.1.0 §3.11.6); "rank 3" is
  // not "rank 30"; notes the message does not name are listed at its end.
  EXPECT_EQ(result["message"]["text"],
            "replica group 1 is {1,5} here but {1,6} in [topology\\[0\\]](1) "
            "(rank 30) (see [rank 3 first appears here](2); [kv_role is set "
            "here](3))");
  ASSERT_EQ(result["relatedLocations"].size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(result["relatedLocations"][i]["id"], i + 1);
  }
  EXPECT_EQ(result["relatedLocations"][0]["message"]["text"],
            "topology[0] is declared here");
  // Two notes about one subject: each links the next place it is named.
  Finding twice =
      SampleFinding("r", {"m.hlo", 1, 1}, "kv_role differs from kv_role");
  twice.notes.push_back({{"a.json", 1, 1}, "kv_role is set here"});
  twice.notes.push_back({{"b.json", 1, 1}, "kv_role is set here"});
  EXPECT_EQ(Json::parse(RenderSarif(
                {twice}, {}, "1"))["runs"][0]["results"][0]["message"]["text"],
            "[kv_role](1) differs from [kv_role](2)");
  // A subject ends before a verb: "kv_role", not "kv_role is".
  Finding verb = SampleFinding("r", {"m.hlo", 1, 1}, "so kv_role is wrong");
  verb.notes.push_back({{"a.json", 1, 1}, "kv_role is set here"});
  EXPECT_EQ(Json::parse(RenderSarif(
                {verb}, {}, "1"))["runs"][0]["results"][0]["message"]["text"],
            "so [kv_role](1) is wrong");
}

TEST(RenderSarifTest, Results) {
  const std::vector<Finding> findings = SampleFindings();
  const Json results = Json::parse(
      RenderSarif(findings, SampleRules(), "1"))["runs"][0]["results"];
  ASSERT_EQ(results.size(), 4u);

  // Line without column: no startColumn.
  const Json& empty = results[0];
  EXPECT_EQ(empty["ruleId"], "hlo-empty-group");
  EXPECT_EQ(empty["ruleIndex"], 0);
  EXPECT_EQ(empty["level"], "error");
  EXPECT_EQ(empty["message"]["text"], "group 0 is empty");
  EXPECT_EQ(empty["locations"], Json::parse(R"([{"physicalLocation": {
                "artifactLocation": {"uri": "m.hlo"},
                "region": {"startLine": 3}}}])"));
  EXPECT_FALSE(empty.contains("relatedLocations"));

  // Line 0: no region; ':' escaped so the name is not a URI scheme.
  const Json& warn = results[1];
  EXPECT_EQ(warn["level"], "warning");
  EXPECT_EQ(warn["ruleIndex"], 1);
  EXPECT_EQ(warn["locations"][0]["physicalLocation"],
            Json::parse(R"({"artifactLocation":
                            {"uri": "a.neff%3Asg00/def.json"}})"));

  const Json& mismatch = results[2];
  EXPECT_EQ(mismatch["ruleIndex"], 2);
  EXPECT_EQ(mismatch["locations"][0]["physicalLocation"],
            Json::parse(R"({"artifactLocation": {"uri": "run%20dir/model.hlo"},
                            "region": {"startLine": 14, "startColumn": 76}})"));
  EXPECT_EQ(mismatch["message"]["text"],
            "group 1 differs (see [declared here](1); [the whole file](2))");
  EXPECT_EQ(mismatch["relatedLocations"], Json::parse(R"([
      {"id": 1,
       "physicalLocation": {"artifactLocation": {"uri": "run%20dir/def.json"},
                            "region": {"startLine": 3, "startColumn": 25}},
       "message": {"text": "declared here"}},
      {"id": 2,
       "physicalLocation": {"artifactLocation": {"uri": "run%20dir/def.json"}},
       "message": {"text": "the whole file"}}])"));
  EXPECT_EQ(mismatch["partialFingerprints"],
            Json({{"topolint/v1", RootedFingerprint(findings[2])}}));

  // A rule the driver does not list has no ruleIndex.
  const Json& unknown = results[3];
  EXPECT_EQ(unknown["level"], "note");
  EXPECT_FALSE(unknown.contains("ruleIndex"));
  EXPECT_EQ(
      unknown["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
      "file:///abs/x.hlo");
}

TEST(RenderSarifTest, InvalidUtf8DoesNotThrow) {
  std::string text;
  ASSERT_NO_THROW(
      text = RenderSarif({SampleFinding("r", {"a.hlo", 1, 1}, "bad \xff byte")},
                         {}, "1"));
  EXPECT_EQ(Json::parse(text)["runs"][0]["results"][0]["message"]["text"],
            "bad \xef\xbf\xbd byte");
}

TEST(PathToUriReferenceTest, EncodesWhatIsNotAllowedInAPath) {
  EXPECT_EQ(PathToUriReference("fixtures/a-b_c.d~/model.hlo"),
            "fixtures/a-b_c.d~/model.hlo");
  EXPECT_EQ(PathToUriReference("a b/c#d?e%f"), "a%20b/c%23d%3Fe%25f");
  EXPECT_EQ(PathToUriReference("x:y/z"), "x%3Ay/z");
  EXPECT_EQ(PathToUriReference("caf\xc3\xa9.hlo"), "caf%C3%A9.hlo");
  EXPECT_EQ(PathToUriReference("a\\b"), "a%5Cb");
  EXPECT_EQ(PathToUriReference("/tmp/a b.hlo"), "file:///tmp/a%20b.hlo");
  EXPECT_EQ(PathToUriReference("(x)+y,z=1;@"), "(x)+y,z=1;@");
}

// With roots (GitHub code scanning): URIs relative to the repository root
// under %SRCROOT%, whatever the current directory; a .neff member reported
// at the .neff, named in the message and as a nested artifact.
TEST(RenderSarifTest, RootedUris) {
  const SarifRoots roots{"/repo", "/repo/sub"};
  const Json doc =
      Json::parse(RenderSarif(SampleFindings(), SampleRules(), "0.1.0", roots));
  const Json& run = doc["runs"][0];
  EXPECT_EQ(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file:///repo/");
  const Json& results = run["results"];
  ASSERT_EQ(results.size(), 4u);
  auto loc = [&](size_t i) {
    return results[i]["locations"][0]["physicalLocation"];
  };
  EXPECT_EQ(loc(0)["artifactLocation"],
            Json({{"uri", "sub/m.hlo"}, {"uriBaseId", "%SRCROOT%"}}));
  EXPECT_EQ(loc(0)["region"]["startLine"], 3);
  // The .neff member: the archive, line 1, the member in the message.
  EXPECT_EQ(
      loc(1)["artifactLocation"],
      Json({{"uri", "sub/a.neff"}, {"uriBaseId", "%SRCROOT%"}, {"index", 0}}));
  EXPECT_EQ(loc(1)["region"], Json({{"startLine", 1}}));
  EXPECT_EQ(results[1]["message"]["text"],
            "not flattened (in sg00/def.json of a.neff)");
  ASSERT_EQ(run["artifacts"].size(), 2u);
  EXPECT_EQ(run["artifacts"][1]["parentIndex"], 0);
  EXPECT_EQ(run["artifacts"][1]["location"]["uri"], "sg00/def.json");
  EXPECT_EQ(loc(2)["artifactLocation"]["uri"], "sub/run%20dir/model.hlo");
  // A whole-file note still gets a line for GitHub.
  EXPECT_EQ(results[2]["relatedLocations"][1]["physicalLocation"]["region"]
                   ["startLine"],
            1);
  // Outside the root: an absolute file URI, no base.
  EXPECT_EQ(loc(3)["artifactLocation"], Json({{"uri", "file:///abs/x.hlo"}}));
  TempDir dir;
  const int status = ValidateWithSchema(doc, dir);
  if (status == -1) GTEST_SKIP() << "python3 jsonschema is not installed";
  EXPECT_EQ(status, 0);
}

}  // namespace
}  // namespace topolint
