#include "checker/diag/finding.h"

#include "checker/diag/render.h"

#include <tuple>

namespace topolint {

std::string_view SeverityName(Severity s) {
  static constexpr std::string_view kNames[] = {"note", "warning", "error"};
  return BySeverity(kNames, s);
}

bool ParseSeverity(std::string_view name, Severity* out) {
  for (Severity s : {Severity::kNote, Severity::kWarning, Severity::kError}) {
    if (name == SeverityName(s)) {
      *out = s;
      return true;
    }
  }
  return false;
}

bool FindingLess(const Finding& a, const Finding& b) {
  return std::tie(a.loc.file, a.loc.line, a.loc.column, a.loc.byte_offset,
                  a.rule, a.message) < std::tie(b.loc.file, b.loc.line,
                                                b.loc.column, b.loc.byte_offset,
                                                b.rule, b.message);
}

std::string BinaryPlace(const Location& loc) {
  const std::string byte = "byte " + std::to_string(loc.byte_offset);
  if (loc.logical.empty()) return "at " + byte;
  return "in " + loc.logical + " (" + byte + ")";
}

}  // namespace topolint
