#include "checker/diag/xml_escape.h"

#include <string>
#include <string_view>

#include "checker/diag/source_snippet.h"

namespace topolint {

std::string EscapeXml(std::string_view text) {
  const std::string clean = SanitizeLinesForTerminal(text);
  std::string out;
  out.reserve(clean.size());
  for (char c : clean) {
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
