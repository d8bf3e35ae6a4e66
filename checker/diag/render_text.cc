// The GCC/clang-style text renderer (docs/reference/output-formats.md).
#include <memory>
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
  const std::string_view colors[] = {p.note, p.warning, p.error};
  return BySeverity(colors, s);
}

// `[rule]`, as an OSC 8 hyperlink to `url` when it is not empty (terminals
// that do not know OSC 8 show the text alone).
std::string RuleTag(std::string_view rule, const std::string& url) {
  const std::string tag = fmt::format("[{}]", SanitizeForTerminal(rule));
  if (url.empty()) return tag;
  return fmt::format("\x1b]8;;{}\x1b\\{}\x1b]8;;\x1b\\",
                     SanitizeForTerminal(url), tag);
}

// `<loc>: <severity>: <message>[ <rule tag>]` plus a newline.
void AppendHeadline(const Palette& p, const Location& loc, Severity severity,
                    std::string_view message, const SarifRoots* roots,
                    std::string_view rule_tag, std::string* out) {
  // Notes are plain text in clang; errors and warnings have a bold message.
  const std::string_view msg_style =
      severity == Severity::kNote ? std::string_view() : p.bold;
  const std::string_view msg_reset =
      severity == Severity::kNote ? std::string_view() : p.reset;
  *out +=
      fmt::format("{}{}:{} {}{}:{} {}{}{}{}{}\n", p.bold,
                  SanitizeForTerminal(PlaceLabel(loc, roots, false)), p.reset,
                  SeverityColor(p, severity), SeverityName(severity), p.reset,
                  msg_style, SanitizeForTerminal(message),
                  rule_tag.empty() ? "" : " ", rule_tag, msg_reset);
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

class TextReport : public ReportWriter {
 public:
  TextReport(SourceCache* sources, const TextStyle& style,
             const SarifRoots* roots)
      : sources_(sources),
        palette_(style.color ? kColor : kPlain),
        style_(style),
        roots_(roots) {}

  void Add(const std::vector<Finding>& findings, std::string* out) override {
    // One sequential read per file for every line the batch shows.
    std::vector<Location> wanted;
    for (const Finding& f : findings) {
      if (f.loc.line > 0) wanted.push_back(f.loc);
      for (const Note& n : f.notes) {
        if (n.loc.line > 0 && n.loc.column > 0) wanted.push_back(n.loc);
      }
    }
    sources_->Prefetch(wanted);
    const Palette& p = palette_;
    for (const Finding& f : findings) {
      const std::string tag = RuleTag(
          f.rule, style_.links ? RuleDocsUrl(style_.docs_url, f.rule) : "");
      AppendHeadline(p, f.loc, f.severity, f.message, roots_, tag, out);
      AppendSource(p, f.loc, *sources_, out);
      for (const Note& n : f.notes) {
        AppendHeadline(p, n.loc, Severity::kNote, n.message, roots_, "", out);
        if (n.loc.column > 0 || n.loc.byte_offset >= 0) {
          AppendSource(p, n.loc, *sources_, out);
        }
      }
    }
    // The lines were for this batch; later batches read their own.
    sources_->ForgetLines();
  }

 private:
  SourceCache* sources_;
  const Palette& palette_;
  TextStyle style_;
  const SarifRoots* roots_;
};

}  // namespace

std::unique_ptr<ReportWriter> MakeTextReport(SourceCache* sources,
                                             const TextStyle& style,
                                             const SarifRoots* roots) {
  return std::make_unique<TextReport>(sources, style, roots);
}

std::string RenderText(const std::vector<Finding>& findings,
                       SourceCache& sources, bool color) {
  TextStyle style;
  style.color = color;
  return TextReport(&sources, style, nullptr).RenderAll(findings);
}

}  // namespace topolint
