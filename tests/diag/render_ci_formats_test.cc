// The CI formats: concise (one line per finding), JUnit XML (well-formed,
// checked by Python's XML parser) and GitLab Code Quality (the fields
// GitLab requires).
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/diag/finding_samples.h"
#include "tests/diag/temp_dir.h"

namespace topolint {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

Location Binary() {
  Location loc{"cache/MODULE_1+abc/model.hlo_module.pb", 0, 0};
  loc.byte_offset = 142;
  loc.logical = "computation %main, op %ar";
  return loc;
}

std::vector<Finding> Sample() {
  Finding xref = SampleFinding(
      "xref-topology-mismatch", Location("m/model.hlo", 11, 56),
      "replica group 0 is {0,1} here but {0,2}", Severity::kError, "%ar");
  xref.notes.push_back(
      {Location("m/def.json", 1, 32), "topology[0] is declared here"});
  return {
      xref,
      SampleFinding("hlo-duplicate-device-id", Binary(), "replica 0 repeats",
                    Severity::kError, "%ar"),
      // Characters XML and terminals need escaped, and invalid UTF-8.
      SampleFinding(
          "config-unknown-key", Location("c/neuron_config.json", 3, 5),
          "key 'a<b>&\"c\"' \x1b[31mred\xff unknown", Severity::kWarning, "a"),
      SampleFinding("neff-empty-topology",
                    Location("out/model.neff:sg00/def.json", 3, 41),
                    "Empty topology found at index 1", Severity::kError, "t"),
  };
}

TEST(RenderConciseTest, OneLinePerFinding) {
  const std::string out = MakeConciseReport()->RenderAll(Sample());
  EXPECT_EQ(
      out,
      "m/model.hlo:11:56: error: replica group 0 is {0,1} here but {0,2} "
      "[xref-topology-mismatch]\n"
      "cache/MODULE_1+abc/model.hlo_module.pb: error: replica 0 repeats (in "
      "computation %main, op %ar (byte 142)) [hlo-duplicate-device-id]\n"
      "c/neuron_config.json:3:5: warning: key 'a<b>&\"c\"' <U+001B>[31mred<FF> "
      "unknown [config-unknown-key]\n"
      "out/model.neff:sg00/def.json:3:41: error: Empty topology found at "
      "index 1 [neff-empty-topology]\n");
}

// Parses `xml` with Python's XML parser; returns its exit status and
// prints "<suites> <cases> <failures>" into `*summary`.
int ParseWithPython(const std::string& xml, std::string* summary) {
  TempDir d;
  const std::string path = d.Write("report.xml", xml);
  const std::string out = d.Path("out.txt");
  const std::string script =
      "import sys, xml.etree.ElementTree as ET\n"
      "root = ET.parse(sys.argv[1]).getroot()\n"
      "assert root.tag == 'testsuites', root.tag\n"
      "suites = root.findall('testsuite')\n"
      "cases = root.findall('testsuite/testcase')\n"
      "fails = root.findall('testsuite/testcase/failure')\n"
      "for s in suites:\n"
      "    assert int(s.get('tests')) == len(s.findall('testcase'))\n"
      "    assert int(s.get('failures')) == "
      "len(s.findall('testcase/failure'))\n"
      "print(len(suites), len(cases), len(fails))\n";
  const std::string check = d.Write("check.py", script);
  const std::string cmd =
      "python3 '" + check + "' '" + path + "' >'" + out + "' 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(out);
  summary->assign(std::istreambuf_iterator<char>(in),
                  std::istreambuf_iterator<char>());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(RenderJunitTest, WellFormedWithAFailedCasePerFinding) {
  const std::string xml = MakeJunitReport()->RenderAll(Sample());
  std::string summary;
  ASSERT_EQ(ParseWithPython(xml, &summary), 0) << summary << xml;
  EXPECT_EQ(summary, "1 4 4\n");
  EXPECT_THAT(xml, HasSubstr("classname=\"xref-topology-mismatch\" "
                             "name=\"m/model.hlo:11:56\" file=\"m/model.hlo\" "
                             "line=\"11\""));
  EXPECT_THAT(xml, HasSubstr("<failure type=\"warning\""));
  EXPECT_THAT(xml, HasSubstr("a&lt;b&gt;&amp;&quot;c&quot;"));
  EXPECT_THAT(xml, HasSubstr("m/def.json:1:32: note: topology[0] is "
                             "declared here"));
  EXPECT_THAT(xml, HasSubstr("(in computation %main, op %ar (byte 142))"));
  EXPECT_THAT(xml, Not(HasSubstr("\x1b")));
}

TEST(RenderJunitTest, StreamedBatchesAreSuitesAndAnEmptyRunPasses) {
  std::unique_ptr<ReportWriter> w = MakeJunitReport();
  std::string out;
  w->Begin(&out);
  const std::vector<Finding> all = Sample();
  w->Add({all[0], all[1]}, &out);
  w->Add({}, &out);
  w->Add({all[2]}, &out);
  w->End(&out);
  std::string summary;
  ASSERT_EQ(ParseWithPython(out, &summary), 0) << summary << out;
  EXPECT_EQ(summary, "2 3 3\n");

  const std::string empty = MakeJunitReport()->RenderAll({});
  ASSERT_EQ(ParseWithPython(empty, &summary), 0) << summary << empty;
  EXPECT_EQ(summary, "1 1 0\n");
}

TEST(RenderGitlabTest, CodeQualityFieldsWithRepositoryPaths) {
  std::vector<Finding> findings = Sample();
  findings.push_back(findings[0]);  // the same issue twice
  const SarifRoots roots{"/repo", "/repo/models"};
  const Json doc = Json::parse(MakeGitlabReport(&roots)->RenderAll(findings));
  ASSERT_TRUE(doc.is_array());
  ASSERT_EQ(doc.size(), 5u);
  for (const Json& issue : doc) {
    EXPECT_TRUE(issue["description"].is_string()) << issue;
    EXPECT_TRUE(issue["check_name"].is_string()) << issue;
    EXPECT_TRUE(issue["fingerprint"].is_string()) << issue;
    EXPECT_THAT(
        std::string(issue["severity"]),
        ::testing::AnyOf("info", "minor", "major", "critical", "blocker"));
    EXPECT_TRUE(issue["location"]["path"].is_string()) << issue;
    EXPECT_GE(issue["location"]["lines"]["begin"].get<int64_t>(), 1) << issue;
  }
  EXPECT_EQ(doc[0]["check_name"], "xref-topology-mismatch");
  EXPECT_EQ(doc[0]["severity"], "major");
  EXPECT_EQ(doc[0]["location"]["path"], "models/m/model.hlo");
  EXPECT_EQ(doc[0]["location"]["lines"]["begin"], 11);
  // A binary module: line 1, the op in the description.
  EXPECT_EQ(doc[1]["location"]["lines"]["begin"], 1);
  EXPECT_THAT(std::string(doc[1]["description"]), HasSubstr("op %ar"));
  EXPECT_EQ(doc[2]["severity"], "minor");
  // A .neff member: placed at the .neff, the member named.
  EXPECT_EQ(doc[3]["location"]["path"], "models/out/model.neff");
  EXPECT_THAT(std::string(doc[3]["description"]), HasSubstr("sg00/def.json"));
  // Every fingerprint unique, the repeated issue's too.
  std::set<std::string> prints;
  for (const Json& issue : doc) prints.insert(issue["fingerprint"]);
  EXPECT_EQ(prints.size(), doc.size());
  EXPECT_EQ(Json::parse(MakeGitlabReport(nullptr)->RenderAll({})),
            Json::array());
}

}  // namespace
}  // namespace topolint
