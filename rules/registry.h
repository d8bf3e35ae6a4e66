// The rule registry: every rule's metadata, from the one rule table of
// rules/rule_ids.h (id, severity, summary, family), and the explicit list of
// check families, in run order, that the table's family field names.
#ifndef TOPOLINT_RULES_REGISTRY_H_
#define TOPOLINT_RULES_REGISTRY_H_

#include <memory>
#include <string_view>

#include "absl/types/span.h"
#include "checker/diag/finding.h"
#include "checker/model/unit.h"
#include "rules/emitter.h"
#include "rules/rule_ids.h"

namespace topolint {

struct RuleInfo {
  std::string_view id;  // one of the constants of rules/rule_ids.h
  Severity default_severity;
  std::string_view summary;  // one line, shown by `topolint rules`
  std::string_view family;   // a CheckFamily name, or "core"
  // docs path is always "docs/rules/<id>.md"
};

// Every rule, in table order (docs/reference/rules.md).
absl::Span<const RuleInfo> AllRules();
// nullptr when `id` is not a rule.
const RuleInfo* FindRule(std::string_view id);

// A check family reads a unit and reports findings of its own rules through
// the emitter. Families never parse, print or exit.
using CheckFn = void (*)(const Unit& unit, const CheckOptions& options,
                         Emitter& emit);
class FamilyChecks;  // rules/collective_checks.h
// For the families that read HLO collectives: their per-unit state and
// module sessions, which CollectiveChecks feeds while a module is parsed.
using MakeChecksFn = std::unique_ptr<FamilyChecks> (*)(
    const Unit& unit, const CheckOptions& options, Emitter& emit);
struct CheckFamily {
  std::string_view name;
  CheckFn run;
  MakeChecksFn collective_checks;  // null: the family reads no collectives
};
// The one list of families, in run order (rules/registry.cc). A family is
// added here once; its rules name it in their table row.
absl::Span<const CheckFamily> AllCheckFamilies();

// Whether `emit` reports any rule whose table row names `family` (a family
// with nothing enabled skips its work; a rule added to the table counts
// without further edits).
bool FamilyEnabled(std::string_view family, const Emitter& emit);

}  // namespace topolint

#endif  // TOPOLINT_RULES_REGISTRY_H_
