// Loading a unit opens each file once: an HLO file that fits one read
// window is read whole and told text or binary from the bytes read, a file
// the directory walk saw is opened without a stat() first. What it reports
// is what the streaming file reader reports, for every kind, and a file
// replaced after the walk is still refused without blocking.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "checker/core/discovery.h"
#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"
#include "checker/hlo/dispatch/parse_any.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reliability/reliability_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

std::string Src(const std::string& rel) {
  return std::string(TOPOLINT_SOURCE_DIR) + "/" + rel;
}

// The one unit a search of `dir` finds.
UnitSpec FoundUnit(const std::string& dir) {
  std::vector<UnitSpec> units;
  DiscoveryReport report;
  EXPECT_TRUE(DiscoverUnits({dir}, DiscoveryLimits{}, &units, &report).ok());
  EXPECT_EQ(units.size(), 1u) << dir;
  return units.empty() ? UnitSpec{} : units.front();
}

// What the streaming reader gives: every HLO file through ParseHloAnyFile.
std::string StreamedFindings(const UnitSpec& spec) {
  Unit unit;
  unit.directory = spec.directory;
  UnitSpec rest = spec;
  rest.files.clear();
  for (const InputFile& f : spec.files) {
    if (f.kind != InputKind::kHlo) {
      rest.files.push_back(f);
      continue;
    }
    hlo::Module m;
    EXPECT_TRUE(
        hlo::ParseHloAnyFile(f.path, f.path, hlo::ParseOptions{}, &m).ok());
    unit.hlo_modules.push_back(std::move(m));
  }
  Unit others;
  EXPECT_TRUE(LoadUnit(rest, {}, &others).ok());
  unit.def_jsons = std::move(others.def_jsons);
  unit.neff_archives = std::move(others.neff_archives);
  unit.configs = std::move(others.configs);
  unit.compile_flags = std::move(others.compile_flags);
  unit.json_syntax = std::move(others.json_syntax);
  return Describe(CheckUnit(unit, CheckOptions{}, RuleSelection()));
}

std::string LoadedFindings(const UnitSpec& spec, absl::Status* status) {
  Unit unit;
  std::vector<Finding> findings;
  *status = LoadAndCheckUnit(spec, {}, CheckOptions{}, RuleSelection(), &unit,
                             &findings);
  return Describe(findings);
}

TEST(SingleOpenTest, EveryKindReportsWhatTheStreamingReaderReports) {
  for (const char* dir : {
           "fixtures/hlo-duplicate-device-id/fail-repeated-replica",  // text
           "fixtures/hlo-duplicate-device-id/fail-binary-module",     // proto
           "fixtures/hlo-duplicate-device-id/fail-binary-gzip",       // gzip
           "fixtures/hlo-syntax/fail-binary-truncated",
           "fixtures/neff-graphs-disagree/fail-rank-differs",  // .neff
       }) {
    const UnitSpec spec = FoundUnit(Src(dir));
    ASSERT_FALSE(spec.files.empty()) << dir;
    for (const InputFile& f : spec.files) {
      EXPECT_TRUE(f.seen_regular) << f.path;
    }
    absl::Status st;
    const std::string loaded = LoadedFindings(spec, &st);
    ASSERT_TRUE(st.ok()) << dir << ": " << st;
    EXPECT_THAT(loaded, Not(HasSubstr("(no findings)"))) << dir;
    EXPECT_EQ(loaded, StreamedFindings(spec)) << dir;
  }
}

TEST(SingleOpenTest, AModuleLargerThanOneWindowIsStreamedWithTheSameResult) {
  TempDir dir;
  std::string text =
      "HloModule big, replica_count=6\n\n%add (x: f32[], y: f32[]) -> f32[] "
      "{\n  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n  ROOT %s = "
      "f32[] add(f32[] %x, f32[] %y)\n}\n\nENTRY %main (p: f32[8]) -> f32[8] "
      "{\n  %p = f32[8]{0} parameter(0)\n";
  for (int i = 0; text.size() < 3 * hlo::kDefaultWindowBytes / 2; ++i) {
    text += "  // padding comment line " + std::to_string(i) + "\n";
  }
  text +=
      "  ROOT %ar = f32[8]{0} all-reduce(f32[8]{0} %p), "
      "replica_groups={{0,1},{2,3},{4,0}}, to_apply=%add\n}\n";
  dir.Write("model.hlo", text);
  const UnitSpec spec = FoundUnit(dir.path());
  absl::Status st;
  const std::string loaded = LoadedFindings(spec, &st);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_THAT(loaded, HasSubstr("hlo-duplicate-device-id"));
  EXPECT_EQ(loaded, StreamedFindings(spec));
}

// A file the walk saw as regular and that is something else by the time
// its unit is loaded: refused with the message a named file gets, without
// blocking on a FIFO.
TEST(SingleOpenTest, AFileReplacedAfterTheWalkIsStillRefused) {
  struct Case {
    const char* what;
    const char* message;
  };
  for (const Case& c : {Case{"fifo", "is a named pipe (FIFO)"},
                        Case{"device", "is a character device"},
                        Case{"directory", "is a directory"},
                        Case{"gone", "no such file or directory"}}) {
    TempDir dir;
    const std::string path = dir.Write("model.hlo", "HloModule m\n");
    dir.Write("def.json", "{}");
    const UnitSpec spec = FoundUnit(dir.path());
    for (const std::string& victim : {path, dir.path() + "/def.json"}) {
      std::filesystem::remove(victim);
      const std::string what = c.what;
      if (what == "fifo") {
        ASSERT_EQ(mkfifo(victim.c_str(), 0600), 0);
      } else if (what == "device") {
        std::filesystem::create_symlink("/dev/zero", victim);
      } else if (what == "directory") {
        std::filesystem::create_directory(victim);
      }
      const IsolatedRun run = RunIsolated(
          [&] {
            absl::Status st;
            LoadedFindings(spec, &st);
            EXPECT_FALSE(st.ok()) << c.what;
            EXPECT_THAT(std::string(st.message()), HasSubstr(c.message))
                << c.what << " " << victim;
          },
          30);
      EXPECT_TRUE(run.Clean()) << c.what << ": " << run.Describe();
      std::filesystem::remove_all(victim);
      std::ofstream(victim) << (victim == path ? "HloModule m\n" : "{}");
    }
  }
}

}  // namespace
}  // namespace topolint::testing
