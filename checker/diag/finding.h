// A finding: what a rule reports, with where and why.
#ifndef TOPOLINT_CHECKER_DIAG_FINDING_H_
#define TOPOLINT_CHECKER_DIAG_FINDING_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/diag/fix.h"
#include "checker/diag/location.h"

namespace topolint {

enum class Severity { kNote = 0, kWarning = 1, kError = 2 };

// "note", "warning", "error".
std::string_view SeverityName(Severity s);
// The entry of `table` (one per severity: note, warning, error) for `s`;
// the error entry for a value outside the enum.
template <typename T>
const T& BySeverity(const T (&table)[3], Severity s) {
  const int i = static_cast<int>(s);
  return table[i >= 0 && i < 3 ? i : 2];
}
// Parses "note" / "warning" / "error" (also "off" is NOT a severity: callers
// handle it). Returns false when `name` is none of them.
bool ParseSeverity(std::string_view name, Severity* out);

// A related location that explains a finding ("topology[0] is declared here").
struct Note {
  // A constructor rather than aggregate initialisation: GCC 12 at -O3 warns
  // (-Wmaybe-uninitialized, a false positive) when a braced temporary
  // aggregate holding strings is destroyed after push_back.
  Note() = default;
  Note(Location loc_in, std::string message_in)
      : loc(std::move(loc_in)), message(std::move(message_in)) {}

  Location loc;
  std::string message;
};

struct Finding {
  std::string rule;  // stable rule id, e.g. "xref-topology-mismatch"
  Severity severity = Severity::kError;
  std::string message;      // one line, no trailing period needed
  Location loc;             // primary location
  std::vector<Note> notes;  // related locations, in display order
  // A location-independent identity for baselines and SARIF fingerprints:
  // what the finding is about (an HLO op name like "%ar", a JSON path like
  // "CCInfo.replica_groups[1]"), never a line number. Empty means "use the
  // message".
  std::string anchor;
  // The edit the rule is certain of (`check --fix`), or null. Shared so
  // that copying a finding stays cheap.
  std::shared_ptr<const Fix> fix;
  // On the note that closes a rule's capped findings (Emitter::AddCapNotes):
  // how many findings of that rule the cap left out, and their severity, so
  // that the summary counts what was found, not only what is shown.
  int64_t hidden = 0;
  Severity hidden_severity = Severity::kError;
};

// Orders findings by file, line, column, rule, message: the deterministic
// order every renderer prints in.
bool FindingLess(const Finding& a, const Finding& b);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_FINDING_H_
