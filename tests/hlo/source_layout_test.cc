// The layout of checker/hlo, read from the sources: the shared level
// (checker/hlo/*) includes neither front end, the text front end
// (checker/hlo/text), the binary one (checker/hlo/proto) and the StableHLO
// one (checker/hlo/mlir) do not include each other, only the dispatcher
// (checker/hlo/dispatch) sees them all, the
// layer includes nothing above checker/diag and checker/io, each folder
// says what it is in a README.md, and no source file is over 500 lines.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxLines = 500;

const fs::path& HloRoot() {
  static const fs::path root = fs::path(TOPOLINT_SOURCE_DIR) / "checker/hlo";
  return root;
}

struct Source {
  std::string folder;  // "" (the shared level), "text", "proto", "dispatch"
  std::string name;    // path relative to checker/hlo
  int lines = 0;
  std::vector<std::string> includes;  // the quoted ones, as written
};

// The quoted includes of `text`, one per `#include "..."` line.
std::vector<std::string> QuotedIncludes(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::string kDirective = "#include \"";
    if (line.compare(0, kDirective.size(), kDirective) != 0) continue;
    const size_t end = line.find('"', kDirective.size());
    if (end != std::string::npos) {
      out.push_back(line.substr(kDirective.size(), end - kDirective.size()));
    }
  }
  return out;
}

std::vector<Source> HloSources() {
  std::vector<Source> out;
  for (const auto& entry : fs::recursive_directory_iterator(HloRoot())) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".h" && ext != ".cc")) continue;
    Source s;
    const fs::path rel = entry.path().lexically_relative(HloRoot());
    s.name = rel.generic_string();
    s.folder = rel.has_parent_path() ? rel.parent_path().generic_string() : "";
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string body = text.str();
    for (char c : body) s.lines += c == '\n' ? 1 : 0;
    s.includes = QuotedIncludes(body);
    out.push_back(std::move(s));
  }
  return out;
}

// The checker/hlo folder an include names ("" for the shared level), or
// "-" when it is not under checker/hlo.
std::string HloFolderOf(const std::string& include) {
  const std::string prefix = "checker/hlo/";
  if (include.compare(0, prefix.size(), prefix) != 0) return "-";
  const std::string rest = include.substr(prefix.size());
  const size_t slash = rest.find('/');
  return slash == std::string::npos ? "" : rest.substr(0, slash);
}

TEST(HloSourceLayoutTest, TheSourcesAreFound) {
  // Guards the other tests against reading nothing: each folder holds
  // sources, and the scanner sees their includes.
  std::map<std::string, int> per_folder;
  size_t includes = 0;
  for (const Source& s : HloSources()) {
    ++per_folder[s.folder];
    includes += s.includes.size();
  }
  for (const char* folder :
       {"", "sharding", "text", "proto", "mlir", "dispatch"}) {
    EXPECT_GT(per_folder[folder], 0) << "no sources in checker/hlo/" << folder;
  }
  EXPECT_EQ(per_folder.size(), 6u)
      << "a folder under checker/hlo that this test does not know: give it "
         "a README.md and a place in the include rules below";
  EXPECT_GT(includes, 50u);
}

TEST(HloSourceLayoutTest, NoFolderIncludesOneItMustNotSee) {
  // Which checker/hlo folders each folder may include.
  const std::map<std::string, std::set<std::string>> allowed = {
      {"", {""}},
      {"sharding", {"", "sharding"}},
      {"text", {"", "sharding", "text"}},
      {"proto", {"", "sharding", "proto"}},
      {"mlir", {"", "sharding", "mlir"}},
      {"dispatch", {"", "sharding", "text", "proto", "mlir", "dispatch"}},
  };
  for (const Source& s : HloSources()) {
    const auto rule = allowed.find(s.folder);
    ASSERT_NE(rule, allowed.end()) << s.name;
    for (const std::string& inc : s.includes) {
      const std::string folder = HloFolderOf(inc);
      if (folder == "-") continue;
      EXPECT_TRUE(rule->second.count(folder) > 0)
          << "checker/hlo/" << s.name << " includes " << inc
          << ": the shared level includes no front end, and text/ and "
             "proto/ do not include each other (only dispatch/ sees both)";
    }
  }
}

TEST(HloSourceLayoutTest, TheLayerIncludesNothingAboveDiag) {
  for (const Source& s : HloSources()) {
    for (const std::string& inc : s.includes) {
      if (inc.compare(0, 8, "checker/") != 0) continue;
      EXPECT_TRUE(inc.compare(0, 12, "checker/hlo/") == 0 ||
                  inc.compare(0, 13, "checker/diag/") == 0 ||
                  inc.compare(0, 11, "checker/io/") == 0)
          << "checker/hlo/" << s.name << " includes " << inc
          << ", a layer above it";
    }
  }
}

TEST(HloSourceLayoutTest, NoSourceFileIsOverTheLimit) {
  for (const Source& s : HloSources()) {
    EXPECT_LE(s.lines, kMaxLines)
        << "checker/hlo/" << s.name << " has " << s.lines
        << " lines: split it along a seam it already has";
  }
}

TEST(HloSourceLayoutTest, EachFolderHasAReadme) {
  for (const char* folder :
       {"", "sharding", "text", "proto", "mlir", "dispatch"}) {
    const fs::path readme = HloRoot() / folder / "README.md";
    EXPECT_TRUE(fs::is_regular_file(readme)) << readme;
  }
}

}  // namespace
}  // namespace topolint::hlo
