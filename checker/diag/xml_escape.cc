#include "checker/diag/xml_escape.h"

#include <string>
#include <string_view>

#include "absl/strings/str_replace.h"
#include "checker/diag/source_snippet.h"

namespace topolint {

std::string EscapeXml(std::string_view text) {
  // Valid UTF-8 from here on, without C0 / C1 controls other than line
  // feed and tab: of what XML 1.0's Char production leaves out, only the
  // noncharacters U+FFFE and U+FFFF (EF BF BE / EF BF BF; EF is always a
  // lead byte in valid UTF-8) remain to escape.
  return absl::StrReplaceAll(SanitizeLinesForTerminal(text),
                             {{"&", "&amp;"},
                              {"<", "&lt;"},
                              {">", "&gt;"},
                              {"\"", "&quot;"},
                              {"'", "&#39;"},
                              {"\t", "&#9;"},
                              {"\xEF\xBF\xBE", "&lt;U+FFFE&gt;"},
                              {"\xEF\xBF\xBF", "&lt;U+FFFF&gt;"}});
}

}  // namespace topolint
