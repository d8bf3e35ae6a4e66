// The two lowest layers, read from the sources: checker/io includes no
// other directory of checker/, and checker/diag none but checker/io
// (docs/architecture.md, "Layers as libraries"). The link order would let a
// header-only include through (status_macros.h), so it is checked here.
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "tests/repo/repo_files.h"

namespace topolint {
namespace {

using testing::RepoFile;
using testing::RepoTextFiles;

// The quoted includes under checker/ of `text`, as written.
std::vector<std::string> CheckerIncludes(std::string_view text) {
  std::vector<std::string> out;
  constexpr std::string_view kDirective = "#include \"checker/";
  for (size_t at = text.find(kDirective); at != std::string_view::npos;
       at = text.find(kDirective, at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    const size_t start = at + kDirective.size() - 8;  // at "checker/"
    const size_t end = text.find('"', start);
    if (end != std::string_view::npos) {
      out.emplace_back(text.substr(start, end - start));
    }
  }
  return out;
}

// Every include under checker/ of the sources of `dir` starts with one of
// `allowed`.
void ExpectIncludesOnly(const std::string& dir,
                        const std::vector<std::string>& allowed) {
  const std::vector<RepoFile> files = RepoTextFiles(dir, {".h", ".cc"});
  ASSERT_FALSE(files.empty()) << dir;
  for (const RepoFile& f : files) {
    for (const std::string& inc : CheckerIncludes(f.text)) {
      bool ok = false;
      for (const std::string& a : allowed)
        ok |= inc.compare(0, a.size(), a) == 0;
      EXPECT_TRUE(ok) << f.rel << " includes " << inc << ", a layer above it";
    }
  }
}

TEST(IoLayerTest, CheckerIncludesReadsQuotedCheckerIncludesOnly) {
  EXPECT_EQ(CheckerIncludes("#include \"checker/io/a.h\"\n"
                            "#include <checker/x.h>\n"
                            "// #include \"checker/y.h\"\n"
                            "#include \"absl/z.h\"\n"
                            "#include \"checker/diag/b.h\"\n"),
            (std::vector<std::string>{"checker/io/a.h", "checker/diag/b.h"}));
}

TEST(IoLayerTest, IoIncludesNoOtherLayer) {
  ExpectIncludesOnly("checker/io", {"checker/io/"});
}

TEST(IoLayerTest, DiagIncludesOnlyIo) {
  ExpectIncludesOnly("checker/diag", {"checker/diag/", "checker/io/"});
}

}  // namespace
}  // namespace topolint
