// Golden fixture tests: every fixtures/<rule>/<fail|pass>-<case>/ directory
// is one unit; its expected.txt holds topolint's exact stdout followed by
// `# exit: N`. Regenerate with scripts/update-golden.sh (and read the diff).
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> FixtureCases() {
  std::vector<std::string> cases;
  fs::path root = fs::path(TOPOLINT_SOURCE_DIR) / "fixtures";
  std::error_code ec;
  for (const auto& group : fs::directory_iterator(root, ec)) {
    if (!group.is_directory()) continue;
    for (const auto& c : fs::directory_iterator(group.path())) {
      std::string name = c.path().filename().string();
      if (!c.is_directory()) continue;
      if (name.rfind("fail-", 0) != 0 && name.rfind("pass-", 0) != 0) continue;
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

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, MatchesExpectedOutput) {
  const std::string dir = GetParam();
  const std::string abs = std::string(TOPOLINT_SOURCE_DIR) + "/" + dir;
  ASSERT_TRUE(fs::exists(abs + "/expected.txt"))
      << dir << " has no expected.txt (run scripts/update-golden.sh " << dir
      << ")";
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
  EXPECT_EQ(ReadAll(abs + "/expected.txt"), actual) << "stderr:\n" << r.err;
  EXPECT_LT(r.exit_code, 2) << "fixtures must be readable inputs: " << r.err;

  // A fail- case must show its rule; a pass- case must not.
  std::string group = fs::path(dir).parent_path().filename().string();
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
                         ::testing::ValuesIn(FixtureCases()), CaseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldenTest);

}  // namespace
}  // namespace topolint::testing
