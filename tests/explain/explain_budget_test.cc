// `explain --format html|svg` draws at most kMaxDrawnCellsPerUnit cells per
// unit and kMaxDrawnCellsPerPage per page, and says what it left out: 60
// all-reduces over 4,096 devices with distinct iota lists once made a 60 MiB
// page (and 250 MiB of memory) from a 7 KiB module.
#include <algorithm>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"
#include "tests/explain/html_test_util.h"

namespace topolint {
namespace {

using testing::RunTopolint;
using testing::TempDir;

// `ops` all-reduces over 4,096 devices, each with its own list:
// [4096/S, S]<=[A, 4096/A]T(1,0) for powers of two S and A.
std::string DistinctListsModule(int ops) {
  std::string hlo =
      "HloModule wide, replica_count=1, num_partitions=4096\n"
      "ENTRY e {\n  p = f32[8] parameter(0)\n";
  for (int i = 0; i < ops; ++i) {
    const int s = 1 << (1 + i % 11);
    const int a = 1 << (1 + (i / 11) % 11);
    hlo += fmt::format(
        "  ar{} = f32[8] all-reduce(p), channel_id={}, "
        "replica_groups=[{},{}]<=[{},{}]T(1,0), use_global_device_ids=true, "
        "to_apply=add\n",
        i, i + 1, 4096 / s, s, a, 4096 / a);
  }
  return hlo + "  ROOT r = f32[8] copy(p)\n}\n";
}

TEST(ExplainBudgetTest, SixtyWideListsMakeABoundedPageThatSaysWhatIsLeftOut) {
  TempDir dir;
  const std::string module = DistinctListsModule(60);
  ASSERT_LT(module.size(), 8u * 1024);
  dir.Write("wide/model.hlo", module);
  testing::CliResult r =
      RunTopolint({"explain", "--format", "html", dir.path() + "/wide"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Two 4,096-cell grids fit the unit's 8,192 cells; the page says so, and
  // where to see the rest.
  EXPECT_LT(r.out.size(), 3u * 1024 * 1024);
  EXPECT_LE(html_test::Count(r.out, "<rect class=\"cell"), 8192);
  EXPECT_FALSE(html_test::ElementById(r.out, "u0-l1-hlo").empty());
  EXPECT_TRUE(html_test::ElementById(r.out, "u0-l2-hlo").empty());
  EXPECT_NE(
      r.out.find(
          "2 of 60 device group lists drawn (2 of 60 "
          "collectives); 58 not drawn (over the drawing budget "
          "of 8192 cells and 256 pictures per unit): run `topolint explain "
          "--format text` or `--format json` for all of them"),
      std::string::npos);
  // Each list left out is named (the first 50, then a count).
  EXPECT_NE(
      r.out.find("model.hlo ar2 (all-reduce): 512 groups of 8: over "
                 "the drawing budget of 8192 cells and 256 pictures per unit"),
      std::string::npos);
  EXPECT_NE(r.out.find("<li>... and 8 more</li>"), std::string::npos);
  // The text format still shows every list.
  testing::CliResult text = RunTopolint({"explain", dir.path() + "/wide"});
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("ar59 = all-reduce"), std::string::npos);
}

TEST(ExplainBudgetTest, SvgIsBoundedTooAndWellFormed) {
  TempDir dir;
  dir.Write("wide/model.hlo", DistinctListsModule(60));
  testing::CliResult r =
      RunTopolint({"explain", "--format", "svg", dir.path() + "/wide"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.out.size(), 3u * 1024 * 1024);
  EXPECT_LE(html_test::Count(r.out, "<rect class=\"cell"), 8192);
  EXPECT_NE(r.out.find("2 of 60 device group lists drawn"), std::string::npos);
  EXPECT_NE(r.out.find("... and 8 more not drawn"), std::string::npos);
  EXPECT_EQ(html_test::XmlProblem(r.out), "");
}

TEST(ExplainBudgetTest, ThePageBudgetHoldsOverUnits) {
  // Three such units: 8,192 cells each would be 24,576; the page stops at
  // 16,384 and the third unit says which budget left it out.
  TempDir dir;
  std::vector<std::string> args = {"explain", "--format", "html"};
  for (int u = 0; u < 3; ++u) {
    const std::string name = fmt::format("w{}", u);
    dir.Write(name + "/model.hlo", DistinctListsModule(12));
    args.push_back(dir.path() + "/" + name);
  }
  testing::CliResult r = RunTopolint(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.out.size(), 5u * 1024 * 1024);
  EXPECT_LE(html_test::Count(r.out, "<rect class=\"cell"), 16384);
  EXPECT_FALSE(html_test::ElementById(r.out, "u1-l1-hlo").empty());
  EXPECT_TRUE(html_test::ElementById(r.out, "u2-l0-hlo").empty());
  EXPECT_NE(r.out.find("0 of 12 device group lists drawn (0 of 12 "
                       "collectives); 12 not drawn (over the drawing budget "
                       "of 16384 cells and 512 pictures per page)"),
            std::string::npos);
}

TEST(ExplainBudgetTest, ManySmallPicturesAreBoundedToo) {
  // 400 distinct lists over 8 devices: each picture is small, but its frame
  // and legend are not; at most 256 pictures per unit are drawn.
  TempDir dir;
  std::string hlo =
      "HloModule small, replica_count=1, num_partitions=8\n"
      "ENTRY e {\n  p = f32[8] parameter(0)\n";
  std::vector<int> ids = {0, 1, 2, 3, 4, 5, 6, 7};
  for (int i = 0; i < 400; ++i) {
    std::next_permutation(ids.begin(), ids.end());
    hlo += fmt::format(
        "  ar{} = f32[8] all-reduce(p), channel_id={}, "
        "replica_groups={{{{{},{}}},{{{},{}}},{{{},{}}},{{{},{}}}}}, "
        "use_global_device_ids=true, to_apply=add\n",
        i, i + 1, ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], ids[6],
        ids[7]);
  }
  dir.Write("small/model.hlo", hlo + "  ROOT r = f32[8] copy(p)\n}\n");
  testing::CliResult r =
      RunTopolint({"explain", "--format", "html", dir.path() + "/small"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(html_test::Count(r.out, "<svg class=\"grid\""), 256);
  EXPECT_NE(r.out.find("256 of 400 device group lists drawn (256 of 400 "
                       "collectives); 144 not drawn"),
            std::string::npos);
  EXPECT_LT(r.out.size(), 2u * 1024 * 1024);
}

TEST(ExplainBudgetTest, ConfigFamiliesOverTheBudgetAreNamed) {
  // A 64 x 64 rank grid: each family is a 4,096-cell picture; two fit.
  TempDir dir;
  dir.Write("cfg/vllm_config.json",
            R"({"tensor_parallel_size": 64, "data_parallel_size": 64,)"
            R"( "additional_config": {"neuron_config": )"
            R"({"attention_dp_size": 2}}})");
  for (const char* format : {"html", "svg"}) {
    testing::CliResult r =
        RunTopolint({"explain", "--format", format, dir.path() + "/cfg"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_LE(html_test::Count(r.out, "<rect class=\"cell"), 8192);
    EXPECT_NE(r.out.find("other pictures not drawn (over the drawing budget "
                         "of 8192 cells and 256 pictures per unit)"),
              std::string::npos)
        << format;
    EXPECT_EQ(r.out.find("0 of 0"), std::string::npos) << format;
    EXPECT_NE(r.out.find("vllm_config.json: attention DP column"),
              std::string::npos)
        << format;
  }
}

TEST(ExplainBudgetTest, SmallUnitsAreDrawnWhole) {
  // Under the budget nothing is said about it.
  testing::CliResult r = RunTopolint(
      {"explain", "--format", "html", "fixtures/explain/rank-model-example"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("drawing budget"), std::string::npos);
  EXPECT_EQ(r.out.find("not drawn"), std::string::npos);
}

}  // namespace
}  // namespace topolint
