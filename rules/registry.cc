#include "rules/registry.h"

#include "rules/families.h"

namespace topolint {
namespace {

constexpr Severity E = Severity::kError;
constexpr Severity W = Severity::kWarning;
constexpr Severity N = Severity::kNote;

// SPEC §4, in order. Ids, severities and meanings are a contract.
constexpr RuleInfo kRules[] = {
    {"hlo-syntax", E, "HLO text does not parse"},
    {"json-syntax", E, "JSON does not parse"},
    {"neff-schema", E, "CCInfo missing or of the wrong shape"},
    {"neff-empty-topology", E, "a NEFF topology holds no groups (MPMD)"},
    {"neff-inconsistent-worker-count", E,
     "NEFF topologies disagree on the worker count (MPMD)"},
    {"neff-multiple-topologies", E,
     "more than one NEFF topology although worker counts agree (MPMD)"},
    {"neff-ragged-groups", E, "groups of one NEFF topology differ in size"},
    {"neff-duplicate-rank", E,
     "a rank appears twice in one topology, or a pair endpoint is duplicated"},
    {"neff-world-size", E,
     "#rank_world_size is smaller than the group size or the pairs' span"},
    {"hlo-group-mode", E,
     "use_global_device_ids without channel_id, or on an opcode that takes "
     "none"},
    {"hlo-empty-group", E,
     "a replica group is empty, or the list is empty in flattened-id mode"},
    {"hlo-device-id-range", E,
     "a device id is negative or not below the ids listed / participants"},
    {"hlo-duplicate-device-id", E,
     "a device id appears more than once in one op's groups"},
    {"hlo-group-coverage", E,
     "the groups hold a different number of ids than the mode's participants"},
    {"hlo-nonuniform-groups", E,
     "groups of one all-gather, reduce-scatter or all-to-all differ in size"},
    {"hlo-group-size-shape", E,
     "the gathered / scattered / split dimension does not match the group "
     "size"},
    {"hlo-permute-pairs", E,
     "collective-permute: a source or target repeats, or an id is out of "
     "range"},
    {"hlo-not-flattened-id", W,
     "a collective of an SPMD module is not in flattened-id mode"},
    {"hlo-multiple-geometries", W,
     "the module's collectives use more than one group list (predicts MPMD)"},
    {"xref-topology-mismatch", E,
     "an op's expanded groups differ from the NEFF's replica_groups[0]"},
    {"xref-world-size", E,
     "NEFF world size differs from the HLO group size, or a NEFF rank is "
     "outside the HLO device space"},
    {"xref-permute-pairs", E,
     "HLO source_target_pairs differ from the NEFF's src_target_pairs"},
    {"config-schema", E,
     "a config field has the wrong type or an invalid value"},
    {"config-unknown-key", W, "a neuron_config key that no config form knows"},
    {"config-di-recommended", W,
     "a decode-only component DP size above 1 without disaggregated "
     "inference"},
    {"config-dp-divides", E,
     "a component DP size does not divide the data-parallel size"},
    {"config-mlp-dp-with-ep", E,
     "mlp_dp_size > 1 with expert parallelism on the static dispatch"},
    {"config-world-size", E,
     "the config's world size differs from the HLO device count"},
    {"xref-config-groups", E,
     "a collective's groups are none of the config's group families"},
    {"lnc-rank-range", E, "a rank is not below num_cores / lnc"},
    {"neff-lnc-mismatch", E,
     "NEFF lnc_size, --lnc, the config's LNC and the graph count disagree"},
    {"neff-graphs-disagree", E,
     "the graphs of one .neff carry different CCInfo"},
    // Beyond SPEC §4: reports suppression comments that silence nothing.
    {"unused-suppression", N,
     "a topolint suppression comment silences no finding"},
};

constexpr CheckFamily kFamilies[] = {
    {"syntax", &CheckSyntax},
    {"neff", &CheckNeff},
    {"neff-archive", &CheckNeffArchive},
    {"lnc", &CheckLnc},
    {"hlo", &CheckHlo},
    {"xref", &CheckXref},
    {"config", &CheckConfig},
    {"config-xref", &CheckConfigXref},
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
