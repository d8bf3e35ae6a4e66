// The streaming report writers (ReportWriter, BaselineWriter): fed in
// batches they write the same bytes as the whole-report renderers, and the
// JSON documents are exactly a 2-space indented dump of themselves.
#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/diag/baseline.h"
#include "checker/diag/render.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/diag/finding_samples.h"
#include "tests/diag/temp_dir.h"

namespace topolint {
namespace {

using OrderedJson = nlohmann::ordered_json;

std::vector<Finding> ManyFindings() {
  std::vector<Finding> out;
  for (int i = 0; i < 7; ++i) {
    Finding f = SampleFinding("hlo-empty-group", {"m.hlo", 3 + i, i},
                              "group " + std::to_string(i) + " is empty");
    if (i % 2 == 0) f.notes.push_back({{"def.json", 1, 2}, "declared here"});
    out.push_back(std::move(f));
  }
  out.push_back(SampleFinding("neff-schema", {"a.neff:sg00/def.json", 2, 1},
                              "bad member", Severity::kWarning));
  out.push_back(SampleFinding("neff-schema", {"b.neff:sg01/def.json", 0, 0},
                              "bad \xff byte", Severity::kNote));
  Finding binary = SampleFinding("hlo-empty-group", {"m.hlo.pb", 0, 0}, "bin");
  binary.loc.byte_offset = 120;
  binary.loc.logical = "computation %c, op %ar";
  out.push_back(std::move(binary));
  return out;
}

// Begin, Add in batches of `batch` findings, End.
std::string Streamed(ReportWriter& w, const std::vector<Finding>& findings,
                     size_t batch) {
  std::string out;
  w.Begin(&out);
  for (size_t i = 0; i < findings.size(); i += batch) {
    std::vector<Finding> part(
        findings.begin() + static_cast<std::ptrdiff_t>(i),
        findings.begin() +
            static_cast<std::ptrdiff_t>(std::min(findings.size(), i + batch)));
    w.Add(part, &out);
  }
  w.End(&out);
  return out;
}

// A document is what dumping its own tree with a 2-space indent gives.
void ExpectWholeDump(const std::string& text) {
  const OrderedJson doc = OrderedJson::parse(text);
  EXPECT_EQ(text, doc.dump(2, ' ', false) + "\n");
}

std::vector<RuleDescriptor> Rules() {
  return {{"hlo-empty-group", Severity::kError, "a group is empty",
           "Checks that no replica group is empty.",
           "https://example.invalid/hlo-empty-group.md", "# page\n"},
          {"neff-schema", Severity::kError, "schema", "", "", ""}};
}

TEST(ReportWriterTest, JsonInBatchesIsTheWholeRendering) {
  const std::vector<Finding> findings = ManyFindings();
  for (size_t batch : {1u, 3u, 100u}) {
    std::unique_ptr<ReportWriter> w = MakeJsonReport();
    const std::string text = Streamed(*w, findings, batch);
    EXPECT_EQ(text, RenderJson(findings)) << batch;
    ExpectWholeDump(text);
  }
  std::unique_ptr<ReportWriter> empty = MakeJsonReport();
  EXPECT_EQ(Streamed(*empty, {}, 1), "[]\n");
}

TEST(ReportWriterTest, SarifInBatchesIsOneIndentedDocument) {
  const std::vector<Finding> findings = ManyFindings();
  const std::vector<RuleDescriptor> rules = Rules();
  const SarifRoots roots{"/repo", "/repo"};
  for (const SarifRoots* r :
       {static_cast<const SarifRoots*>(nullptr), &roots}) {
    for (size_t batch : {1u, 4u, 100u}) {
      std::unique_ptr<ReportWriter> w = MakeSarifReport(&rules, "0.1.0", r);
      const std::string text = Streamed(*w, findings, batch);
      EXPECT_EQ(text, r == nullptr ? RenderSarif(findings, rules, "0.1.0")
                                   : RenderSarif(findings, rules, "0.1.0", *r));
      ExpectWholeDump(text);
      const OrderedJson run = OrderedJson::parse(text)["runs"][0];
      EXPECT_EQ(run["results"].size(), findings.size());
      // Two archives and their two members, listed after the results;
      // then the tool, whose rules are those with results.
      EXPECT_EQ(run.contains("artifacts"), r != nullptr);
      EXPECT_EQ(std::prev(run.end()).key(), "tool");
      if (r != nullptr) {
        EXPECT_EQ(run["artifacts"].size(), 4u);
        EXPECT_EQ(std::prev(run.end(), 2).key(), "artifacts");
      }
    }
  }
  std::unique_ptr<ReportWriter> empty = MakeSarifReport(&rules, "1", &roots);
  const std::string text = Streamed(*empty, {}, 1);
  ExpectWholeDump(text);
  EXPECT_EQ(OrderedJson::parse(text)["runs"][0]["results"],
            OrderedJson::array());
}

TEST(ReportWriterTest, TextAndGithubInBatchesAreTheWholeRendering) {
  const std::vector<Finding> findings = ManyFindings();
  SourceCache whole_sources;
  whole_sources.AddInMemory("m.hlo", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n");
  const std::string whole = RenderText(findings, whole_sources, false);
  for (size_t batch : {1u, 5u}) {
    SourceCache sources;
    sources.AddInMemory("m.hlo", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n");
    std::unique_ptr<ReportWriter> text =
        MakeTextReport(&sources, TextStyle(), nullptr);
    EXPECT_EQ(Streamed(*text, findings, batch), whole) << batch;
    std::unique_ptr<ReportWriter> github = MakeGithubReport(nullptr);
    EXPECT_EQ(Streamed(*github, findings, batch), RenderGithub(findings));
  }
  EXPECT_NE(whole.find("  c\n"), std::string::npos) << whole;
}

TEST(ReportWriterTest, BaselineWriterGroupsByFileAsWriteBaselineSorts) {
  std::vector<Finding> findings = ManyFindings();
  std::sort(findings.begin(), findings.end(), FindingLess);
  BaselineWriter writer;
  std::string streamed;
  writer.Begin(&streamed);
  for (const Finding& f : findings) writer.Add(f, &streamed);
  writer.End(&streamed);
  EXPECT_EQ(streamed, WriteBaseline(findings));
  std::string error;
  std::optional<Baseline> back = LoadBaseline(streamed, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->size, static_cast<int64_t>(findings.size()));

  BaselineWriter none;
  std::string empty;
  none.Begin(&empty);
  none.End(&empty);
  EXPECT_EQ(empty, WriteBaseline({}));
}

// The --baseline reader parses the file as it reads it, with the same
// answers as LoadBaseline over the whole text.
TEST(ReadBaselineFileTest, ReadsWhatLoadBaselineReads) {
  TempDir dir;
  std::vector<Finding> findings = ManyFindings();
  findings.push_back(findings.front());  // a fingerprint recorded twice
  const std::string text = WriteBaseline(findings);
  const std::string path = dir.Write("b.json", text);
  absl::StatusOr<Baseline> read = ReadBaselineFile(path);
  ASSERT_TRUE(read.ok()) << read.status();
  std::string error;
  const std::optional<Baseline> loaded = LoadBaseline(text, &error);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(read->size, loaded->size);
  EXPECT_EQ(read->counts, loaded->counts);
}

TEST(ReadBaselineFileTest, RefusalsNameTheFileAndTheReason) {
  TempDir dir;
  const std::string bad =
      dir.Write("bad.json", R"({"version": 1, "findings": [{"rule": 3}]})");
  absl::StatusOr<Baseline> read = ReadBaselineFile(bad);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(),
            bad + ": findings[0].rule: expected a string");
  const std::string cut = dir.Write("cut.json", R"({"version": 1, "find)");
  read = ReadBaselineFile(cut);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("not valid JSON"), std::string::npos)
      << read.status();
  read = ReadBaselineFile(dir.Path("missing.json"));
  EXPECT_TRUE(absl::IsNotFound(read.status())) << read.status();
}

}  // namespace
}  // namespace topolint
