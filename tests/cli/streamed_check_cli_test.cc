// `topolint check` streams every command line (checker/cli/streamed_units.h,
// checker/core/unit_sources.h): several paths are several sources merged by
// unit key, so the report order does not depend on the order of the paths.
#include <algorithm>
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

TEST(StreamedCheckCliTest, CompileCacheReportsItsEntries) {
  TempDir d;
  WriteCache(d, 60);
  const std::string cache = d.path() + "/cache";
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

// Report order across several roots (docs/integration.md, "Report order
// and streaming"): units in the order of their keys, whatever the order
// of the paths; a file named outside the directories given sorts among
// them by its path; a directory given twice, or inside another one given,
// is searched once; --hlo / standard input units sort by their names.
TEST(StreamedCheckCliTest, SeveralRootsReportInKeyOrder) {
  TempDir d;
  const std::string bad =
      "HloModule m, replica_count=4\n\nENTRY e {\n  p = f32[8] "
      "parameter(0)\n  ROOT ar = f32[8] all-reduce(p), "
      "replica_groups={{0,1},{1,2}}, to_apply=add\n}\n";
  d.Write("d/b/m.hlo", bad);
  d.Write("d/a/m.hlo", bad);
  d.Write("d/a/z/m.hlo", bad);
  d.Write("d/a0.hlo", bad);
  d.Write("d/c/m.hlo", bad);
  const std::vector<std::string> order = {"d/a/m.hlo", "d/a/z/m.hlo",
                                          "d/a0.hlo", "d/b/m.hlo", "d/c/m.hlo"};
  for (const std::vector<std::string>& paths :
       {std::vector<std::string>{"d/c", "d/b", "d/a0.hlo", "d/a"},
        std::vector<std::string>{"d/a", "d/a0.hlo", "d/b", "d/c", "d/a/z"},
        std::vector<std::string>{"d/b", "d/c", "d/c", "d/a", "d/a0.hlo"}}) {
    for (const char* jobs : {"1", "2"}) {
      std::vector<std::string> args = {"check", "--format", "json", "-j", jobs};
      args.insert(args.end(), paths.begin(), paths.end());
      const testing::CliResult r = RunTopolint(args, d.path());
      EXPECT_EQ(r.exit_code, 1) << r.err;
      std::vector<size_t> at;
      for (const std::string& f : order) {
        at.push_back(r.out.find("\"file\": \"" + f + "\""));
        EXPECT_NE(at.back(), std::string::npos) << f << "\n" << r.out;
        // Once each: nothing searched twice.
        EXPECT_EQ(r.out.find("\"file\": \"" + f + "\"", at.back() + 1),
                  std::string::npos)
            << f;
      }
      EXPECT_TRUE(std::is_sorted(at.begin(), at.end())) << r.out;
      EXPECT_THAT(r.err, HasSubstr("(5 units, 5 files checked"));
    }
  }
}

}  // namespace
}  // namespace topolint
