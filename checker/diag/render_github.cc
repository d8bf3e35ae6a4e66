// The GitHub Actions renderer: one workflow command per finding, which the
// runner turns into an annotation on the pull request.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_replace.h"
#include "checker/diag/render.h"
#include "checker/diag/source_snippet.h"
#include "checker/io/repo_paths.h"

namespace topolint {
namespace {

// Escapes `s` for a workflow command, as @actions/core does: `escapeData`
// for the message (`%` -> %25, CR -> %0D, LF -> %0A), `escapeProperty` for
// a `key=value` property value (also `:` -> %3A and `,` -> %2C), after
// escaping what must not reach a CI log or a terminal raw
// (control characters such as ESC and BEL, C1 controls, bidirectional
// overrides, invalid UTF-8) as the text format does: `<U+001B>`, `<FF>`
// (SanitizeForTerminal). Line breaks stay line breaks of the message.
std::string Escape(std::string_view s, bool property) {
  const std::string sanitized = SanitizeLinesForTerminal(s, "\r\n");
  if (!property) {
    return absl::StrReplaceAll(sanitized,
                               {{"%", "%25"}, {"\r", "%0D"}, {"\n", "%0A"}});
  }
  return absl::StrReplaceAll(
      sanitized,
      {{"%", "%25"}, {"\r", "%0D"}, {"\n", "%0A"}, {":", "%3A"}, {",", "%2C"}});
}

std::string_view Command(Severity s) {
  static constexpr std::string_view kCommands[] = {"notice", "warning",
                                                   "error"};
  return BySeverity(kCommands, s);
}

void AppendCommand(const Finding& f, const SarifRoots* roots,
                   std::string* out) {
  *out += "::";
  *out += Command(f.severity);
  *out += " file=" + Escape(RootRelative(f.loc.file, roots), true);
  if (f.loc.line > 0) {
    *out += ",line=" + std::to_string(f.loc.line);
    if (f.loc.column > 0) *out += ",col=" + std::to_string(f.loc.column);
  }
  // Notes have no place of their own in an annotation: they become further
  // lines of its message.
  std::string message = f.message;
  if (f.loc.byte_offset >= 0) message += " (" + BinaryPlace(f.loc) + ")";
  for (const Note& n : f.notes) {
    message += "\n" + PlaceLabel(n.loc, roots, true) + ": note: " + n.message;
  }
  *out +=
      ",title=" + Escape(f.rule, true) + "::" + Escape(message, false) + "\n";
}

}  // namespace

std::unique_ptr<ReportWriter> MakeGithubReport(const SarifRoots* roots) {
  return MakePerFindingReport(AppendCommand, roots);
}

std::string RenderGithub(const std::vector<Finding>& findings) {
  return MakeGithubReport(nullptr)->RenderAll(findings);
}

}  // namespace topolint
