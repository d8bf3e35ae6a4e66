#include "checker/core/suppression.h"

#include <algorithm>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "rules/registry.h"

namespace topolint {
namespace {

bool Matches(const hlo::Suppression& s, const Finding& f) {
  if (f.rule == kUnusedSuppression.str()) return false;
  for (const std::string& glob : s.rules) {
    if (glob == "all" || GlobMatch(glob, f.rule)) return true;
  }
  return false;
}

}  // namespace

void ApplySuppressions(const Unit& unit, const RuleSelection& selection,
                       std::vector<Finding>* findings) {
  std::vector<Finding> unused;
  for (const hlo::Module& m : unit.hlo_modules) {
    for (const hlo::Suppression& s : m.suppressions) {
      bool used = false;
      auto silenced = [&](const Finding& f) {
        if (f.loc.file != m.file || f.loc.line != s.target_line) return false;
        if (!Matches(s, f)) return false;
        used = true;
        return true;
      };
      findings->erase(
          std::remove_if(findings->begin(), findings->end(), silenced),
          findings->end());
      if (used || !selection.Enabled(kUnusedSuppression)) continue;
      std::vector<std::string> unknown;
      for (const std::string& glob : s.rules) {
        bool any = glob == "all";
        for (const RuleInfo& r : AllRules()) any = any || GlobMatch(glob, r.id);
        if (!any) unknown.push_back(glob);
      }
      Finding f;
      f.rule = std::string(kUnusedSuppression.str());
      f.severity = selection.EffectiveSeverity(f.rule);
      f.loc = At(m.file, s.pos);
      f.anchor = "suppression:" + absl::StrJoin(s.rules, ",");
      if (!unknown.empty()) {
        f.message = fmt::format(
            "suppression names no known rule ({}); see `topolint rules`",
            absl::StrJoin(unknown, ", "));
      } else {
        f.message = fmt::format(
            "suppression of {} silences nothing on line {}; remove it",
            absl::StrJoin(s.rules, ", "), s.target_line);
      }
      unused.push_back(std::move(f));
    }
  }
  for (Finding& f : unused) findings->push_back(std::move(f));
}

}  // namespace topolint
