// lnc-core-count: the collective world is a core count the Neuron runtime
// refuses on the target (trn1, trn1n: 1, 2, 8, 16 or a multiple of 32).
// Scaffolded by scripts/new-rule.sh: fails until rules/lnc_rules.cc reports
// lnc-core-count on fixtures/lnc-core-count/fail-basic.
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

// `topolint check` of a case, with its `args` file as the golden test
// reads it.
CliResult Check(const std::string& dir) {
  std::vector<std::string> args = {"check", "--color", "never"};
  std::istringstream in(
      ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/" + dir + "/args"));
  for (std::string w; in >> w;) args.push_back(w);
  args.push_back(dir);
  return RunTopolint(args);
}

TEST(LncCoreCountTest, ReportsTheFailingCase) {
  CliResult r = Check("fixtures/lnc-core-count/fail-basic");
  EXPECT_NE(r.out.find("[lnc-core-count]"), std::string::npos)
      << r.out << r.err;
}

TEST(LncCoreCountTest, PassesThePassingCase) {
  CliResult r = Check("fixtures/lnc-core-count/pass-basic");
  EXPECT_EQ(r.out.find("[lnc-core-count]"), std::string::npos) << r.out;
  EXPECT_LT(r.exit_code, 2) << r.err;
}

}  // namespace
}  // namespace topolint::testing
