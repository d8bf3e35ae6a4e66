// Golden fixture tests: every fixtures/<rule>/<fail|pass>-<case>/ directory
// is one unit; its expected.txt holds topolint's exact stdout followed by
// `# exit: N`. fixtures/layouts/<case>/ are whole trees (a compile cache, a
// compiler workdir, ...: docs/layouts.md) checked as a directory with
// --verbose; their expected.txt also holds stderr (the units, skip reasons
// and warnings are the point), and an expected-json.txt / expected-sarif.txt
// beside it is the same run in that format (SARIF: its runs[0].results
// without ruleIndex).
//
// With TOPOLINT_UPDATE_GOLDEN=1 in the environment the test writes each
// expected file from the actual run instead of comparing (the one way to
// regenerate them: `TOPOLINT_UPDATE_GOLDEN=1 ctest --test-dir build -R
// Golden`, or scripts/update-golden.sh for chosen cases); read the diff.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> FixtureCases(bool layouts) {
  std::vector<std::string> cases;
  fs::path root = fs::path(TOPOLINT_SOURCE_DIR) / "fixtures";
  std::error_code ec;
  for (const auto& group : fs::directory_iterator(root, ec)) {
    if (!group.is_directory()) continue;
    for (const auto& c : fs::directory_iterator(group.path())) {
      std::string name = c.path().filename().string();
      if (!c.is_directory()) continue;
      bool layout = group.path().filename() == "layouts";
      if (layout != layouts) continue;
      if (!layout && name.rfind("fail-", 0) != 0 &&
          name.rfind("pass-", 0) != 0) {
        continue;
      }
      cases.push_back("fixtures/" + group.path().filename().string() + "/" +
                      name);
    }
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

std::vector<std::string> SplitArgs(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// TOPOLINT_UPDATE_GOLDEN is set to 1: write expected files, do not compare.
bool UpdateMode() {
  const char* v = std::getenv("TOPOLINT_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// Compares `golden` with `actual`, or in update mode writes it.
void ExpectGolden(const std::string& golden, const std::string& actual,
                  const std::string& context) {
  if (UpdateMode()) {
    std::ofstream out(golden, std::ios::binary | std::ios::trunc);
    out << actual;
    ASSERT_TRUE(out.good()) << "cannot write " << golden;
    std::cout << "updated " << golden << "\n";
    return;
  }
  ASSERT_TRUE(fs::exists(golden))
      << golden << " is missing (TOPOLINT_UPDATE_GOLDEN=1 writes it)";
  EXPECT_EQ(ReadAll(golden), actual) << context;
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};
class LayoutGoldenTest : public ::testing::TestWithParam<std::string> {};

// stdout, then `# stderr:` and stderr, then `# exit: N`.
std::string LayoutTranscript(const CliResult& r) {
  std::string t = r.out;
  if (!t.empty() && t.back() != '\n') t += '\n';
  t += "# stderr:\n" + r.err;
  if (!t.empty() && t.back() != '\n') t += '\n';
  return t + "# exit: " + std::to_string(r.exit_code) + "\n";
}

TEST_P(LayoutGoldenTest, MatchesExpectedOutput) {
  const std::string dir = GetParam();
  const std::string abs = std::string(TOPOLINT_SOURCE_DIR) + "/" + dir;
  for (std::string format : {"text", "json", "sarif"}) {
    std::string golden = format == "text"
                             ? abs + "/expected.txt"
                             : abs + "/expected-" + format + ".txt";
    if (format != "text" && !fs::exists(golden)) continue;
    CliResult r = RunTopolint(
        {"check", "--color", "never", "--verbose", "--format", format, dir});
    if (format == "sarif") {
      // Only the results: the rest is the rule catalogue (docs text).
      // ruleIndex moves whenever a rule is added.
      nlohmann::json results =
          nlohmann::json::parse(r.out)["runs"][0]["results"];
      for (nlohmann::json& result : results) result.erase("ruleIndex");
      r.out = results.dump(2);
    }
    ExpectGolden(golden, LayoutTranscript(r), format);
    EXPECT_LT(r.exit_code, 2) << r.err;
  }
}

TEST_P(GoldenTest, MatchesExpectedOutput) {
  const std::string dir = GetParam();
  const std::string abs = std::string(TOPOLINT_SOURCE_DIR) + "/" + dir;
  std::vector<std::string> args = {"check", "--color", "never"};
  if (fs::exists(abs + "/args")) {
    std::string line = ReadAll(abs + "/args");
    for (std::string& a : SplitArgs(line)) args.push_back(a);
  }
  args.push_back(dir);
  CliResult r = RunTopolint(args);
  std::string actual = r.out;
  if (!actual.empty() && actual.back() != '\n') actual += '\n';
  actual += "# exit: " + std::to_string(r.exit_code) + "\n";
  ExpectGolden(abs + "/expected.txt", actual, "stderr:\n" + r.err);
  EXPECT_LT(r.exit_code, 2) << "fixtures must be readable inputs: " << r.err;

  // A fail- case must show its rule; a pass- case must not.
  std::string group = fs::path(dir).parent_path().filename().string();
  // How each format names the rule: text `[id]`, json `"rule": "id"`,
  // github `title=id`.
  std::string tag = "[" + group + "]";
  // A case with `--format json|github` in its args shows the rule its way.
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "--format") continue;
    if (args[i + 1] == "json") tag = "\"rule\": \"" + group + "\"";
    if (args[i + 1] == "github") tag = ",title=" + group + "::";
  }
  std::string kind = fs::path(dir).filename().string().substr(0, 4);
  if (group != "syntax") {
    if (kind == "fail") {
      EXPECT_NE(r.out.find(tag), std::string::npos)
          << dir << " does not trigger " << group;
    } else {
      EXPECT_EQ(r.out.find(tag), std::string::npos)
          << dir << " triggers " << group;
    }
  } else {
    EXPECT_EQ(r.out.find("[hlo-syntax]"), std::string::npos)
        << dir << " must parse";
  }
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param.substr(std::string("fixtures/").size());
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, GoldenTest,
                         ::testing::ValuesIn(FixtureCases(false)), CaseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldenTest);
INSTANTIATE_TEST_SUITE_P(Layouts, LayoutGoldenTest,
                         ::testing::ValuesIn(FixtureCases(true)), CaseName);

}  // namespace
}  // namespace topolint::testing
