// The check families. Each lives in its own file under rules/ and reports
// only its own rules: the rows of the rule table (rules/rule_ids.h) whose
// family column names it, which `topolint rules` and docs/reference/rules.md
// list. Run in the order of kFamilies in rules/registry.cc, which pairs each
// family name with its function below (and TableIsConsistent checks that
// every family reports a rule). No rule id is spelt here.
#ifndef TOPOLINT_RULES_FAMILIES_H_
#define TOPOLINT_RULES_FAMILIES_H_

#include "checker/model/unit.h"
#include "rules/emitter.h"

namespace topolint {

// Family "syntax" (rules/syntax_rules.cc).
void CheckSyntax(const Unit& unit, const CheckOptions& options, Emitter& emit);
// Family "neff" (rules/neff_rules.cc, neff_topology_rules.cc,
// neff_rank_rules.cc).
void CheckNeff(const Unit& unit, const CheckOptions& options, Emitter& emit);
// Family "lnc" (rules/lnc_rules.cc).
void CheckLnc(const Unit& unit, const CheckOptions& options, Emitter& emit);
// Family "neff-archive" (rules/neff_archive_rules.cc).
void CheckNeffArchive(const Unit& unit, const CheckOptions& options,
                      Emitter& emit);
// Family "hlo" (rules/hlo_*.cc).
void CheckHlo(const Unit& unit, const CheckOptions& options, Emitter& emit);
// Family "xref" (rules/xref_rules.cc and the rules/xref_*.cc it calls).
void CheckXref(const Unit& unit, const CheckOptions& options, Emitter& emit);
// Family "config" (rules/config_rules.cc, rules/config_layout_rules.cc).
void CheckConfig(const Unit& unit, const CheckOptions& options, Emitter& emit);
// Family "config-xref" (rules/config_xref_rules.cc).
void CheckConfigXref(const Unit& unit, const CheckOptions& options,
                     Emitter& emit);
// Family "inputs" (rules/inputs_rules.cc): what discovery left out.
void CheckInputs(const Unit& unit, const CheckOptions& options, Emitter& emit);

}  // namespace topolint

#endif  // TOPOLINT_RULES_FAMILIES_H_
