// Runs tests/integration/precommit_test.sh and precommit_large_test.sh: the
// pre-commit hooks of .pre-commit-hooks.yaml, installed in a throw-away
// repository, fail on bad inputs with the findings in their output, pass
// once they are fixed, and report a commit of 8,000 files once.
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

// Runs `script` with the build directory, the source tree and `args`;
// returns its combined output and expects it to end with "<name>: OK".
void RunScript(const std::string& script, const std::string& args,
               const std::string& ok) {
  TempDir d;
  std::string log = d.path() + "/script.log";
  std::string build =
      std::filesystem::path(TOPOLINT_BINARY).parent_path().string();
  std::string cmd = "bash " +
                    ShellQuote(std::string(TOPOLINT_SOURCE_DIR) +
                               "/tests/integration/" + script) +
                    " " + ShellQuote(build) + " " +
                    ShellQuote(TOPOLINT_SOURCE_DIR) + " " + args + " >" +
                    ShellQuote(log) + " 2>&1";
  int status = std::system(cmd.c_str());
  std::string out = ReadAll(log);
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_EQ(WEXITSTATUS(status), 0) << out;
  EXPECT_THAT(out, ::testing::HasSubstr(ok)) << out;
}

TEST(PreCommitTest, HookFailsOnFindingsAndPassesWhenFixed) {
  if (!Have("pre-commit") || !Have("git")) {
    GTEST_SKIP() << "pre-commit or git is not installed";
  }
  RunScript("precommit_test.sh", "topolint", "precommit_test: OK");
}

TEST(PreCommitTest, StagedUnitsHookFailsOnFindingsAndPassesWhenFixed) {
  if (!Have("pre-commit") || !Have("git")) {
    GTEST_SKIP() << "pre-commit or git is not installed";
  }
  RunScript("precommit_test.sh", "topolint-files", "precommit_test: OK");
}

// 8,000 staged inputs: more than pre-commit passes to one process. One
// summary, no finding twice (about 15 s on a loaded 2-core machine).
TEST(PreCommitTest, CommitOfEightThousandFilesGivesOneReport) {
  if (!Have("pre-commit") || !Have("git") || !Have("python3")) {
    GTEST_SKIP() << "pre-commit, git or python3 is not installed";
  }
  RunScript("precommit_large_test.sh", "topolint", "precommit_large_test: OK");
}

}  // namespace
}  // namespace topolint::testing
