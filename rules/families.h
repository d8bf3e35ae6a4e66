// The check families. Each lives in its own file under rules/ and reports
// only its own rules. Listed, in run order, in rules/registry.cc; each rule
// names its family in the rule table of rules/rule_ids.h.
#ifndef TOPOLINT_RULES_FAMILIES_H_
#define TOPOLINT_RULES_FAMILIES_H_

#include "checker/model/unit.h"
#include "rules/emitter.h"

namespace topolint {

// hlo-syntax, json-syntax (rules/syntax_rules.cc)
void CheckSyntax(const Unit& unit, const CheckOptions& options, Emitter& emit);
// neff-schema, neff-empty-topology, neff-inconsistent-worker-count,
// neff-multiple-topologies, neff-ragged-groups, neff-duplicate-rank,
// neff-world-size (rules/neff_rules.cc)
void CheckNeff(const Unit& unit, const CheckOptions& options, Emitter& emit);
// lnc-rank-range (rules/lnc_rules.cc)
void CheckLnc(const Unit& unit, const CheckOptions& options, Emitter& emit);
// neff-lnc-mismatch, neff-graphs-disagree (rules/neff_archive_rules.cc)
void CheckNeffArchive(const Unit& unit, const CheckOptions& options,
                      Emitter& emit);
// hlo-group-mode ... hlo-multiple-geometries (rules/hlo_*.cc)
void CheckHlo(const Unit& unit, const CheckOptions& options, Emitter& emit);
// xref-topology-mismatch, xref-world-size, xref-permute-pairs
// (rules/xref_rules.cc)
void CheckXref(const Unit& unit, const CheckOptions& options, Emitter& emit);
// config-schema, config-unknown-key, config-di-recommended,
// config-dp-divides, config-mlp-dp-with-ep (rules/config_rules.cc)
void CheckConfig(const Unit& unit, const CheckOptions& options, Emitter& emit);
// config-world-size, xref-config-groups (rules/config_xref_rules.cc)
void CheckConfigXref(const Unit& unit, const CheckOptions& options,
                     Emitter& emit);

}  // namespace topolint

#endif  // TOPOLINT_RULES_FAMILIES_H_
