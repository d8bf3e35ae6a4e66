// Escaping text for XML 1.0 (the JUnit report) and for HTML / SVG (the
// pictures of `explain`): one escaper for every renderer that writes markup.
#ifndef TOPOLINT_CHECKER_DIAG_XML_ESCAPE_H_
#define TOPOLINT_CHECKER_DIAG_XML_ESCAPE_H_

#include <string>
#include <string_view>

namespace topolint {

// `text` safe in XML / HTML element text and in double- or single-quoted
// attributes: the result holds only characters of XML 1.0's Char
// production, whatever the bytes of `text`. Control characters other than
// line breaks and tabs, C1 controls, bidirectional overrides, invalid UTF-8
// (surrogates and overlong forms included) and the noncharacters U+FFFE and
// U+FFFF (which XML 1.0 cannot carry, or which would mislead a reader) are
// escaped as the terminal renderers escape them (`<U+001B>`, `<FF>`,
// `<U+FFFE>`; SanitizeLinesForTerminal), then & < > " ' become entities and
// a tab `&#9;`. Line breaks are kept.
std::string EscapeXml(std::string_view text);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_XML_ESCAPE_H_
