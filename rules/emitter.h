// The emitter: the one way rules report findings.
#ifndef TOPOLINT_RULES_EMITTER_H_
#define TOPOLINT_RULES_EMITTER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/diag/finding.h"
#include "rules/rule_ids.h"

namespace topolint {

// Findings one rule may report in one unit by default (`--max-findings N`
// or .topolint.json's "max_findings" change it; 0 lifts it); the rest are
// counted and summarised by one note (AddCapNotes), so that memory does not
// grow with a hostile input's finding count. Only findings that survive the
// filter (per-file ignores, suppression comments) count.
inline constexpr int64_t kMaxFindingsPerRule = 1000;

// Collects findings. The severity is filled in from the registry (or the
// user's override); a rule that is not enabled is dropped here, so rules do
// not need to ask. Not thread-safe: one emitter per unit.
class Emitter {
 public:
  // `enabled(rule)` says whether a rule is selected; `severity(rule)` gives
  // its effective severity.
  Emitter(std::function<bool(std::string_view)> enabled,
          std::function<Severity(std::string_view)> severity);

  // Reports `message` at `loc` for `rule`. `anchor` is the
  // location-independent identity (op name, JSON path); `fix`, the fix the
  // rule is certain of (checker/diag/fix.h), if any.
  void Report(RuleId rule, Location loc, std::string message,
              std::vector<Note> notes = {}, std::string anchor = {},
              std::optional<Fix> fix = std::nullopt);

  // Report at `level`, unless the user set the rule's severity (then at
  // theirs): for a rule whose findings differ in weight (unchecked-input:
  // a cache entry still compiling is a note, a dropped check a warning).
  void ReportAtLevel(RuleId rule, Severity level, Location loc,
                     std::string message, std::string anchor = {});

  // `set(rule)` says whether the user set the rule's severity (--severity,
  // .topolint.json). Without it, a severity other than the rule's default
  // counts as set.
  void set_severity_set(std::function<bool(std::string_view)> set) {
    severity_set_ = std::move(set);
  }

  // A finding built elsewhere (the runner's `unused-suppression` notes,
  // whose fix is shared): its rule, enabled, severity, filter and the cap
  // apply as to Report's. Its `severity` is replaced by the rule's
  // effective one.
  void ReportBuilt(Finding finding);

  bool Enabled(RuleId rule) const { return enabled_(rule.str()); }

  // `silenced(finding)` true drops a finding before it counts towards the
  // cap (a per-file ignore, a suppression comment). The runner sets it;
  // whatever it cannot decide yet it leaves for its final pass.
  void set_filter(std::function<bool(const Finding&)> silenced) {
    silenced_ = std::move(silenced);
  }

  // Findings kept per rule (default kMaxFindingsPerRule); 0: all.
  void set_max_findings(int64_t max) { max_findings_ = max; }

  // Appends, for each rule that reported more than the cap
  // findings, one note at the first dropped finding's location saying how
  // many more there were. Called when the unit's checks are done, and again
  // after findings reported later (each dropped finding is counted in one
  // note only).
  void AddCapNotes();

  std::vector<Finding>& findings() { return findings_; }
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  void Add(RuleId rule, Location loc, std::string message,
           std::vector<Note> notes, std::string anchor,
           std::shared_ptr<const Fix> fix, const Severity* level = nullptr);
  void Keep(Finding f);

  std::function<bool(std::string_view)> enabled_;
  std::function<Severity(std::string_view)> severity_;
  std::function<bool(std::string_view)> severity_set_;
  std::function<bool(const Finding&)> silenced_;
  int64_t max_findings_ = kMaxFindingsPerRule;
  std::vector<Finding> findings_;
  struct RuleCount {
    int64_t reported = 0;
    int64_t dropped = 0;
    Location first_dropped;
    Severity severity = Severity::kError;  // of the dropped findings
  };
  std::map<std::string, RuleCount, std::less<>> counts_;
};

}  // namespace topolint

#endif  // TOPOLINT_RULES_EMITTER_H_
