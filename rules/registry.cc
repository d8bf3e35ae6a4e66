#include "rules/registry.h"

#include <iterator>

#include "rules/collective_checks.h"
#include "rules/families.h"

namespace topolint {
namespace {

constexpr Severity E = Severity::kError;
constexpr Severity W = Severity::kWarning;
constexpr Severity N = Severity::kNote;

// SPEC §4, in order. Ids, severities and meanings are a contract.
constexpr RuleInfo kRules[] = {
    {kHloSyntax, E, "HLO text does not parse"},
    {kJsonSyntax, E, "JSON does not parse"},
    {kNeffSchema, E, "CCInfo missing or of the wrong shape"},
    {kNeffEmptyTopology, E, "a NEFF topology holds no groups (MPMD)"},
    {kNeffInconsistentWorkerCount, E,
     "NEFF topologies disagree on the worker count (MPMD)"},
    {kNeffMultipleTopologies, E,
     "more than one NEFF topology although worker counts agree (MPMD)"},
    {kNeffRaggedGroups, E, "groups of one NEFF topology differ in size"},
    {kNeffDuplicateRank, E,
     "a rank appears twice in one topology, or a pair endpoint is duplicated"},
    {kNeffWorldSize, E,
     "#rank_world_size is smaller than the group size or the pairs' span"},
    {kHloGroupMode, E,
     "use_global_device_ids without channel_id, or on an opcode that takes "
     "none"},
    {kHloEmptyGroup, E,
     "a replica group is empty, or the list is empty in flattened-id mode"},
    {kHloDeviceIdRange, E,
     "a device id is negative or not below the ids listed / participants"},
    {kHloDuplicateDeviceId, E,
     "a device id appears more than once in one op's groups"},
    {kHloGroupCoverage, E,
     "the groups hold a different number of ids than the mode's participants"},
    {kHloNonuniformGroups, E,
     "groups of one all-gather, reduce-scatter or all-to-all differ in size"},
    {kHloGroupSizeShape, E,
     "the gathered / scattered / split dimension does not match the group "
     "size"},
    {kHloPermutePairs, E,
     "collective-permute: a source or target repeats, or an id is out of "
     "range"},
    {kHloNotFlattenedId, W,
     "a collective of an SPMD module is not in flattened-id mode"},
    {kHloMultipleGeometries, W,
     "the module's collectives use more than one group list (predicts MPMD)"},
    {kXrefTopologyMismatch, E,
     "an op's expanded groups differ from the NEFF's replica_groups[0]"},
    {kXrefWorldSize, E,
     "NEFF world size differs from the HLO group size, or a NEFF rank is "
     "outside the HLO device space"},
    {kXrefPermutePairs, E,
     "HLO source_target_pairs differ from the NEFF's src_target_pairs"},
    {kConfigSchema, E, "a config field has the wrong type or an invalid value"},
    {kConfigUnknownKey, W, "a neuron_config key that no config form knows"},
    {kConfigDiRecommended, W,
     "a decode-only component DP size above 1 without disaggregated "
     "inference"},
    {kConfigDpDivides, E,
     "a component DP size does not divide the data-parallel size"},
    {kConfigMlpDpWithEp, E,
     "mlp_dp_size > 1 with expert parallelism on the static dispatch"},
    {kConfigWorldSize, E,
     "the config's world size differs from the HLO device count"},
    {kXrefConfigGroups, E,
     "a collective's groups are none of the config's group families"},
    {kLncRankRange, E, "a rank is not below num_cores / lnc"},
    {kNeffLncMismatch, E,
     "NEFF lnc_size, --lnc, the config's LNC and the graph count disagree"},
    {kNeffGraphsDisagree, E, "the graphs of one .neff carry different CCInfo"},
    // Beyond SPEC §4: reports suppression comments that silence nothing.
    {kUnusedSuppression, N,
     "a topolint suppression comment silences no finding"},
};

// The table lists every constant of rules/rule_ids.h, once, in its order.
constexpr bool ListsEveryRuleId() {
  if (std::size(kRules) != std::size(kAllRuleIds)) return false;
  for (size_t i = 0; i < std::size(kRules); ++i) {
    if (kRules[i].id != kAllRuleIds[i].str()) return false;
    for (size_t j = 0; j < i; ++j) {
      if (kRules[j].id == kRules[i].id) return false;
    }
  }
  return true;
}
static_assert(ListsEveryRuleId(),
              "kRules must list each RuleId of rules/rule_ids.h once, in its "
              "order");

constexpr CheckFamily kFamilies[] = {
    {"syntax", &CheckSyntax, nullptr},
    {"neff", &CheckNeff, nullptr},
    {"neff-archive", &CheckNeffArchive, nullptr},
    {"lnc", &CheckLnc, &MakeLncChecks},
    {"hlo", &CheckHlo, &MakeHloChecks},
    {"xref", &CheckXref, &MakeXrefChecks},
    {"config", &CheckConfig, nullptr},
    {"config-xref", &CheckConfigXref, &MakeConfigXrefChecks},
};

}  // namespace

absl::Span<const RuleInfo> AllRules() { return kRules; }

const RuleInfo* FindRule(std::string_view id) {
  for (const RuleInfo& r : kRules) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

absl::Span<const CheckFamily> AllCheckFamilies() { return kFamilies; }

}  // namespace topolint
