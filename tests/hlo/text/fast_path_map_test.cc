// The map of the fast paths in docs/architecture.md and the code name the
// same functions: every fast-path entry point of checker/hlo is in the
// table, every fast path and exact parser the table names exists, and so
// does every function the grammar in checker/hlo/text/GRAMMAR.md points at.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "checker/hlo/text/fast_path_switch.h"
#include "gtest/gtest.h"
#include "re2/re2.h"

namespace topolint::hlo {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string HloSources() {
  std::string all;
  for (const auto& entry : fs::recursive_directory_iterator(
           fs::path(TOPOLINT_SOURCE_DIR) / "checker/hlo")) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".h" || ext == ".cc") all += ReadFile(entry.path()) + "\n";
  }
  return all;
}

// The code, without comments (so that a name only mentioned in prose does
// not count as a function).
std::string StripComments(const std::string& code) {
  std::string out = code;
  RE2::GlobalReplace(&out, R"(//[^\n]*)", "");
  return out;
}

// A fast path's name: Try<Something>, (Scan|Read)Simple<Something>, or
// FastScan, used as a function.
std::set<std::string> FastPathsInCode(const std::string& code) {
  std::set<std::string> names;
  static const RE2 kRe(
      R"(\b(Try[A-Z]\w*|(?:Scan|Read)Simple\w*|FastScan)\s*\()");
  re2::StringPiece rest(code);
  std::string name;
  while (RE2::FindAndConsume(&rest, kRe, &name)) names.insert(name);
  return names;
}

// The section of docs/architecture.md that maps the fast paths.
std::string FastPathSection() {
  const std::string doc =
      ReadFile(fs::path(TOPOLINT_SOURCE_DIR) / "docs/architecture.md");
  const size_t start = doc.find("## The HLO front end and its fast paths");
  if (start == std::string::npos) return "";
  const size_t end = doc.find("\n## ", start + 1);
  return doc.substr(start, end == std::string::npos ? end : end - start);
}

struct Row {
  std::string fast_path;
  std::set<std::string> exact;  // functions named in the last column
};

std::vector<Row> TableRows(const std::string& section) {
  std::vector<Row> rows;
  std::istringstream in(section);
  static const RE2 kName(R"(`([A-Za-z_]\w*)`)");
  static const RE2 kFirstCell(R"(^\| `(\w+)` \|)");
  for (std::string line; std::getline(in, line);) {
    Row row;
    if (!RE2::PartialMatch(line, kFirstCell, &row.fast_path)) continue;
    re2::StringPiece last(line);
    last.remove_prefix(line.rfind('|', line.size() - 2));
    std::string name;
    while (RE2::FindAndConsume(&last, kName, &name)) row.exact.insert(name);
    rows.push_back(row);
  }
  return rows;
}

bool Defined(const std::string& code, const std::string& function) {
  const RE2 re("\\b" + RE2::QuoteMeta(function) + "\\s*\\(");
  return re.ok() && RE2::PartialMatch(code, re);
}

TEST(FastPathMapTest, EveryFastPathInTheCodeIsInTheMapAndViceVersa) {
  const std::string code = StripComments(HloSources());
  const std::set<std::string> in_code = FastPathsInCode(code);
  ASSERT_GE(in_code.size(), 8u) << "the fast-path pattern finds nothing";
  const std::vector<Row> rows = TableRows(FastPathSection());
  ASSERT_FALSE(rows.empty()) << "no fast-path table in docs/architecture.md";
  std::set<std::string> in_doc;
  for (const Row& row : rows) in_doc.insert(row.fast_path);
  for (const std::string& name : in_code) {
    EXPECT_TRUE(in_doc.count(name) > 0)
        << name << " is a fast path in checker/hlo but not in the table of "
        << "docs/architecture.md";
  }
  for (const std::string& name : in_doc) {
    EXPECT_TRUE(in_code.count(name) > 0)
        << name << " is in the fast-path table but not in checker/hlo";
  }
}

// Each fast path of the map has its test switch of the same name
// (checker/hlo/text/fast_path_switch.h), and each switch is a fast path of
// the map.
TEST(FastPathMapTest, EveryFastPathHasASwitchAndViceVersa) {
  std::set<std::string> in_doc;
  for (const Row& row : TableRows(FastPathSection())) {
    in_doc.insert(row.fast_path);
  }
  std::set<std::string> switches;
  for (std::string_view name : kFastPathNames) {
    switches.insert(std::string(name));
  }
  EXPECT_EQ(switches, in_doc);
}

TEST(FastPathMapTest, EveryExactParserTheMapNamesExists) {
  const std::string code = StripComments(HloSources());
  for (const Row& row : TableRows(FastPathSection())) {
    EXPECT_FALSE(row.exact.empty()) << row.fast_path << " names no exact path";
    for (const std::string& exact : row.exact) {
      EXPECT_TRUE(Defined(code, exact))
          << row.fast_path << ": exact parser " << exact << " not found";
    }
  }
}

TEST(FastPathMapTest, EveryFunctionTheGrammarPointsAtExists) {
  const std::string grammar =
      ReadFile(fs::path(TOPOLINT_SOURCE_DIR) / "checker/hlo/text/GRAMMAR.md");
  const std::string code = StripComments(HloSources());
  // CamelCase words with at least two humps, optionally Class::Method.
  const RE2 re(R"(\b(?:[A-Z]\w*::)?([A-Z][a-z0-9]+[A-Z]\w*)\b)");
  ASSERT_TRUE(re.ok()) << re.error();
  std::set<std::string> functions;
  re2::StringPiece rest(grammar);
  std::string function;
  while (RE2::FindAndConsume(&rest, re, &function)) functions.insert(function);
  ASSERT_GE(functions.size(), 20u);
  for (const std::string& f : functions) {
    if (f == "HloModule" || f == "FileNames" || f == "FunctionNames" ||
        f == "FileLocations" || f == "StackFrames") {
      continue;  // keywords of the grammar itself
    }
    EXPECT_TRUE(Defined(code, f))
        << "GRAMMAR.md names " << f << ", which checker/hlo does not define";
  }
}

}  // namespace
}  // namespace topolint::hlo
