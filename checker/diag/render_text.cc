// The GCC/clang-style text renderer (SPEC §3).
#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "checker/diag/source_snippet.h"
#include "fmt/format.h"

namespace topolint {
namespace {

// ANSI SGR sequences, as clang colours its diagnostics.
struct Palette {
  std::string_view bold, reset, error, warning, note, caret;
};
constexpr Palette kColor{"\x1b[1m",    "\x1b[0m",    "\x1b[1;31m",
                         "\x1b[1;35m", "\x1b[1;36m", "\x1b[1;32m"};
constexpr Palette kPlain{};

std::string_view SeverityColor(const Palette& p, Severity s) {
  switch (s) {
    case Severity::kError:
      return p.error;
    case Severity::kWarning:
      return p.warning;
    case Severity::kNote:
      return p.note;
  }
  return p.error;
}

// `file`, `file:line` or `file:line:col` (SPEC §3: line 0 = whole file,
// column 0 = whole line).
std::string LocationLabel(const Location& loc) {
  std::string out = SanitizeForTerminal(loc.file);
  if (loc.line > 0) {
    out += ":" + std::to_string(loc.line);
    if (loc.column > 0) out += ":" + std::to_string(loc.column);
  }
  return out;
}

// `<loc>: <severity>: <message>` plus a newline.
void AppendHeadline(const Palette& p, const Location& loc, Severity severity,
                    std::string_view message, std::string* out) {
  // Notes are plain text in clang; errors and warnings have a bold message.
  const std::string_view msg_style =
      severity == Severity::kNote ? std::string_view() : p.bold;
  const std::string_view msg_reset =
      severity == Severity::kNote ? std::string_view() : p.reset;
  *out +=
      fmt::format("{}{}:{} {}{}:{} {}{}{}\n", p.bold, LocationLabel(loc),
                  p.reset, SeverityColor(p, severity), SeverityName(severity),
                  p.reset, msg_style, SanitizeForTerminal(message), msg_reset);
}

// The source line of `loc` (two-space indent) and, when the column is
// known and shown, the caret line. Nothing when the source is unavailable.
void AppendSource(const Palette& p, const Location& loc, SourceCache& sources,
                  std::string* out) {
  if (loc.byte_offset >= 0) {  // a binary input: no line to show
    *out += "  " + SanitizeForTerminal(BinaryPlace(loc)) + "\n";
    return;
  }
  if (loc.line <= 0) return;
  const std::optional<LineExcerpt> excerpt =
      sources.Excerpt(loc.file, loc.line, loc.column);
  if (!excerpt) return;
  const SourceSnippet snippet = MakeSnippet(*excerpt, loc.column);
  *out += fmt::format("  {}\n", snippet.text);
  if (snippet.has_caret) {
    *out += fmt::format("  {}{}^{}\n", snippet.caret_indent, p.caret, p.reset);
  }
}

}  // namespace

std::string RenderText(const std::vector<Finding>& findings,
                       SourceCache& sources, bool color) {
  const Palette& p = color ? kColor : kPlain;
  // One sequential read per file for every line any finding shows.
  std::vector<Location> wanted;
  for (const Finding& f : findings) {
    if (f.loc.line > 0) wanted.push_back(f.loc);
    for (const Note& n : f.notes) {
      if (n.loc.line > 0 && n.loc.column > 0) wanted.push_back(n.loc);
    }
  }
  sources.Prefetch(wanted);

  std::string out;
  for (const Finding& f : findings) {
    AppendHeadline(p, f.loc, f.severity,
                   fmt::format("{} [{}]", f.message, f.rule), &out);
    AppendSource(p, f.loc, sources, &out);
    for (const Note& n : f.notes) {
      AppendHeadline(p, n.loc, Severity::kNote, n.message, &out);
      if (n.loc.column > 0 || n.loc.byte_offset >= 0) {
        AppendSource(p, n.loc, sources, &out);
      }
    }
  }
  return out;
}

}  // namespace topolint
