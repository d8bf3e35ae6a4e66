// Every XML document topolint writes is well-formed whatever the input
// names hold: U+FFFE / U+FFFF (valid UTF-8, not XML characters), control
// characters and invalid UTF-8 in a directory name or a config key made
// `--format junit` (and the SVG of explain) ill-formed. Checked by
// python3's XML parser, which is strict about XML 1.0 characters.
#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using testing::RunTopolint;
using testing::TempDir;

// "" when python3 parses `xml` as XML; else its message.
std::string XmlProblem(const TempDir& dir, const std::string& xml) {
  const std::string file = dir.Write("out.xml", xml);
  const std::string err = dir.path() + "/parse.err";
  const std::string cmd =
      "python3 -c 'import sys, xml.etree.ElementTree as E; "
      "E.parse(sys.argv[1])' " +
      testing::ShellQuote(file) + " 2>" + testing::ShellQuote(err);
  if (std::system(cmd.c_str()) == 0) return "";
  const std::string why = testing::ReadAll(err);
  return why.empty() ? "python3 failed" : why;
}

TEST(XmlWellFormedTest, JunitAndSvgWithNoncharactersInNames) {
  TempDir dir;
  // U+FFFE, U+FFFF, ESC and a lone 0xFF byte in the directory name; U+FFFF
  // in a config key (config-unknown-key quotes it).
  const std::string sub = "d\xEF\xBF\xBE\xEF\xBF\xBF\x1b\xFF";
  dir.Write(sub + "/model.hlo",
            "HloModule m, replica_count=1, num_partitions=8\n"
            "ENTRY e {\n  p = f32[8] parameter(0)\n"
            "  ROOT ar = f32[8] all-reduce(p), channel_id=1, "
            "replica_groups={{0,1},{2,3},{4,5},{6,7}}, "
            "use_global_device_ids=true, to_apply=add\n}\n");
  dir.Write(sub + "/def.json",
            "{\"CCInfo\": {\"replica_groups\": [[[0,2],[1,3],[4,6],[5,7]]]}}");
  dir.Write(
      sub + "/neuron_config.json",
      "{\"neuron_config\": {\"tp_degree\": 8, \"tp_degre\xEF\xBF\xBF\": 2}}");
  const std::string path = dir.path() + "/" + sub;
  testing::CliResult r = RunTopolint({"check", "--format", "junit", path});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("&lt;U+FFFE&gt;&lt;U+FFFF&gt;&lt;U+001B&gt;&lt;FF&gt;"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("config-unknown-key"), std::string::npos) << r.out;
  EXPECT_EQ(XmlProblem(dir, r.out), "") << r.out;
  r = RunTopolint({"explain", "--format", "svg", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("&lt;U+FFFE&gt;"), std::string::npos);
  EXPECT_EQ(XmlProblem(dir, r.out), "");
}

}  // namespace
}  // namespace topolint
