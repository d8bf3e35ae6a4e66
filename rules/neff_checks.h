// Internal to the neff-* rule family (rules/neff_*.cc): the checks of one
// def.json's CCInfo. Each reports only its own rule. Not a public API.
#ifndef TOPOLINT_RULES_NEFF_CHECKS_H_
#define TOPOLINT_RULES_NEFF_CHECKS_H_

#include <cstdint>
#include <string>

#include "checker/model/world_size.h"
#include "checker/neff/def_json.h"
#include "rules/emitter.h"

namespace topolint::neff_rules {

// neff-empty-topology, neff-inconsistent-worker-count,
// neff-multiple-topologies (neff_topology_rules.cc).
void CheckTopologies(const neff::DefJson& d, const model::WorldSize& ws,
                     Emitter& emit);
// neff-ragged-groups (neff_topology_rules.cc).
void CheckRaggedGroups(const neff::DefJson& d, Emitter& emit);
// neff-duplicate-rank (neff_rank_rules.cc).
void CheckDuplicateRanks(const neff::DefJson& d, Emitter& emit);
// neff-world-size (neff_rank_rules.cc).
void CheckExplicitWorldSize(const neff::DefJson& d, Emitter& emit);

}  // namespace topolint::neff_rules

#endif  // TOPOLINT_RULES_NEFF_CHECKS_H_
