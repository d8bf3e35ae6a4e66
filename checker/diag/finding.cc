#include "checker/diag/finding.h"

#include <tuple>

namespace topolint {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kNote:
      return "note";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "error";
}

bool ParseSeverity(std::string_view name, Severity* out) {
  if (name == "note") {
    *out = Severity::kNote;
  } else if (name == "warning") {
    *out = Severity::kWarning;
  } else if (name == "error") {
    *out = Severity::kError;
  } else {
    return false;
  }
  return true;
}

bool FindingLess(const Finding& a, const Finding& b) {
  return std::tie(a.loc.file, a.loc.line, a.loc.column, a.rule, a.message) <
         std::tie(b.loc.file, b.loc.line, b.loc.column, b.rule, b.message);
}

}  // namespace topolint
