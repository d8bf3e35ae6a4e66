// How a source line is shown under a text diagnostic: safe to print on a
// terminal, cut to a window around the column when long, with a caret.
#ifndef TOPOLINT_CHECKER_DIAG_SOURCE_SNIPPET_H_
#define TOPOLINT_CHECKER_DIAG_SOURCE_SNIPPET_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "checker/diag/source_cache.h"

namespace topolint {

// Lines (or excerpts) longer than this many bytes are shown as a window of
// about this many bytes around the column, with "..." on each cut side.
inline constexpr int64_t kSnippetWidth = 120;

struct SourceSnippet {
  std::string text;          // what to print after the two-space indent
  std::string caret_indent;  // spaces and tabs that put '^' under the column
  bool has_caret = false;    // false when the column is 0 or not shown
};

// Builds the display of `excerpt` with a caret under byte `column` (1-based;
// 0 = no caret). Control characters (except tab), invalid UTF-8 bytes, C1
// controls and bidirectional overrides are escaped as `<U+XXXX>` / `<XX>`
// (as clang does), and the caret indent counts their escaped width. A column
// inside a multi-byte character puts the caret under that character. A
// column beyond the end of the line (or outside the excerpt) gives no caret.
SourceSnippet MakeSnippet(const LineExcerpt& excerpt, int64_t column);

// `text` with the same escaping, for messages and file names printed on a
// terminal (a message echoing input must not inject escape sequences).
std::string SanitizeForTerminal(std::string_view text);
// The same, line by line: line breaks (the bytes of `breaks`) are kept
// (for stderr messages; GitHub's commands keep "\r" too).
std::string SanitizeLinesForTerminal(std::string_view text,
                                     std::string_view breaks = "\n");

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_SOURCE_SNIPPET_H_
