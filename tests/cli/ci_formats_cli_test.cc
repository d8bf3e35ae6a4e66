// The CI formats from the command line (junit, gitlab, concise),
// `rules --format json`, and colour from FORCE_COLOR / NO_COLOR.
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

const char kEmptyTopologyDef[] =
    R"({"CCInfo": {"replica_groups": [[[0, 1]], []]}})"
    "\n";

TEST(CiFormatsCliTest, ConciseJunitAndGitlab) {
  TempDir d;
  d.Write("repo/.git/HEAD", "");
  d.Write("repo/a/def.json", kEmptyTopologyDef);
  const std::string repo = d.path() + "/repo";

  CliResult r = RunTopolint({"check", "--format", "concise", "a"}, repo);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out,
            "a/def.json:1:42: error: Empty topology found at index 1, "
            "possible MPMD neff file: replica_groups[1] holds no groups; "
            "expected every topology to hold at least one group "
            "[neff-empty-topology]\n");

  r = RunTopolint({"check", "--format", "junit", "a"}, repo);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, StartsWith("<?xml version=\"1.0\""));
  EXPECT_THAT(r.out, HasSubstr("classname=\"neff-empty-topology\""));

  r = RunTopolint({"check", "--format", "gitlab", "."}, repo + "/a");
  EXPECT_EQ(r.exit_code, 1);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.size(), 1u);
  EXPECT_EQ(doc[0]["check_name"], "neff-empty-topology");
  EXPECT_EQ(doc[0]["location"]["path"], "a/def.json");
  EXPECT_EQ(doc[0]["location"]["lines"]["begin"], 1);

  r = RunTopolint({"check", "--format", "xml", "a"}, repo);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("junit, gitlab, concise"));
  r = RunTopolint({"explain", "--format", "junit", "a"}, repo);
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CiFormatsCliTest, RulesAsJson) {
  CliResult r = RunTopolint({"rules", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json list = nlohmann::json::parse(r.out);
  ASSERT_TRUE(list.is_array());
  const CliResult text = RunTopolint({"rules"});
  size_t lines = 0;
  for (char c : text.out) lines += c == '\n';
  EXPECT_EQ(list.size(), lines);
  EXPECT_EQ(list[0]["id"], "hlo-syntax");
  EXPECT_EQ(list[0]["severity"], "error");
  EXPECT_EQ(list[0]["docs"], "docs/rules/hlo-syntax.md");
  EXPECT_FALSE(list[0].contains("documentation"));

  r = RunTopolint({"rules", "neff-empty-topology", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json one = nlohmann::json::parse(r.out);
  EXPECT_EQ(one["id"], "neff-empty-topology");
  EXPECT_THAT(std::string(one["documentation"]), HasSubstr("## How to fix"));

  r = RunTopolint({"rules", "--format", "sarif"});
  EXPECT_EQ(r.exit_code, 2);
}

// `env` then topolint, output to a file (not a terminal).
std::string RunWithEnv(const std::string& env, const std::string& dir) {
  TempDir out;
  const std::string path = out.path() + "/out.txt";
  const std::string cmd = "cd " + ShellQuote(dir) + " && env -u NO_COLOR -u " +
                          "FORCE_COLOR " + env + " " +
                          ShellQuote(TOPOLINT_BINARY) + " check a >" +
                          ShellQuote(path) + " 2>/dev/null";
  std::system(cmd.c_str());
  return ReadAll(path);
}

TEST(CiFormatsCliTest, ForceColorAndEmptyNoColor) {
  TempDir d;
  d.Write("a/def.json", kEmptyTopologyDef);
  const std::string esc = "\x1b[";
  EXPECT_THAT(RunWithEnv("", d.path()), Not(HasSubstr(esc)));
  EXPECT_THAT(RunWithEnv("FORCE_COLOR=1", d.path()), HasSubstr(esc));
  // An empty FORCE_COLOR is unset.
  EXPECT_THAT(RunWithEnv("FORCE_COLOR=", d.path()), Not(HasSubstr(esc)));
  // NO_COLOR wins over FORCE_COLOR, but only when it is not empty.
  EXPECT_THAT(RunWithEnv("NO_COLOR=1 FORCE_COLOR=1", d.path()),
              Not(HasSubstr(esc)));
  EXPECT_THAT(RunWithEnv("NO_COLOR= FORCE_COLOR=1", d.path()), HasSubstr(esc));
}

// On a terminal (a pseudo-terminal from script(1)), an empty NO_COLOR
// leaves colour on.
TEST(CiFormatsCliTest, EmptyNoColorOnATerminalIsUnset) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "script(1) is not installed";
  }
  TempDir d;
  d.Write("a/def.json", kEmptyTopologyDef);
  auto on_tty = [&](const std::string& env) {
    const std::string path = d.path() + "/tty.txt";
    const std::string inner = "env -u NO_COLOR -u FORCE_COLOR TERM=xterm " +
                              env + " " + ShellQuote(TOPOLINT_BINARY) +
                              " check a";
    const std::string cmd = "cd " + ShellQuote(d.path()) + " && script -qec " +
                            ShellQuote(inner) + " /dev/null >" +
                            ShellQuote(path) + " 2>&1 </dev/null";
    std::system(cmd.c_str());
    return ReadAll(path);
  };
  EXPECT_THAT(on_tty(""), HasSubstr("\x1b["));
  EXPECT_THAT(on_tty("NO_COLOR="), HasSubstr("\x1b["));
  EXPECT_THAT(on_tty("NO_COLOR=1"), Not(HasSubstr("\x1b[")));
}

}  // namespace
}  // namespace topolint::testing
