// The project's regular expressions are RE2 (linear time, the library the
// path filters use): no C++ source of checker/, rules/, tests/, bench/ or
// fuzz/ includes the standard <regex> header.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "re2/re2.h"
#include "tests/repo/repo_files.h"

namespace topolint::testing {
namespace {

// True when C++ source `text` has an #include of <regex> on a line of its own.
bool IncludesStdRegex(const std::string& text) {
  static const RE2 kInclude(R"((?m)^[ \t]*#[ \t]*include[ \t]*<regex>)");
  return RE2::PartialMatch(text, kInclude);
}

TEST(NoStdRegexTest, ScanSeesTheInclude) {
  EXPECT_TRUE(IncludesStdRegex("#include <regex>\n"));
  EXPECT_TRUE(IncludesStdRegex("#include <string>\n  #  include <regex>\n"));
  EXPECT_FALSE(IncludesStdRegex("#include <string>\n"));
  EXPECT_FALSE(IncludesStdRegex("#include \"re2/re2.h\"\n"));
  EXPECT_FALSE(IncludesStdRegex("// not std::regex: RE2\n"));
}

TEST(NoStdRegexTest, NoSourceIncludesStdRegex) {
  size_t scanned = 0;
  for (const char* dir : {"checker", "rules", "tests", "bench", "fuzz"}) {
    for (const RepoFile& f : RepoTextFiles(dir, {".cc", ".h"})) {
      ++scanned;
      EXPECT_FALSE(IncludesStdRegex(f.text))
          << f.rel << " includes <regex>: the project's regular expressions "
          << "are RE2 (re2/re2.h)";
    }
  }
  EXPECT_GT(scanned, 100u) << "the scan found too few sources";
}

}  // namespace
}  // namespace topolint::testing
