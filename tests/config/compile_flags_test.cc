// compile_flags.json: list and string forms, every LNC spelling, the trn2
// default, and malformed files.
#include "checker/config/compile_flags.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::config {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CompileFlagsTest, ListWithLncEquals) {
  CompileFlags f = ParseCompileFlags(
      R"(["--target=trn2", "--auto-cast=none", "--lnc=1", "-O1"])", "cf.json");
  ASSERT_TRUE(f.problem.empty()) << f.problem;
  EXPECT_EQ(f.lnc, 1);
  EXPECT_FALSE(f.lnc_from_target);
  EXPECT_EQ(f.target, "trn2");
  EXPECT_EQ(f.lnc_loc, Location("cf.json", 1, 40));  // the flag itself
  EXPECT_THAT(f.args, ElementsAre("--target=trn2", "--auto-cast=none",
                                  "--lnc=1", "-O1"));
}

TEST(CompileFlagsTest, EverySpellingOfTheLncFlag) {
  for (const char* text :
       {R"(["--lnc", "2"])", R"(["-lnc", "2"])", R"(["--lnc 2"])",
        R"(["--logical-nc-config=2"])", R"(["--logical-nc-config", "2"])",
        R"("--target trn1 --logical-nc-config 2")"}) {
    CompileFlags f = ParseCompileFlags(text, "cf.json");
    EXPECT_EQ(f.lnc, 2) << text;
    EXPECT_TRUE(f.problem.empty()) << text << ": " << f.problem;
  }
}

TEST(CompileFlagsTest, Trn2AndLaterDefaultToLnc2) {
  CompileFlags f = ParseCompileFlags(R"(["--target", "trn2", "-O2"])", "c");
  EXPECT_EQ(f.lnc, 2);
  EXPECT_TRUE(f.lnc_from_target);
  EXPECT_EQ(f.lnc_loc, f.target_loc);
  EXPECT_EQ(ParseCompileFlags(R"(["--target=trn3"])", "c").lnc, 2);
  EXPECT_FALSE(ParseCompileFlags(R"(["--target=trn1"])", "c").lnc);
  EXPECT_FALSE(ParseCompileFlags(R"(["--target=inf2"])", "c").lnc);
  EXPECT_FALSE(ParseCompileFlags(R"(["-O1"])", "c").lnc);
  EXPECT_TRUE(TargetDefaultsToLnc2("trn2n"));
  EXPECT_FALSE(TargetDefaultsToLnc2("trn"));
}

TEST(CompileFlagsTest, LastFlagWins) {
  CompileFlags f = ParseCompileFlags(R"(["--lnc=2", "--lnc=1"])", "c");
  EXPECT_EQ(f.lnc, 1);
  // An explicit LNC beats the target's default.
  EXPECT_EQ(ParseCompileFlags(R"(["--target=trn2", "--lnc=1"])", "c").lnc, 1);
}

TEST(CompileFlagsTest, OneStringIsSplitLikeAShell) {
  CompileFlags f = ParseCompileFlags(
      R"("--target=trn2 --model-type='transformer x' --lnc=1")", "c");
  EXPECT_THAT(f.args, ElementsAre("--target=trn2", "--model-type=transformer x",
                                  "--lnc=1"));
  EXPECT_EQ(f.lnc, 1);
  std::vector<size_t> offsets;
  EXPECT_THAT(SplitShellWords(R"(a "b c"  d\ e)", &offsets),
              ElementsAre("a", "b c", "d e"));
  EXPECT_THAT(offsets, ElementsAre(0, 2, 9));
}

TEST(CompileFlagsTest, MalformedFilesSayWhatWasExpected) {
  CompileFlags f = ParseCompileFlags(R"({"lnc": 2})", "c");
  EXPECT_THAT(f.problem, HasSubstr("expected a JSON list"));
  EXPECT_EQ(f.problem_loc, Location("c", 1, 1));
  f = ParseCompileFlags(R"(["--lnc=two"])", "c");
  EXPECT_THAT(f.problem, HasSubstr("positive integer, got 'two'"));
  EXPECT_FALSE(f.lnc);
  f = ParseCompileFlags(R"(["--lnc"])", "c");
  EXPECT_THAT(f.problem, HasSubstr("--lnc has no value"));
  f = ParseCompileFlags(R"(["-O1", 3])", "c");
  EXPECT_THAT(f.problem, HasSubstr("must be strings, found integer"));
  f = ParseCompileFlags(R"(["--lnc=2")", "c");
  EXPECT_TRUE(f.json_syntax_error);
  EXPECT_FALSE(f.problem.empty());
}

}  // namespace
}  // namespace topolint::config
