#include "checker/diag/xml_escape.h"

#include <string>
#include <string_view>

#include "checker/diag/source_snippet.h"

namespace topolint {

std::string EscapeXml(std::string_view text) {
  // Valid UTF-8 from here on, without C0 / C1 controls other than line
  // feed and tab: of what XML 1.0's Char production leaves out, only the
  // noncharacters U+FFFE and U+FFFF (EF BF BE / EF BF BF; EF is always a
  // lead byte in valid UTF-8) remain to escape.
  const std::string clean = SanitizeLinesForTerminal(text);
  std::string out;
  out.reserve(clean.size());
  for (size_t i = 0; i < clean.size(); ++i) {
    const char c = clean[i];
    if (c == '\xEF' && i + 2 < clean.size() && clean[i + 1] == '\xBF' &&
        (clean[i + 2] == '\xBE' || clean[i + 2] == '\xBF')) {
      out += clean[i + 2] == '\xBE' ? "&lt;U+FFFE&gt;" : "&lt;U+FFFF&gt;";
      i += 2;
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\t':
        out += "&#9;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

}  // namespace topolint
