// Runs tests/integration/precommit_test.sh: the pre-commit hook of
// .pre-commit-hooks.yaml, installed in a throw-away repository, fails on a
// bad def.json with the finding in its output and passes once it is fixed.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

bool Have(const std::string& tool) {
  return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

TEST(PreCommitTest, HookFailsOnFindingsAndPassesWhenFixed) {
  if (!Have("pre-commit") || !Have("git")) {
    GTEST_SKIP() << "pre-commit or git is not installed";
  }
  TempDir d;
  std::string log = d.path() + "/precommit.log";
  std::string build =
      std::filesystem::path(TOPOLINT_BINARY).parent_path().string();
  std::string cmd = "bash " +
                    ShellQuote(std::string(TOPOLINT_SOURCE_DIR) +
                               "/tests/integration/precommit_test.sh") +
                    " " + ShellQuote(build) + " " +
                    ShellQuote(TOPOLINT_SOURCE_DIR) + " >" + ShellQuote(log) +
                    " 2>&1";
  int status = std::system(cmd.c_str());
  std::string out = ReadAll(log);
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_EQ(WEXITSTATUS(status), 0) << out;
  EXPECT_THAT(out, ::testing::HasSubstr("precommit_test: OK")) << out;
}

}  // namespace
}  // namespace topolint::testing
