// Issue 47 §1: the first commands a new user types.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;

TEST(FirstRunTest, CheckWithoutAPathChecksTheCurrentDirectory) {
  TempDir d;
  d.Write("u/def.json", R"({"CCInfo": {"replica_groups": [[[0, 1]], []]}})");
  // As `ruff check`: the current directory.
  CliResult r = RunTopolint({"check"}, d.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Empty topology found at index 1"));
  r = RunTopolint({"explain"}, d.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("def.json"));
}

// README's command 1 ends on `build/topolint check examples/first-run`, and
// README shows what it prints: the block must be what the command prints
// (standard output, then the summary on standard error).
TEST(FirstRunTest, ReadmeShowsWhatTheFirstCommandPrints) {
  const std::string readme =
      ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/README.md");
  const std::string command = "$ build/topolint check examples/first-run\n";
  const size_t at = readme.find("```\n" + command);
  ASSERT_NE(at, std::string::npos) << "README has no sample of command 1";
  const size_t begin = at + 4 + command.size();
  const size_t end = readme.find("```", begin);
  ASSERT_NE(end, std::string::npos);
  const std::string shown = readme.substr(begin, end - begin);
  const CliResult r =
      RunTopolint({"check", "--color", "never", "examples/first-run"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out + r.err, shown);
  EXPECT_NE(readme.find("--target topolint && build/topolint check "
                        "examples/first-run"),
            std::string::npos);
}

TEST(FirstRunTest, NoArgumentsAtAllIsAUsageError) {
  const CliResult r = RunTopolint({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("`topolint check [PATH...]` checks PATH"));
}

}  // namespace
}  // namespace topolint::testing
