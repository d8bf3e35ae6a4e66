// Which rules run and at what severity: clang-tidy style globs
// (`-*,neff-*,-neff-world-size`; later entries win), per-rule severity
// overrides, --werror, and per-file ignores.
#ifndef TOPOLINT_CHECKER_CORE_RULE_SELECTION_H_
#define TOPOLINT_CHECKER_CORE_RULE_SELECTION_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "checker/diag/finding.h"

namespace topolint {

// True when `text` matches the shell-style `glob` (`*`, `?`, `[...]`).
bool GlobMatch(std::string_view glob, std::string_view text);

// True when `glob` matches at least one registered rule id.
bool GlobMatchesAnyRule(std::string_view glob);

// "; did you mean 'hlo-syntax'?" for the registered rule id nearest to
// `typed` (by edit distance, at most about a third of its length), else "".
std::string SuggestRule(std::string_view typed);

class RuleSelection {
 public:
  // All rules enabled at their default severity.
  RuleSelection() = default;

  // Applies a comma-separated list of globs, each optionally prefixed with
  // `-` (disable). Entries apply in order, so later ones win. Fails on an
  // empty entry or a glob that matches no registered rule (a typo guard).
  absl::Status ApplyGlobs(std::string_view globs);

  // Overrides one rule's severity; "off" disables it.
  absl::Status SetSeverity(std::string_view rule, std::string_view level);

  void set_werror(bool w) { werror_ = w; }
  bool werror() const { return werror_; }

  bool Enabled(std::string_view rule) const;
  // The rule's severity after overrides (before --werror).
  Severity EffectiveSeverity(std::string_view rule) const;
  // Whether an override sets the rule's severity (to a level, not "off").
  bool SeveritySet(std::string_view rule) const;

  // `per_file_ignores`: findings of rules matching `rule_globs` in files
  // matching `file_glob` (against the path as shown and its base name) are
  // dropped.
  void AddFileIgnore(std::string file_glob, std::vector<std::string> rules);
  bool IgnoredInFile(std::string_view rule, std::string_view file) const;

 private:
  std::vector<std::pair<std::string, bool>> globs_;  // (glob, enable)
  // By rule: the level an override sets, nullopt for "off".
  std::map<std::string, std::optional<Severity>, std::less<>> severity_;
  std::vector<std::pair<std::string, std::vector<std::string>>> ignores_;
  bool werror_ = false;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_RULE_SELECTION_H_
