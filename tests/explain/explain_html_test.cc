// `explain --format html|svg`: the cells of the worked example, the NEFF
// beside it, mismatches, escaping, well-formed SVG, and a bounded page at
// 512 devices.
#include <cstdio>
#include <cstdlib>
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

constexpr char kExample[] = "fixtures/explain/rank-model-example";
constexpr char kMismatch[] = "fixtures/explain/rank-model-mismatch";

TEST(ExplainHtmlTest, WorkedExampleDrawsFourGroupsOfTwoOnTheTwoByFourGrid) {
  testing::CliResult r = RunTopolint({"explain", "--format", "html", kExample});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string hlo = html_test::ElementById(r.out, "u0-l0-hlo");
  ASSERT_FALSE(hlo.empty()) << r.out;
  EXPECT_NE(hlo.find("data-rows=\"2\" data-columns=\"4\""), std::string::npos);
  EXPECT_EQ(html_test::Count(hlo, "<rect class=\"cell"), 8);
  for (int g = 0; g < 4; ++g) {
    EXPECT_EQ(html_test::Count(hlo, fmt::format("data-g=\"{}\"", g)), 2)
        << "group " << g;
  }
  // Group g holds devices g and g + 4 (the columns of the mesh).
  EXPECT_NE(hlo.find("data-id=\"4\" data-g=\"0\""), std::string::npos);
  EXPECT_NE(hlo.find("data-id=\"7\" data-g=\"3\""), std::string::npos);
  // topology[0] beside it, equal: no cell marked.
  const std::string neff = html_test::ElementById(r.out, "u0-l0-n0");
  ASSERT_FALSE(neff.empty());
  EXPECT_NE(neff.find("topology[0] of fixtures/explain/rank-model-example/"
                      "def.json"),
            std::string::npos);
  EXPECT_EQ(html_test::Count(neff, "<rect class=\"cell"), 8);
  EXPECT_EQ(html_test::Count(neff, "mismatch"), 0);
  EXPECT_NE(r.out.find("equal, bit for bit"), std::string::npos);
  // Self-contained: no network reference, no external script or style.
  EXPECT_EQ(r.out.find("http://www.w3.org/1999"), std::string::npos);
  EXPECT_EQ(r.out.find("https://"), std::string::npos);
  EXPECT_EQ(r.out.find("<script src"), std::string::npos);
  EXPECT_EQ(r.out.find("<link"), std::string::npos);
}

TEST(ExplainHtmlTest, MismatchingCellsAreMarkedAndLinkedToTheFinding) {
  testing::CliResult r =
      RunTopolint({"explain", "--format", "html", kMismatch});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string neff = html_test::ElementById(r.out, "u0-l0-n0");
  ASSERT_FALSE(neff.empty());
  // {{0,1},{2,3},{4,5},{6,7}} against {{0,4},{1,5},{2,6},{3,7}}: ranks 0
  // and 7 keep their group and position, the other six do not.
  EXPECT_EQ(html_test::Count(neff, "class=\"cell mismatch\""), 6);
  EXPECT_NE(neff.find("class=\"cell\" x=\"45\" y=\"29\""), std::string::npos)
      << "rank 0 (row 0, column 0) is not marked";
  // The cells link to the finding, and the finding back to the picture.
  EXPECT_EQ(html_test::Count(neff, "<a href=\"#u0-f0\">"), 6);
  const std::string finding = html_test::ElementById(r.out, "u0-f0");
  EXPECT_NE(finding.find("xref-topology-mismatch"), std::string::npos);
  EXPECT_NE(finding.find("href=\"#u0-l0\""), std::string::npos);
  EXPECT_NE(html_test::ElementById(r.out, "u0-l0").find("href=\"#u0-f0\""),
            std::string::npos);
  EXPECT_NE(neff.find("differs from the HLO"), std::string::npos);
  // The finding says how to fix it (docs/fixes.md).
  EXPECT_NE(finding.find("<code>topolint check --fix --fix-from hlo</code>"),
            std::string::npos)
      << finding;
}

TEST(ExplainHtmlTest, LncMapAndCoreMark) {
  testing::CliResult r = RunTopolint(
      {"explain", "--format", "html", "--lnc", "2", "--core", "9", kExample});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string lnc = html_test::ElementById(r.out, "u0-lnc");
  ASSERT_FALSE(lnc.empty());
  EXPECT_NE(lnc.find("rank 4 = physical cores 8..9"), std::string::npos);
  EXPECT_NE(lnc.find("lnc 2, from --lnc"), std::string::npos);
  EXPECT_NE(lnc.find(">4*</text>"), std::string::npos);
  // Without an LNC, no map.
  r = RunTopolint({"explain", "--format", "html", kExample});
  EXPECT_TRUE(html_test::ElementById(r.out, "u0-lnc").empty());
}

TEST(ExplainHtmlTest, ConfigFamiliesOnTheDpByTpGrid) {
  TempDir dir;
  dir.Write("vllm_config.json", R"({
  "tensor_parallel_size": 4,
  "data_parallel_size": 2,
  "additional_config": {"neuron_config": {"attention_dp_size": 2}}
})");
  testing::CliResult r =
      RunTopolint({"explain", "--format", "html", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  bool column_groups = false;
  for (int f = 0; f < 8; ++f) {
    const std::string p =
        html_test::ElementById(r.out, fmt::format("u0-c0-f{}", f));
    if (p.empty()) break;
    EXPECT_NE(p.find("data-rows=\"2\" data-columns=\"4\""), std::string::npos);
    if (p.find("attention DP column") != std::string::npos) {
      column_groups = true;
      // {0,4},{1,5},{2,6},{3,7}: 4 groups of 2, one per TP column.
      for (int g = 0; g < 4; ++g) {
        EXPECT_EQ(html_test::Count(p, fmt::format("data-g=\"{}\"", g)), 2);
      }
    }
  }
  EXPECT_TRUE(column_groups) << r.out;
}

TEST(ExplainHtmlTest, TextFromTheInputsIsEscaped) {
  TempDir dir;
  const std::string sub = "a<b&\"c'";
  dir.Write(sub + "/model.hlo",
            "HloModule m, replica_count=1, num_partitions=2\n"
            "ENTRY e {\n  p = f32[8] parameter(0)\n"
            "  ROOT ar = f32[8] all-reduce(p), channel_id=1, "
            "replica_groups={{0,1}}, use_global_device_ids=true, "
            "to_apply=add\n}\n");
  for (const char* format : {"html", "svg"}) {
    testing::CliResult r =
        RunTopolint({"explain", "--format", format, dir.path() + "/" + sub});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find(sub), std::string::npos) << format;
    EXPECT_NE(r.out.find("a&lt;b&amp;&quot;c&#39;"), std::string::npos)
        << format;
    if (std::string(format) == "svg") {
      EXPECT_EQ(html_test::XmlProblem(r.out), "") << r.out;
    }
  }
}

TEST(ExplainHtmlTest, EverySvgIsWellFormedXml) {
  testing::CliResult r = RunTopolint(
      {"explain", "--format", "svg", "--lnc", "2", "--core", "3", kMismatch});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<?xml", 0), 0u);
  EXPECT_EQ(html_test::XmlProblem(r.out), "");
  EXPECT_NE(r.out.find("class=\"cell mismatch\""), std::string::npos);
  r = RunTopolint({"explain", "--format", "html", kMismatch});
  ASSERT_EQ(r.exit_code, 0);
  int grids = 0;
  for (const std::string& svg : html_test::Elements(r.out, "<svg")) {
    ++grids;
    EXPECT_EQ(html_test::XmlProblem(svg), "") << svg;
  }
  EXPECT_EQ(grids, 2);
}

TEST(ExplainHtmlTest, SvgOfSeveralUnitsIsAUsageError) {
  testing::CliResult r =
      RunTopolint({"explain", "--format", "svg", kExample, kMismatch});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--format svg draws one unit, and this run has 2"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty());
  // html draws both.
  r = RunTopolint({"explain", "--format", "html", kExample, kMismatch});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(html_test::ElementById(r.out, "u1-l0-hlo").empty());
}

TEST(ExplainHtmlTest, HtmlIsAFormatOfExplainOnly) {
  testing::CliResult r = RunTopolint({"check", "--format", "html", kExample});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("formats of `topolint explain`"), std::string::npos);
}

TEST(ExplainHtmlTest, OutputFileIsWrittenWhole) {
  TempDir dir;
  const std::string out = dir.path() + "/topology.html";
  testing::CliResult r =
      RunTopolint({"explain", "--format", "html", "-o", out, kExample});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const std::string page = testing::ReadAll(out);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("</html>"), std::string::npos);
}

// A module of `devices` devices with `ops` all-reduces over one list
// (groups of 8 consecutive devices), and a def.json with that list.
void WriteLargeUnit(const TempDir& dir, int devices, int ops) {
  std::string hlo = fmt::format(
      "HloModule big, replica_count=1, num_partitions={}\n"
      "ENTRY e {{\n  p = f32[8] parameter(0)\n",
      devices);
  for (int i = 0; i < ops; ++i) {
    hlo += fmt::format(
        "  ar{} = f32[8] all-reduce(p), channel_id={}, "
        "replica_groups=[{},8]<=[{}], use_global_device_ids=true, "
        "to_apply=add\n",
        i, i + 1, devices / 8, devices);
  }
  hlo += "  ROOT r = f32[8] copy(p)\n}\n";
  dir.Write("big/model.hlo", hlo);
  std::string groups;
  for (int g = 0; g < devices / 8; ++g) {
    std::string ids;
    for (int i = 0; i < 8; ++i)
      ids += fmt::format("{}{}", i ? "," : "", g * 8 + i);
    groups += fmt::format("{}[{}]", g ? "," : "", ids);
  }
  dir.Write(
      "big/def.json",
      fmt::format("{{\"CCInfo\": {{\"replica_groups\": [[{}]]}}}}", groups));
}

TEST(ExplainHtmlTest, SizeStaysBoundedAt64And512Devices) {
  for (int devices : {64, 512}) {
    TempDir dir;
    WriteLargeUnit(dir, devices, 2000);
    testing::CliResult r =
        RunTopolint({"explain", "--format", "html", dir.path() + "/big"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // One list for the 2000 ops, shown once, its op names cut short.
    EXPECT_NE(r.out.find("used by 2000 collectives"), std::string::npos);
    EXPECT_NE(r.out.find("and 1950 more"), std::string::npos);
    EXPECT_TRUE(html_test::ElementById(r.out, "u0-l1-hlo").empty());
    const std::string hlo = html_test::ElementById(r.out, "u0-l0-hlo");
    EXPECT_EQ(html_test::Count(hlo, "<rect class=\"cell"), devices);
    // Under 600 bytes per drawn cell (two grids), and a legend that does
    // not list every group.
    EXPECT_LT(r.out.size(), static_cast<size_t>(devices) * 2 * 600 + 40000)
        << devices;
    EXPECT_LT(html_test::Count(hlo, "group "), devices + 40);
    EXPECT_EQ(
        html_test::Count(html_test::ElementById(r.out, "u0-l0-n0"), "mismatch"),
        0);
    // Cells shrink; at 512 devices their text moves to the hover titles.
    const bool labels =
        hlo.find("text-anchor=\"middle\" font-size=\"1") != std::string::npos;
    EXPECT_EQ(labels, devices == 64) << devices;
    EXPECT_NE(hlo.find("<title>device 9: group 1 {8,9,10,11,12,13,14,15}, "
                       "position 1</title>"),
              std::string::npos);
  }
}

// Issue 47 §5: each cell shows its place in its group, so that groups in
// another order look different, and the mismatch mark stays in the cell's
// corner, clear of the group number.
TEST(ExplainHtmlTest, PlaceInTheGroupIsDrawnAndTheMarkLeavesNumbersReadable) {
  testing::CliResult r =
      RunTopolint({"explain", "--format", "html", kMismatch});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string hlo = html_test::ElementById(r.out, "u0-l0-hlo");
  const std::string neff = html_test::ElementById(r.out, "u0-l0-n0");
  // {{0,4},{1,5},{2,6},{3,7}}: devices 0..3 first in their group, 4..7
  // second; in topology[0] {{0,1},...} the even ranks are first.
  EXPECT_EQ(html_test::Count(hlo, "<text class=\"position\""), 8);
  EXPECT_EQ(html_test::Count(neff, "<text class=\"position\""), 8);
  EXPECT_NE(hlo.find("place in it"), std::string::npos);  // the legend
  auto positions = [](const std::string& svg) {
    std::string out;
    for (size_t at = svg.find("<text class=\"position\"");
         at != std::string::npos;
         at = svg.find("<text class=\"position\"", at + 1)) {
      const size_t close = svg.find("</text>", at);
      out += svg[close - 1];
    }
    return out;
  };
  EXPECT_EQ(positions(hlo), "00001111");
  EXPECT_EQ(positions(neff), "01010101");
  // Each mark ends left of its cell's number.
  int marks = 0;
  for (size_t at = neff.find("class=\"mismatch-mark\" d=\"M");
       at != std::string::npos;
       at = neff.find("class=\"mismatch-mark\"", at + 1)) {
    int x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    ASSERT_EQ(std::sscanf(neff.c_str() + neff.find("d=\"M", at) + 4,
                          "%d %dL%d %d", &x1, &y1, &x2, &y2),
              4);
    const size_t label = neff.find("<text x=\"", at);
    ASSERT_NE(label, std::string::npos);
    const int centre = std::atoi(neff.c_str() + label + 9);
    EXPECT_LT(x2, centre - 4) << neff.substr(at, 400);
    ++marks;
  }
  EXPECT_EQ(marks, 6);
}

}  // namespace
}  // namespace topolint
