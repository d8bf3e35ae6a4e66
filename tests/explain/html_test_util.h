// Test helpers for the HTML / SVG pages: elements by id, counting, and an
// XML well-formedness check by python3's xml.dom.minidom.
#ifndef TOPOLINT_TESTS_EXPLAIN_HTML_TEST_UTIL_H_
#define TOPOLINT_TESTS_EXPLAIN_HTML_TEST_UTIL_H_

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/common/run_cli.h"

namespace topolint::html_test {

inline int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size())) {
    ++n;
  }
  return n;
}

// The element starting at `open` (its '<'), through its matching end tag
// (same-name elements nested inside are counted); "" when unbalanced.
inline std::string ElementAt(const std::string& html, size_t open) {
  size_t name_end = html.find_first_of(" >/", open + 1);
  if (name_end == std::string::npos) return "";
  const std::string name = html.substr(open + 1, name_end - open - 1);
  const size_t tag_end = html.find('>', open);
  if (tag_end == std::string::npos) return "";
  if (html[tag_end - 1] == '/') return html.substr(open, tag_end + 1 - open);
  int depth = 0;
  size_t at = open;
  while (at != std::string::npos) {
    const size_t next_open = html.find("<" + name, at + 1);
    const size_t next_close = html.find("</" + name + ">", at + 1);
    if (next_close == std::string::npos) return "";
    if (next_open != std::string::npos && next_open < next_close) {
      const char after = html[next_open + 1 + name.size()];
      if (after == ' ' || after == '>') ++depth;
      at = next_open;
      continue;
    }
    if (depth == 0) {
      return html.substr(open, next_close + name.size() + 3 - open);
    }
    --depth;
    at = next_close;
  }
  return "";
}

// The element whose id is `id`, or "".
inline std::string ElementById(const std::string& html, const std::string& id) {
  const size_t attr = html.find("id=\"" + id + "\"");
  if (attr == std::string::npos) return "";
  const size_t open = html.rfind('<', attr);
  return open == std::string::npos ? "" : ElementAt(html, open);
}

// Every outermost element starting with `start` ("<svg").
inline std::vector<std::string> Elements(const std::string& html,
                                         const std::string& start) {
  std::vector<std::string> out;
  for (size_t at = html.find(start); at != std::string::npos;) {
    std::string e = ElementAt(html, at);
    if (e.empty()) break;
    out.push_back(e);
    at = html.find(start, at + e.size());
  }
  return out;
}

// "" when `xml` is well-formed XML (python3 xml.dom.minidom parses it),
// else python's message.
inline std::string XmlProblem(const std::string& xml) {
  testing::TempDir dir;
  const std::string file = dir.Write("doc.xml", xml);
  const std::string err = dir.path() + "/err";
  const std::string cmd =
      "python3 -c 'import sys, xml.dom.minidom; "
      "xml.dom.minidom.parse(sys.argv[1])' " +
      testing::ShellQuote(file) + " 2>" + testing::ShellQuote(err);
  if (std::system(cmd.c_str()) == 0) return "";
  const std::string why = testing::ReadAll(err);
  return why.empty() ? "python3 failed" : why;
}

}  // namespace topolint::html_test

#endif  // TOPOLINT_TESTS_EXPLAIN_HTML_TEST_UTIL_H_
