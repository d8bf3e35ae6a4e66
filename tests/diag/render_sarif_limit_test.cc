// SARIF runs stay within GitHub code scanning's limits: at most 25,000
// results per run (the last a note saying how many were left out), and
// well under 10 MB gzip-compressed.
#include <zlib.h>

#include <memory>
#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/diag/finding_samples.h"

namespace topolint {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;

// `n` findings as 30 bad units of 1,001 ops would give them.
std::vector<Finding> ManyFindings(size_t n) {
  std::vector<Finding> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(SampleFinding(
        "hlo-duplicate-device-id",
        Location(fmt::format("cache/MODULE_{}+d41d8cd9/model.hlo", i / 1001),
                 static_cast<int64_t>(10 + i % 1001), 57),
        fmt::format("replica 3 is repeated in %all-reduce.{}'s replica "
                    "groups {{0,1,2,3}},{{3,4,5,6}}",
                    i),
        Severity::kError, fmt::format("%all-reduce.{}", i)));
  }
  return out;
}

const SarifRoots kRoots{"/repo", "/repo"};

Json Render(const std::vector<Finding>& findings) {
  return Json::parse(RenderSarif(findings, {}, "1.0", kRoots));
}

TEST(RenderSarifLimitTest, RunOfExactlyTheLimitIsWhole) {
  const Json doc = Render(ManyFindings(kSarifMaxResults));
  const Json& run = doc["runs"][0];
  ASSERT_EQ(run["results"].size(), kSarifMaxResults);
  EXPECT_EQ(run["results"].back()["ruleId"], "hlo-duplicate-device-id");
  EXPECT_FALSE(run.contains("invocations"));
}

TEST(RenderSarifLimitTest, LongerRunEndsWithANoteCountingWhatWasLeftOut) {
  const size_t n = 30030;  // the 30 bad units
  const std::vector<Finding> findings = ManyFindings(n);
  const std::string text = RenderSarif(findings, {}, "1.0", kRoots);
  const Json doc = Json::parse(text);
  const Json& run = doc["runs"][0];
  ASSERT_EQ(run["results"].size(), kSarifMaxResults);
  const Json& last_finding = run["results"][kSarifMaxResults - 2];
  EXPECT_THAT(last_finding["message"]["text"].get<std::string>(),
              HasSubstr("%all-reduce.24998'"));
  const Json& note = run["results"].back();
  EXPECT_EQ(note["ruleId"], "topolint-results-omitted");
  EXPECT_EQ(note["level"], "note");
  const size_t omitted = n - (kSarifMaxResults - 1);
  EXPECT_THAT(note["message"]["text"].get<std::string>(),
              HasSubstr(fmt::format("{} more findings", omitted)));
  // Placed (with a line, as code scanning needs) at the first left out.
  const Json& where = note["locations"][0]["physicalLocation"];
  EXPECT_EQ(where["artifactLocation"]["uri"],
            fmt::format("cache/MODULE_{}+d41d8cd9/model.hlo",
                        (kSarifMaxResults - 1) / 1001));
  EXPECT_EQ(where["region"]["startLine"], 10 + (kSarifMaxResults - 1) % 1001);
  const Json& notification =
      run["invocations"][0]["toolExecutionNotifications"][0];
  EXPECT_EQ(notification["message"]["text"], note["message"]["text"]);

  // Compressed as upload-sarif sends it: far under GitHub's 10 MB.
  uLongf size = compressBound(text.size());
  std::string gz(size, '\0');
  ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(gz.data()), &size,
                      reinterpret_cast<const Bytef*>(text.data()), text.size(),
                      Z_DEFAULT_COMPRESSION),
            Z_OK);
  EXPECT_LT(size, 10u * 1000 * 1000);
  RecordProperty("sarif_bytes", std::to_string(text.size()));
  RecordProperty("sarif_deflated_bytes", std::to_string(size));
}

TEST(RenderSarifLimitTest, OneOverTheLimitLeavesTwoOut) {
  const Json doc = Render(ManyFindings(kSarifMaxResults + 1));
  const Json& run = doc["runs"][0];
  ASSERT_EQ(run["results"].size(), kSarifMaxResults);
  EXPECT_THAT(run["results"].back()["message"]["text"].get<std::string>(),
              HasSubstr("2 more findings"));
}

TEST(RenderSarifLimitTest, StreamedInBatchesGivesTheSameBytes) {
  const std::vector<Finding> findings = ManyFindings(kSarifMaxResults + 7);
  const std::vector<RuleDescriptor> rules;
  std::unique_ptr<ReportWriter> w = MakeSarifReport(&rules, "1.0", &kRoots);
  std::string out;
  w->Begin(&out);
  for (size_t i = 0; i < findings.size(); i += 997) {
    std::vector<Finding> batch(
        findings.begin() + static_cast<std::ptrdiff_t>(i),
        findings.begin() +
            static_cast<std::ptrdiff_t>(std::min(findings.size(), i + 997)));
    w->Add(batch, &out);
  }
  w->End(&out);
  EXPECT_EQ(out, RenderSarif(findings, rules, "1.0", kRoots));
}

}  // namespace
}  // namespace topolint
