// Issue 47 §4: on a terminal that shows colour, each finding's `[rule-id]`
// is an OSC 8 hyperlink to the rule's page; in a pipe, an -o file or
// without colour it is plain text. The terminal is a pseudo-terminal made
// by util-linux `script`; the test is skipped where there is none.
#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kCase[] = "fixtures/xref-topology-mismatch/fail-group-differs";
constexpr char kLink[] =
    "\x1b]8;;https://github.com/topolint/topolint/blob/main/docs/rules/"
    "xref-topology-mismatch.md\x1b\\[xref-topology-mismatch]\x1b]8;;\x1b\\";

bool HaveScript() {
  return std::system("script -q -e -c true /dev/null >/dev/null 2>&1") == 0;
}

// `topolint ARGS` with standard output on a pseudo-terminal (TERM=xterm,
// colour not switched off by the environment); what the terminal got.
std::string OnATerminal(const std::string& args, const std::string& env = "") {
  TempDir dir;
  const std::string out = dir.path() + "/tty.out";
  const std::string inner = "env -u NO_COLOR -u FORCE_COLOR TERM=xterm " + env +
                            " " + ShellQuote(TOPOLINT_BINARY) + " " + args;
  const std::string cmd = "cd " + ShellQuote(TOPOLINT_SOURCE_DIR) +
                          " && script -q -e -c " + ShellQuote(inner) +
                          " /dev/null >" + ShellQuote(out) + " 2>&1";
  (void)std::system(cmd.c_str());
  return ReadAll(out);
}

TEST(HyperlinkCliTest, RuleIdLinksToItsPageOnATerminal) {
  if (!HaveScript()) GTEST_SKIP() << "no `script` to make a terminal";
  std::string tty = OnATerminal(std::string("check ") + kCase);
  EXPECT_THAT(tty, HasSubstr(kLink));
  EXPECT_THAT(tty, HasSubstr("\x1b[1;31m"));  // and colour
  // --docs-url moves the links, as it moves SARIF's helpUri.
  tty = OnATerminal(std::string("check --docs-url https://example.invalid/r ") +
                    kCase);
  EXPECT_THAT(tty, HasSubstr("\x1b]8;;https://example.invalid/r/"
                             "xref-topology-mismatch.md\x1b\\"));
  // No colour on the terminal: no links either.
  EXPECT_THAT(OnATerminal(std::string("check --color never ") + kCase),
              Not(HasSubstr("\x1b]8;")));
  EXPECT_THAT(OnATerminal(std::string("check ") + kCase, "NO_COLOR=1"),
              Not(HasSubstr("\x1b]8;")));
  EXPECT_THAT(OnATerminal(std::string("check ") + kCase, "TERM=dumb"),
              Not(HasSubstr("\x1b]8;")));
}

TEST(HyperlinkCliTest, NeverIntoAFileOrAPipe) {
  // A pipe, even with colour forced: plain `[rule-id]`.
  CliResult r = RunTopolint({"check", "--color", "always", kCase});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("\x1b[1;31m"));
  EXPECT_THAT(r.out, HasSubstr("[xref-topology-mismatch]"));
  EXPECT_THAT(r.out, Not(HasSubstr("\x1b]8;")));
  // -o FILE from a terminal: the file holds no link.
  if (!HaveScript()) GTEST_SKIP() << "no `script` to make a terminal";
  TempDir dir;
  const std::string report = dir.path() + "/report.txt";
  OnATerminal("check --color always -o " + ShellQuote(report) + " " + kCase);
  const std::string text = ReadAll(report);
  EXPECT_THAT(text, HasSubstr("[xref-topology-mismatch]"));
  EXPECT_THAT(text, Not(HasSubstr("\x1b]8;")));
}

}  // namespace
}  // namespace topolint::testing
