// scripts/check-commit-msg.sh: a subject of at most 72 characters (not
// bytes) and a blank second line, as a commit-msg hook on a file and over a
// range of commits (.ci/run); comment lines are dropped as git drops them.
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

const std::string kScript =
    std::string(TOPOLINT_SOURCE_DIR) + "/scripts/check-commit-msg.sh";

CliResult Shell(const std::string& cmd, const TempDir& dir) {
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const int status = std::system(
      ("(" + cmd + ") >" + ShellQuote(out) + " 2>" + ShellQuote(err)).c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  r.out = ReadAll(out);
  r.err = ReadAll(err);
  return r;
}

CliResult CheckMessage(const std::string& message) {
  TempDir dir;
  const std::string file = dir.path() + "/COMMIT_EDITMSG";
  std::ofstream(file, std::ios::binary) << message;
  return Shell("bash " + ShellQuote(kScript) + " " + ShellQuote(file), dir);
}

TEST(CommitMsgScriptTest, AcceptsASubjectABlankLineAndABody) {
  EXPECT_EQ(CheckMessage("Short subject\n").exit_code, 0);
  EXPECT_EQ(CheckMessage("Short subject\n\nWhy, with figures.\n").exit_code, 0);
  EXPECT_EQ(CheckMessage(std::string(72, 'x') + "\n").exit_code, 0);
  // 72 characters of which two take two bytes each (74 bytes); one more is
  // refused.
  EXPECT_EQ(CheckMessage("Issue 43 \xc2\xa7"
                         "4 and \xc2\xa7"
                         "5 " +
                         std::string(53, 'x') + "\n")
                .exit_code,
            0);
  EXPECT_EQ(CheckMessage("Issue 43 \xc2\xa7"
                         "4 and \xc2\xa7"
                         "5 " +
                         std::string(54, 'x') + "\n")
                .exit_code,
            1);
  // What git's editor template adds is not the message.
  EXPECT_EQ(
      CheckMessage("Subject\n# Please enter the commit message\n#\n").exit_code,
      0);
}

TEST(CommitMsgScriptTest, RefusesALongSubjectOrNoBlankLine) {
  CliResult r = CheckMessage(std::string(73, 'x') + "\n\nbody\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("73 characters, at most 72"), std::string::npos)
      << r.err;
  r = CheckMessage("Subject\nbody straight after\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("second line must be blank"), std::string::npos)
      << r.err;
  EXPECT_EQ(CheckMessage("\n\nbody\n").exit_code, 1);
  EXPECT_EQ(CheckMessage("# only a comment\n").exit_code, 1);
}

TEST(CommitMsgScriptTest, ChecksEveryCommitOfARange) {
  TempDir dir;
  const std::string repo = ShellQuote(dir.path() + "/repo");
  const std::string git = "git -C " + repo +
                          " -c user.name=t -c user.email=t@t"
                          " -c commit.gpgsign=false";
  const std::string setup =
      "git init -q " + repo + " && " + git +
      " commit -q --allow-empty -m base && " + git + " tag base && " + git +
      " commit -q --allow-empty -m 'Good subject' -m 'Body.' && " + git +
      " tag good";
  ASSERT_EQ(Shell(setup, dir).exit_code, 0);
  CliResult r = Shell(
      "cd " + repo + " && bash " + ShellQuote(kScript) + " --range base..HEAD",
      dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 checked"), std::string::npos) << r.out;

  ASSERT_EQ(Shell(git + " commit -q --allow-empty -m " +
                      ShellQuote(std::string(80, 'y')),
                  dir)
                .exit_code,
            0);
  r = Shell(
      "cd " + repo + " && bash " + ShellQuote(kScript) + " --range base..HEAD",
      dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("80 characters"), std::string::npos) << r.err;
  // A base the clone does not hold is an error, not a pass.
  r = Shell("cd " + repo + " && bash " + ShellQuote(kScript) +
                " --range 0123456789abcdef0123456789abcdef01234567..HEAD",
            dir);
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace topolint::testing
