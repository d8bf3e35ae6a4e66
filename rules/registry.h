// The rule registry: one explicit table of every rule's metadata, and the
// explicit list of check families that emit them.
#ifndef TOPOLINT_RULES_REGISTRY_H_
#define TOPOLINT_RULES_REGISTRY_H_

#include <string_view>

#include "absl/types/span.h"
#include "checker/core/unit.h"
#include "checker/diag/finding.h"
#include "rules/emitter.h"

namespace topolint {

struct RuleInfo {
  std::string_view id;
  Severity default_severity;
  std::string_view summary;  // one line, shown by `topolint rules`
  // docs path is always "docs/rules/<id>.md"
};

// Every rule, in the order of SPEC §4.
absl::Span<const RuleInfo> AllRules();
// nullptr when `id` is not a rule.
const RuleInfo* FindRule(std::string_view id);

// A check family reads a unit and reports findings of its own rules through
// the emitter. Families never parse, print or exit.
using CheckFn = void (*)(const Unit& unit, const CheckOptions& options,
                         Emitter& emit);
struct CheckFamily {
  std::string_view name;
  CheckFn run;
};
// Explicit list, in run order (rules/registry.cc).
absl::Span<const CheckFamily> AllCheckFamilies();

}  // namespace topolint

#endif  // TOPOLINT_RULES_REGISTRY_H_
