// What `topolint exec` reads from a compiler's command line
// (checker/cli/exec_compile_line.h).
#include "checker/cli/exec_compile_line.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::cli {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;

TEST(ExecCompileLineTest, TheLastLncFlagCounts) {
  CompileLine line =
      ParseCompileLine({"compile", "m.pb", "--lnc=two", "--lnc=2"});
  EXPECT_EQ(line.problem, "");
  EXPECT_EQ(line.lnc.value_or(0), 2);
  EXPECT_EQ(line.lnc_source, "--lnc=2");  // as the user gave it
  // The aliases replace one another too, a bad value included.
  line = ParseCompileLine(
      {"compile", "m.pb", "--lnc", "2", "--logical-nc-config", "x"});
  EXPECT_NE(line.problem, "");
  EXPECT_FALSE(line.lnc.has_value());
  line = ParseCompileLine({"compile", "m.pb", "--lnc", "1",
                           "--logical-nc-config=2", "--target", "trn1"});
  EXPECT_EQ(line.lnc.value_or(0), 2);
  EXPECT_EQ(line.lnc_source, "--logical-nc-config=2");
  line = ParseCompileLine({"compile", "m.pb", "--logical-nc-config", "2"});
  EXPECT_EQ(line.lnc_source, "--logical-nc-config 2");
}

TEST(ExecCompileLineTest, TheTargetsDefaultNamesItsSource) {
  const CompileLine line =
      ParseCompileLine({"--target=trn2", "compile", "m.pb"});
  EXPECT_EQ(line.lnc.value_or(0), 2);
  EXPECT_EQ(line.lnc_source, "the default LNC of --target=trn2");
}

TEST(ExecCompileLineTest, PositionalsAndEveryArgumentAreKept) {
  const CompileLine line = ParseCompileLine(
      {"--target=trn2", "compile", "ckpt/", "--output", "o.neff",
       "--logfile=log.txt", "--verbose", "35", "--flag=x.json"});
  EXPECT_EQ(line.input, "");
  EXPECT_THAT(line.positionals, ElementsAre("ckpt/"));
  EXPECT_EQ(line.logfile, "log.txt");
  EXPECT_EQ(line.output, "o.neff");
  for (const char* a : {"ckpt/", "o.neff", "log.txt", "x.json", "trn2"}) {
    EXPECT_THAT(line.arguments, Contains(std::string(a)));
  }
}

}  // namespace
}  // namespace topolint::cli
