// The registry is the single source of truth for rule ids (issue 18): no
// file under rules/ spells a rule id as a string literal (rules/rule_ids.h
// holds the only spelling), none makes a RuleId of its own, and none includes
// a header of checker/core (the layer above the rules).
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "re2/re2.h"
#include "rules/registry.h"
#include "rules/rule_ids.h"

namespace topolint {
namespace {

namespace fs = std::filesystem;
const fs::path kRules = fs::path(TOPOLINT_SOURCE_DIR) / "rules";

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every rules/*.cc and rules/*.h except rule_ids.h.
std::vector<fs::path> RuleSources() {
  std::vector<fs::path> out;
  for (const fs::directory_entry& e : fs::directory_iterator(kRules)) {
    const std::string ext = e.path().extension().string();
    if ((ext == ".cc" || ext == ".h") && e.path().filename() != "rule_ids.h") {
      out.push_back(e.path());
    }
  }
  return out;
}

// The string literals of C++ source `text` (no raw strings in rules/).
std::vector<std::string> StringLiterals(const std::string& text) {
  static const RE2 kLiteral(R"re("((?:[^"\\\n]|\\.)*)")re");
  std::vector<std::string> out;
  re2::StringPiece rest(text);
  std::string literal;
  while (RE2::FindAndConsume(&rest, kLiteral, &literal)) {
    out.push_back(literal);
  }
  return out;
}

TEST(RuleSourcesTest, FindsTheRuleFiles) {
  EXPECT_GT(RuleSources().size(), 20u);
}

TEST(RuleSourcesTest, NoRuleIdAsStringLiteral) {
  std::set<std::string> ids;
  for (const RuleInfo& r : AllRules()) ids.emplace(r.id);
  for (const fs::path& p : RuleSources()) {
    for (const std::string& lit : StringLiterals(ReadFile(p))) {
      EXPECT_EQ(ids.count(lit), 0u)
          << p << " spells rule id \"" << lit
          << "\" as a string: use its constant from rules/rule_ids.h";
    }
  }
}

TEST(RuleSourcesTest, NoRuleIdMadeOutsideRuleIdsHeader) {
  for (const fs::path& p : RuleSources()) {
    EXPECT_EQ(ReadFile(p).find("rule_ids_internal"), std::string::npos)
        << p << " makes a RuleId: add the id to rules/rule_ids.h";
  }
}

TEST(RuleSourcesTest, NoCoreInclude) {
  static const RE2 kCoreInclude(R"re(#\s*include\s*"checker/core/)re");
  ASSERT_TRUE(kCoreInclude.ok()) << kCoreInclude.error();
  for (const fs::path& p : RuleSources()) {
    EXPECT_FALSE(RE2::PartialMatch(ReadFile(p), kCoreInclude))
        << p << " includes a header of checker/core";
  }
}

// The literal scan itself: it sees an id in a literal, and not a longer one.
TEST(RuleSourcesTest, LiteralScanFindsIds) {
  const std::vector<std::string> lits = StringLiterals(
      "emit.Report(\"hlo-syntax\", x, \"a \\\"q\\\" b\");\n"
      "f(\"hlo-syntax-x\");");
  ASSERT_EQ(lits.size(), 3u);
  EXPECT_EQ(lits[0], "hlo-syntax");
  EXPECT_EQ(lits[1], "a \\\"q\\\" b");
  EXPECT_EQ(lits[2], "hlo-syntax-x");
}

// Every row of the rule table in rules/rule_ids.h is a constant of
// kAllRuleIds and a rule of the registry.
TEST(RuleSourcesTest, EveryTableRowIsARule) {
  const std::string header = ReadFile(kRules / "rule_ids.h");
  static const RE2 kRow(R"re(\n  X\(k\w+, ")re");
  size_t n = 0;
  re2::StringPiece rest(header);
  while (RE2::FindAndConsume(&rest, kRow)) ++n;
  EXPECT_EQ(n, std::size(kAllRuleIds));
  EXPECT_EQ(std::size(kAllRuleIds), AllRules().size());
}

// The family field is true: each rule of a family is reported from a file of
// that family (rules/<family, with '_' for '-'>*.cc), and each core rule
// from checker/core.
TEST(RuleSourcesTest, EachRuleIsUsedByItsFamily) {
  std::map<std::string, std::string> constant_of;  // id -> kName
  const std::string header = ReadFile(kRules / "rule_ids.h");
  static const RE2 kRow(R"re(\n  X\((k\w+), "([a-z0-9-]+)")re");
  re2::StringPiece rest(header);
  std::string row_constant, row_id;
  while (RE2::FindAndConsume(&rest, kRow, &row_constant, &row_id)) {
    constant_of[row_id] = row_constant;
  }
  for (const RuleInfo& r : AllRules()) {
    const std::string id(r.id);
    ASSERT_EQ(constant_of.count(id), 1u) << id;
    const RE2 use("\\b" + RE2::QuoteMeta(constant_of[id]) + "\\b");
    ASSERT_TRUE(use.ok()) << use.error();
    std::vector<fs::path> files;
    if (r.family == "core") {
      for (const auto& e :
           fs::directory_iterator(kRules.parent_path() / "checker" / "core")) {
        files.push_back(e.path());
      }
    } else {
      std::string prefix(r.family);
      for (char& c : prefix) c = c == '-' ? '_' : c;
      for (const fs::path& p : RuleSources()) {
        if (p.filename().string().rfind(prefix, 0) == 0) files.push_back(p);
      }
    }
    bool used = false;
    for (const fs::path& p : files) {
      used |= RE2::PartialMatch(ReadFile(p), use);
    }
    EXPECT_TRUE(used) << id << " is in family " << r.family
                      << " but no file of that family reports "
                      << constant_of[id];
  }
}

}  // namespace
}  // namespace topolint

namespace topolint {
namespace {

// rules/families.h names each family by its name in the rule table, never
// its rule ids (a hand-kept list of ids drifts from rules/rule_ids.h).
TEST(RuleSourcesTest, FamiliesHeaderListsNoRuleIds) {
  const std::string text = ReadFile(kRules / "families.h");
  ASSERT_NE(text.find("CheckHlo("), std::string::npos);
  for (const RuleInfo& r : AllRules()) {
    EXPECT_EQ(text.find(std::string(r.id)), std::string::npos)
        << "rules/families.h spells " << r.id
        << ": name the family (the rule table's family column) instead";
  }
}

}  // namespace
}  // namespace topolint
