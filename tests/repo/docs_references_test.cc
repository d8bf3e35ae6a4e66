// The repository cites nothing a user does not have: no file refers to the
// product specification or the design notes the project started from, or
// to a path outside the repository. What a comment or a page needs from
// them lives in docs/reference/ (docs/reference/README.md).
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "tests/repo/repo_files.h"

namespace topolint::testing {
namespace {

// This file spells the forbidden forms out, so it is the one file exempt.
constexpr std::string_view kSelf = "tests/repo/docs_references_test.cc";

bool IsWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

// The first outside reference in `line`, or "" when there is none.
std::string OutsideReference(std::string_view line) {
  // Files of the original project notes, which users do not have.
  static constexpr std::string_view kNames[] = {
      "SPEC.md",
      "STYLE.md",
      "rank-model.txt",
      "component-dp-sharding.txt",
      "neuron-artifacts.md",
      "neuron-configs-and-neff.md",
      "xla-hlo-collectives.md",
      "shared/background",
      "shared/schemas",
      "../shared/",
  };
  for (std::string_view name : kNames) {
    if (line.find(name) != std::string_view::npos) return std::string(name);
  }
  // "SPEC" as a word ("SPEC §4", "SPEC section 2", "the SPEC"), not inside
  // an identifier such as GROUP_SPEC_TABLE.
  for (size_t at = line.find("SPEC"); at != std::string_view::npos;
       at = line.find("SPEC", at + 1)) {
    const bool starts = at == 0 || !IsWordByte(line[at - 1]);
    const bool ends = at + 4 == line.size() || !IsWordByte(line[at + 4]);
    if (starts && ends) return "SPEC";
  }
  // An absolute path into the machine the project is built on: "/work/..."
  // where a path starts (not "$tmp/work/...").
  for (size_t at = line.find("/work/"); at != std::string_view::npos;
       at = line.find("/work/", at + 1)) {
    if (at == 0 || !(IsWordByte(line[at - 1]) || line[at - 1] == '/' ||
                     line[at - 1] == '.' || line[at - 1] == '}' ||
                     line[at - 1] == ')' || line[at - 1] == '$')) {
      return "/work/";
    }
  }
  return "";
}

TEST(DocsReferencesTest, TheDetectorFindsEachForm) {
  // Guards the scan below against matching nothing.
  for (const char* line :
       {"// as SPEC §3 says", "(SPEC section 1 order)", "see the SPEC.",
        "rank-model.txt §6: a 2x4 mesh", "(component-dp-sharding.txt)",
        "schema=../shared/schemas/sarif.json", "/work/shared/SPEC.md",
        "`/work/main/docs`", "# Google base, as STYLE.md asks."}) {
    EXPECT_NE(OutsideReference(line), "") << line;
  }
  for (const char* line :
       {"#define TOPOLINT_CHECKER_MODEL_GROUP_SPEC_TABLE_H_",
        "(docs/reference/rank-model.md §6)", "mkdir -p \"$tmp/work/out\"",
        "SPECIAL files", "kSpecRules", "a RESPEC", "${dir}/work/x"}) {
    EXPECT_EQ(OutsideReference(line), "") << line;
  }
}

TEST(DocsReferencesTest, NoFileCitesTheSpecOrAPathOutsideTheRepository) {
  const std::vector<RepoFile> files = RepoTextFiles("", {});
  // The scan must see the tree: the sources, the docs and the fixtures.
  size_t docs = 0, sources = 0, fixtures = 0;
  for (const RepoFile& f : files) {
    docs += f.rel.compare(0, 5, "docs/") == 0 ? 1 : 0;
    sources += f.rel.compare(0, 8, "checker/") == 0 ? 1 : 0;
    fixtures += f.rel.compare(0, 9, "fixtures/") == 0 ? 1 : 0;
  }
  EXPECT_GT(docs, 30u);
  EXPECT_GT(sources, 200u);
  EXPECT_GT(fixtures, 100u);
  for (const RepoFile& f : files) {
    if (f.rel == kSelf) continue;
    size_t line_no = 1;
    for (size_t start = 0; start <= f.text.size(); ++line_no) {
      size_t end = f.text.find('\n', start);
      if (end == std::string::npos) end = f.text.size();
      const std::string_view line(f.text.data() + start, end - start);
      const std::string found = OutsideReference(line);
      EXPECT_EQ(found, "")
          << f.rel << ":" << line_no << ": cites " << found
          << ", which users do not have; link the page of docs/reference/ "
             "that says it (or add what it needs there)\n  "
          << line;
      start = end + 1;
    }
  }
}

}  // namespace
}  // namespace topolint::testing
