#include "checker/diag/spelling.h"

#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace topolint {
namespace {

TEST(EditDistanceTest, CountsTranspositionAsOneEdit) {
  EXPECT_EQ(EditDistance("ab", "ba", 5), 1);
  EXPECT_EQ(EditDistance("kitten", "sitting", 5), 3);
  EXPECT_EQ(EditDistance("", "abc", 5), 3);
  EXPECT_EQ(EditDistance("same", "same", 0), 0);
}

TEST(EditDistanceTest, StopsAtTheLimit) {
  EXPECT_EQ(EditDistance("abcdef", "uvwxyz", 2), 3);
  EXPECT_EQ(EditDistance("a", "abcdefgh", 2), 3);  // length gap alone
}

TEST(TypoLimitTest, AThirdBetweenOneAndTwo) {
  EXPECT_EQ(TypoLimit(0), 1);
  EXPECT_EQ(TypoLimit(3), 1);
  EXPECT_EQ(TypoLimit(6), 2);
  EXPECT_EQ(TypoLimit(60), 2);
}

TEST(NearestSpellingTest, FindsTheClosestWithinTheLimit) {
  constexpr std::string_view kFlags[] = {"format", "fix", "fix-from",
                                         "force-exclude"};
  EXPECT_EQ(NearestSpelling("formt", kFlags, 1), "format");
  EXPECT_EQ(NearestSpelling("fxi", kFlags, 1), "fix");  // transposition
  EXPECT_EQ(NearestSpelling("colour", kFlags, 2), "");
  EXPECT_EQ(NearestSpelling(std::string(300, 'f'), kFlags, 400), "");
}

TEST(NearestSpellingTest, TiesGoToTheAlphabeticallyFirst) {
  constexpr std::string_view kNames[] = {"cat", "bat", "rat"};
  EXPECT_EQ(NearestSpelling("hat", kNames, 1), "bat");
}

}  // namespace
}  // namespace topolint
