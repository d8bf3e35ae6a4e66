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

TEST(FirstRunTest, NoArgumentsAtAllIsAUsageError) {
  const CliResult r = RunTopolint({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("`topolint check [PATH...]` checks PATH"));
}

}  // namespace
}  // namespace topolint::testing
