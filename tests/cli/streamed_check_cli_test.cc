// `topolint check DIR` streams (checker/cli/streamed_units.h): its report is
// byte for byte the one of the planned search (`check DIR DIR`: a directory
// named twice is searched once, with every unit planned before checking).
#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::RunTopolint;
using testing::TempDir;

void ExpectSameAsPlanned(const std::string& dir, const std::string& format,
                         const std::string& jobs,
                         const std::string& cwd = TOPOLINT_SOURCE_DIR) {
  testing::CliResult streamed =
      RunTopolint({"check", "--format", format, "-j", jobs, dir}, cwd);
  testing::CliResult planned =
      RunTopolint({"check", "--format", format, "-j", jobs, dir, dir}, cwd);
  EXPECT_EQ(streamed.exit_code, planned.exit_code) << dir << " " << format;
  EXPECT_EQ(streamed.out, planned.out)
      << dir << " " << format << " -j " << jobs;
  EXPECT_EQ(streamed.err, planned.err)
      << dir << " " << format << " -j " << jobs;
}

TEST(StreamedCheckCliTest, FixturesReportAsPlanned) {
  for (const char* format : {"text", "json", "sarif"}) {
    for (const char* jobs : {"1", "2"}) {
      ExpectSameAsPlanned("fixtures", format, jobs);
    }
  }
}

// A compile cache: entries with a finding, clean, incomplete and locked
// ones, under one config that every entry inherits and that disagrees with
// each module (its findings, each naming a module, are shared-file findings
// in both orders alike).
void WriteCache(const TempDir& d, int entries) {
  const fs::path fix = fs::path(TOPOLINT_SOURCE_DIR) /
                       "fixtures/layouts/compile-cache/"
                       "neuronxcc-2.21.18209.0+043b1bf7";
  const fs::path clean = fix / "MODULE_12486829708343293975+d41d8cd9";
  const fs::path bad = fix / "MODULE_50a122f44c378e1567a4+ede6753c";
  d.Write("cache/neuron_config.json",
          R"({"neuron_config": {"tp_degree": 2, "world_size": 2}})");
  for (int i = 0; i < entries; ++i) {
    const fs::path e = fs::path(d.path()) / "cache/neuronxcc-2.21" /
                       ("MODULE_" + std::to_string(5000 - 7 * i) + "+ab");
    fs::create_directories(e);
    const fs::path& from = i % 5 == 2 ? bad : clean;
    for (const auto& f : fs::directory_iterator(from)) {
      fs::copy_file(f.path(), e / f.path().filename());
    }
    if (i % 7 == 3) testing::WriteAll((e / "model.hlo.lock").string(), "");
    if (i % 11 == 4) fs::remove(e / "model.done");
  }
}

TEST(StreamedCheckCliTest, CompileCacheReportsAsPlanned) {
  TempDir d;
  WriteCache(d, 60);
  const std::string cache = d.path() + "/cache";
  for (const char* format : {"text", "json"}) {
    for (const char* jobs : {"1", "2"}) {
      ExpectSameAsPlanned(cache, format, jobs);
    }
  }
  testing::CliResult r = RunTopolint({"check", cache});
  EXPECT_EQ(r.exit_code, 1);
  // Skipped entries are unchecked-input findings (and one stderr line).
  EXPECT_THAT(r.out, HasSubstr("compilation in progress"));
  EXPECT_THAT(r.out, HasSubstr("incomplete entry (no model.done)"));
  EXPECT_THAT(r.err, HasSubstr("compile-cache entries skipped ("));
  EXPECT_THAT(r.out, HasSubstr("[xref-topology-mismatch]"));
  EXPECT_THAT(r.out, HasSubstr("[config-world-size]"));
}

TEST(StreamedCheckCliTest, OutputThatIsAnInputIsRefused) {
  TempDir d;
  const std::string hlo = d.Write("m.hlo", "HloModule m\n");
  testing::CliResult r = RunTopolint({"check", d.path(), "-o", hlo});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("refusing to overwrite it"));
  EXPECT_EQ(testing::ReadAll(hlo), "HloModule m\n");
}

TEST(StreamedCheckCliTest, VerboseListsWhatTheWalkSkips) {
  TempDir d;
  d.Write("notes.txt", "hello\n");
  d.Write(".hidden.hlo", "HloModule m\n");
  testing::CliResult r = RunTopolint({"check", "--verbose", d.path()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("notes.txt: not a recognised input"));
  EXPECT_THAT(r.err, HasSubstr(".hidden.hlo: hidden"));
  EXPECT_THAT(r.err, HasSubstr("0 files checked, 2 skipped"));
}

}  // namespace
}  // namespace topolint
