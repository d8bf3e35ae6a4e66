// The documentation holds together: every relative link of a Markdown file
// in the repository reaches a file (and, with #anchor, a heading of it), and
// the rule table of docs/reference/rules.md is the registry's.
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "checker/diag/finding.h"
#include "gtest/gtest.h"
#include "rules/registry.h"
#include "tests/repo/repo_files.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;

// The lines of `text` outside ``` fences.
std::vector<std::string> ProseLines(const std::string& text) {
  std::vector<std::string> out;
  bool fenced = false;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    const size_t indent = line.find_first_not_of(' ');
    if (indent != std::string::npos && line.compare(indent, 3, "```") == 0) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) out.push_back(std::move(line));
  }
  return out;
}

// GitHub's anchor of a heading: lower case, ASCII letters, digits, '-' and
// '_' kept, spaces made '-', everything else dropped.
std::string Slug(const std::string& heading) {
  std::string out;
  for (char c : heading) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_') {
      out += static_cast<char>(std::tolower(u));
    } else if (c == ' ') {
      out += '-';
    }
  }
  return out;
}

// The anchors of the headings of a Markdown text (repeats get -1, -2, ...).
std::set<std::string> Anchors(const std::string& text) {
  std::set<std::string> out;
  std::map<std::string, int> seen;
  for (const std::string& line : ProseLines(text)) {
    const size_t hashes = line.find_first_not_of('#');
    if (hashes == 0 || hashes == std::string::npos || line[hashes] != ' ') {
      continue;
    }
    const std::string slug = Slug(line.substr(hashes + 1));
    const int n = seen[slug]++;
    out.insert(n == 0 ? slug : slug + "-" + std::to_string(n));
  }
  return out;
}

struct Link {
  int line = 0;
  std::string target;  // as written, title dropped
};

// The inline links `[text](target)` of a Markdown text, outside code.
std::vector<Link> Links(const std::string& text) {
  std::vector<Link> out;
  int line_no = 0;
  for (const std::string& line : ProseLines(text)) {
    ++line_no;
    for (size_t at = line.find("]("); at != std::string::npos;
         at = line.find("](", at + 2)) {
      const size_t close = line.find(')', at + 2);
      if (close == std::string::npos) break;
      std::string target = line.substr(at + 2, close - at - 2);
      const size_t space = target.find(' ');
      if (space != std::string::npos) target.resize(space);
      if (!target.empty()) out.push_back({line_no, target});
    }
  }
  return out;
}

bool IsExternal(const std::string& target) {
  return target.find("://") != std::string::npos ||
         target.compare(0, 7, "mailto:") == 0;
}

TEST(DocsLinksTest, TheParserSeesLinksAndAnchors) {
  const std::string md =
      "# Top\n\n## 3. Rank identity and the LNC\n## `.topolint.json` "
      "reference\n## Top\n\nSee [a](b.md#top-1) and [c](https://x.org).\n"
      "```\n[not](a/link.md)\n```\n";
  EXPECT_EQ(Anchors(md),
            (std::set<std::string>{"top", "3-rank-identity-and-the-lnc",
                                   "topolintjson-reference", "top-1"}));
  const std::vector<Link> links = Links(md);
  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links[0].target, "b.md#top-1");
  EXPECT_TRUE(IsExternal(links[1].target));
}

TEST(DocsLinksTest, EveryRelativeLinkReachesAFileAndAHeading) {
  const std::vector<RepoFile> pages = RepoTextFiles("", {".md"});
  size_t checked = 0;
  for (const RepoFile& page : pages) {
    const fs::path dir = (RepoRoot() / page.rel).parent_path();
    for (const Link& link : Links(page.text)) {
      if (IsExternal(link.target)) continue;
      const size_t hash = link.target.find('#');
      const std::string file = link.target.substr(0, hash);
      const std::string anchor =
          hash == std::string::npos ? "" : link.target.substr(hash + 1);
      const fs::path to = file.empty() ? RepoRoot() / page.rel : dir / file;
      ++checked;
      if (!fs::exists(to)) {
        ADD_FAILURE() << page.rel << ":" << link.line << ": link to "
                      << link.target << ": no such file";
        continue;
      }
      if (anchor.empty() || to.extension() != ".md") continue;
      EXPECT_EQ(Anchors(ReadRepoFile(to)).count(anchor), 1u)
          << page.rel << ":" << link.line << ": link to " << link.target
          << ": no heading of " << to.lexically_relative(RepoRoot()).string()
          << " has that anchor";
    }
  }
  EXPECT_GT(checked, 100u);
}

TEST(DocsLinksTest, TheReferenceRuleTableIsTheRegistry) {
  // Rows "| [`id`](../rules/id.md) | severity | summary |", in table order.
  const std::string text = ReadRepoFile(RepoRoot() / "docs/reference/rules.md");
  std::vector<std::string> rows;
  for (const std::string& line : ProseLines(text)) {
    if (line.compare(0, 4, "| [`") == 0) rows.push_back(line);
  }
  const auto rules = AllRules();
  ASSERT_EQ(rows.size(), rules.size())
      << "docs/reference/rules.md lists " << rows.size() << " rules, the "
      << "registry (rules/rule_ids.h) " << rules.size();
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string id(rules[i].id);
    const std::string want =
        "| [`" + id + "`](../rules/" + id + ".md) | " +
        std::string(SeverityName(rules[i].default_severity)) + " | " +
        std::string(rules[i].summary) + " |";
    EXPECT_EQ(rows[i], want) << "row " << i + 1;
  }
}

}  // namespace
}  // namespace topolint::testing
