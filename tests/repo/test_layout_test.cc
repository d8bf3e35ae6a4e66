// The tests mirror the source layout: every *_test.cc is in a folder of the
// map in tests/README.md, every mapped source folder exists, and every
// source folder of checker/ (and rules/) has a row.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/repo/repo_files.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;

struct Row {
  std::string tests;    // "tests/hlo/text/", "tests/rules/<family>/"
  std::string mirrors;  // "checker/hlo/text/", "rules/<family>_*.cc", or prose
};

// The first `code span` of a table cell, or "" when it holds none.
std::string CodeSpan(const std::string& cell) {
  const size_t open = cell.find('`');
  if (open == std::string::npos) return "";
  const size_t close = cell.find('`', open + 1);
  if (close == std::string::npos) return "";
  return cell.substr(open + 1, close - open - 1);
}

// The rows of the map table of tests/README.md: "| `tests/...` | ... |".
std::vector<Row> MapRows(const std::string& readme) {
  std::vector<Row> out;
  size_t start = 0;
  while (start < readme.size()) {
    size_t end = readme.find('\n', start);
    if (end == std::string::npos) end = readme.size();
    const std::string line = readme.substr(start, end - start);
    start = end + 1;
    if (line.compare(0, 9, "| `tests/") != 0) continue;
    const size_t bar = line.find('|', 1);
    const size_t bar2 =
        bar == std::string::npos ? bar : line.find('|', bar + 1);
    if (bar2 == std::string::npos) continue;
    out.push_back({CodeSpan(line.substr(1, bar - 1)),
                   CodeSpan(line.substr(bar + 1, bar2 - bar - 1))});
  }
  return out;
}

const std::vector<Row>& Map() {
  static const std::vector<Row> rows =
      MapRows(ReadRepoFile(RepoRoot() / "tests/README.md"));
  return rows;
}

// The rule families that have a source file rules/<family>_*.cc.
std::set<std::string> RuleFamilies() {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(RepoRoot() / "rules")) {
    const std::string name = e.path().filename().string();
    const size_t us = name.find('_');
    if (us != std::string::npos && e.path().extension() == ".cc") {
      out.insert(name.substr(0, us));
    }
  }
  return out;
}

// True when `folder` ("tests/rules/hlo/") is the folder of `row`.
bool InRow(const std::string& folder, const Row& row,
           const std::set<std::string>& families) {
  const std::string kFamily = "<family>/";
  if (row.tests.size() < kFamily.size() ||
      row.tests.compare(row.tests.size() - kFamily.size(), kFamily.size(),
                        kFamily) != 0) {
    return folder == row.tests;
  }
  const std::string parent = row.tests.substr(0, row.tests.size() - 9);
  if (folder.compare(0, parent.size(), parent) != 0) return false;
  const std::string rest = folder.substr(parent.size());
  const size_t slash = rest.find('/');
  return slash + 1 == rest.size() && families.count(rest.substr(0, slash)) > 0;
}

// The folder ("tests/x/") of a file path relative to the root.
std::string FolderOf(const std::string& rel) {
  return rel.substr(0, rel.rfind('/') + 1);
}

TEST(TestLayoutTest, TheMapIsRead) {
  EXPECT_GE(Map().size(), 15u);
  EXPECT_GE(RuleFamilies().count("hlo"), 1u);
  const std::set<std::string> families = {"hlo"};
  const Row family_row{"tests/rules/<family>/", "rules/<family>_*.cc"};
  EXPECT_TRUE(InRow("tests/rules/hlo/", family_row, families));
  EXPECT_FALSE(InRow("tests/rules/misc/", family_row, families));
  EXPECT_FALSE(InRow("tests/rules/hlo/x/", family_row, families));
  EXPECT_FALSE(InRow("tests/rules/", family_row, families));
  EXPECT_TRUE(InRow("tests/hlo/", Row{"tests/hlo/", "checker/hlo/"}, {}));
  EXPECT_FALSE(InRow("tests/hlo/x/", Row{"tests/hlo/", "checker/hlo/"}, {}));
}

TEST(TestLayoutTest, EveryTestFileIsInAFolderOfTheMap) {
  const std::set<std::string> families = RuleFamilies();
  size_t seen = 0;
  for (const RepoFile& f : RepoTextFiles("tests", {"_test.cc"})) {
    ++seen;
    const std::string folder = FolderOf(f.rel);
    bool mapped = false;
    for (const Row& row : Map())
      mapped = mapped || InRow(folder, row, families);
    EXPECT_TRUE(mapped)
        << f.rel << " is in " << folder << ", which the map of "
        << "tests/README.md does not list: move it to the folder that "
           "mirrors the source it tests, or give the folder a row";
  }
  EXPECT_GT(seen, 100u);
}

TEST(TestLayoutTest, EveryMirroredSourceFolderExists) {
  for (const Row& row : Map()) {
    if (row.mirrors.empty() || row.mirrors.back() != '/') continue;
    EXPECT_TRUE(fs::is_directory(RepoRoot() / row.mirrors))
        << row.tests << " mirrors " << row.mirrors << ", which does not exist";
  }
}

TEST(TestLayoutTest, EverySourceFolderHasARow) {
  std::set<std::string> mirrored;
  for (const Row& row : Map()) mirrored.insert(row.mirrors);
  std::vector<std::string> folders = {"rules/"};
  for (const auto& e :
       fs::recursive_directory_iterator(RepoRoot() / "checker")) {
    if (e.is_directory()) {
      folders.push_back(
          e.path().lexically_relative(RepoRoot()).generic_string() + "/");
    }
  }
  EXPECT_GT(folders.size(), 10u);
  for (const std::string& folder : folders) {
    EXPECT_EQ(mirrored.count(folder), 1u)
        << "no row of the map in tests/README.md mirrors " << folder;
  }
}

}  // namespace
}  // namespace topolint::testing
