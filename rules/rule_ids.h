// The rule table and the rule ids it defines as compile-time constants: the
// only spelling of each id in the code. The Emitter takes a RuleId, and only
// this header can make one, so a rule that reports under a misspelt id does
// not compile. rules/registry.cc expands the same table into the RuleInfo of
// each rule (severity, summary, family) and checks it at compile time (ids
// unique and well formed, every family known).
#ifndef TOPOLINT_RULES_RULE_IDS_H_
#define TOPOLINT_RULES_RULE_IDS_H_

#include <string_view>

namespace topolint {

namespace rule_ids_internal {
struct Maker;
}  // namespace rule_ids_internal

// A registered rule id (docs/reference/rules.md). Converts to its text.
class RuleId {
 public:
  constexpr std::string_view str() const { return id_; }
  constexpr operator std::string_view() const { return id_; }  // NOLINT
  constexpr bool operator==(RuleId o) const { return id_ == o.id_; }
  constexpr bool operator!=(RuleId o) const { return id_ != o.id_; }

 private:
  friend struct rule_ids_internal::Maker;
  constexpr explicit RuleId(std::string_view id) : id_(id) {}
  std::string_view id_;
};

namespace rule_ids_internal {
// Used by this header only.
struct Maker {
  static constexpr RuleId Make(std::string_view id) { return RuleId(id); }
};
}  // namespace rule_ids_internal

// THE RULE TABLE: one row per rule, and the only place a rule is registered.
//   X(constant, "id", severity, "family", "one-line summary")
// - constant / "id": the RuleId below and its text (docs/reference/rules.md:
// ids are
//   a public contract, never renamed or reused).
// - severity: E (error), W (warning) or N (note), the default severity.
// - family: the check family that reports the rule (rules/registry.cc
//   kFamilies; "core" for a rule reported by checker/core).
// - summary: one line, shown by `topolint rules` and in SARIF.
// Rows are in the order of docs/reference/rules.md (a test holds the two
// equal); a new rule goes at the end. unused-suppression is reported by
// checker/core/suppression.cc. scripts/new-rule.sh appends a row
// here.
// clang-format off
#define TOPOLINT_RULE_TABLE(X)  \
  X(kHloSyntax, "hlo-syntax", E, "syntax",  \
    "HLO text does not parse")  \
  X(kJsonSyntax, "json-syntax", E, "syntax",  \
    "JSON does not parse")  \
  X(kNeffSchema, "neff-schema", E, "neff",  \
    "CCInfo missing or of the wrong shape")  \
  X(kNeffEmptyTopology, "neff-empty-topology", E, "neff",  \
    "a NEFF topology holds no groups (MPMD)")  \
  X(kNeffInconsistentWorkerCount, "neff-inconsistent-worker-count", E, "neff",  \
    "NEFF topologies disagree on the worker count (MPMD)")  \
  X(kNeffMultipleTopologies, "neff-multiple-topologies", E, "neff",  \
    "more than one NEFF topology although worker counts agree (MPMD)")  \
  X(kNeffRaggedGroups, "neff-ragged-groups", E, "neff",  \
    "groups of one NEFF topology differ in size")  \
  X(kNeffDuplicateRank, "neff-duplicate-rank", E, "neff",  \
    "a rank appears twice in one topology, or a pair endpoint is duplicated")  \
  X(kNeffWorldSize, "neff-world-size", E, "neff",  \
    "#rank_world_size is smaller than the group size or the pairs' span")  \
  X(kHloGroupMode, "hlo-group-mode", E, "hlo",  \
    "use_global_device_ids without channel_id, or on an opcode that takes none")  \
  X(kHloEmptyGroup, "hlo-empty-group", E, "hlo",  \
    "a replica group is empty, or the list is empty in flattened-id mode")  \
  X(kHloDeviceIdRange, "hlo-device-id-range", E, "hlo",  \
    "a device id is negative or not below the ids listed / participants")  \
  X(kHloDuplicateDeviceId, "hlo-duplicate-device-id", E, "hlo",  \
    "a device id appears more than once in one op's groups")  \
  X(kHloGroupCoverage, "hlo-group-coverage", E, "hlo",  \
    "the groups hold a different number of ids than the mode's participants")  \
  X(kHloNonuniformGroups, "hlo-nonuniform-groups", E, "hlo",  \
    "groups of one all-gather, reduce-scatter or all-to-all differ in size")  \
  X(kHloGroupSizeShape, "hlo-group-size-shape", E, "hlo",  \
    "the gathered / scattered / split dimension does not match the group size")  \
  X(kHloPermutePairs, "hlo-permute-pairs", E, "hlo",  \
    "collective-permute: a source or target repeats, or an id is out of range")  \
  X(kHloNotFlattenedId, "hlo-not-flattened-id", W, "hlo",  \
    "a collective of an SPMD module is not in flattened-id mode")  \
  X(kHloMultipleGeometries, "hlo-multiple-geometries", W, "hlo",  \
    "the module's collectives use more than one group list (predicts MPMD)")  \
  X(kXrefTopologyMismatch, "xref-topology-mismatch", E, "xref",  \
    "an op's expanded groups differ from the NEFF's replica_groups[0]")  \
  X(kXrefWorldSize, "xref-world-size", E, "xref",  \
    "NEFF world size differs from the HLO group size, or a NEFF rank is outside the HLO device space")  \
  X(kXrefPermutePairs, "xref-permute-pairs", E, "xref",  \
    "HLO source_target_pairs differ from the NEFF's src_target_pairs")  \
  X(kConfigSchema, "config-schema", E, "config",  \
    "a config field has the wrong type or an invalid value")  \
  X(kConfigUnknownKey, "config-unknown-key", W, "config",  \
    "a neuron_config key that no config form knows")  \
  X(kConfigDiRecommended, "config-di-recommended", W, "config",  \
    "a decode-only component DP size above 1 without disaggregated inference")  \
  X(kConfigDpDivides, "config-dp-divides", E, "config",  \
    "a component DP size does not divide the data-parallel size")  \
  X(kConfigMlpDpWithEp, "config-mlp-dp-with-ep", E, "config",  \
    "mlp_dp_size > 1 with expert parallelism on the static dispatch")  \
  X(kConfigWorldSize, "config-world-size", E, "config-xref",  \
    "the config's world size differs from the HLO device count")  \
  X(kXrefConfigGroups, "xref-config-groups", E, "config-xref",  \
    "a collective's groups are none of the config's group families")  \
  X(kLncRankRange, "lnc-rank-range", E, "lnc",  \
    "a rank is not below num_cores / lnc")  \
  X(kNeffLncMismatch, "neff-lnc-mismatch", E, "neff-archive",  \
    "NEFF lnc_size, --lnc, the config's LNC and the graph count disagree")  \
  X(kNeffGraphsDisagree, "neff-graphs-disagree", E, "neff-archive",  \
    "the graphs of one .neff carry different CCInfo")  \
  X(kUnusedSuppression, "unused-suppression", N, "core",  \
    "a topolint suppression comment silences no finding")  \
  X(kUncheckedInput, "unchecked-input", W, "inputs",  \
    "an input, or a check the user expects, was skipped (a cache entry still compiling is a note)")  \
  X(kHloShardingDevice, "hlo-sharding-device", E, "hlo",  \
    "a sharding's device is negative, not below the module's device count, or repeated in one tile assignment")  \
  X(kHloShardingCount, "hlo-sharding-count", E, "hlo",  \
    "a tile assignment holds M devices where the module has N (num_partitions > 1, as XLA's verifier)")  \
  X(kHloShardingRank, "hlo-sharding-rank", E, "hlo",  \
    "a sharding's tile rank (without subgroup dims) or tuple leaf count differs from the shape's, or a tile holds one device")  \
  X(kLncCoreCount, "lnc-core-count", E, "lnc",  \
    "the collective world is a core count the Neuron runtime refuses on the target (trn1, trn1n: 1, 2, 8, 16 or a multiple of 32)")  \
  /* new rules above this line */
// clang-format on

#define TOPOLINT_RULE_ID_(name, text, severity, family, summary) \
  inline constexpr RuleId name = rule_ids_internal::Maker::Make(text);
TOPOLINT_RULE_TABLE(TOPOLINT_RULE_ID_)
#undef TOPOLINT_RULE_ID_

// Every constant above, in table order.
#define TOPOLINT_RULE_ID_(name, text, severity, family, summary) name,
inline constexpr RuleId kAllRuleIds[] = {
    TOPOLINT_RULE_TABLE(TOPOLINT_RULE_ID_)};
#undef TOPOLINT_RULE_ID_

}  // namespace topolint

#endif  // TOPOLINT_RULES_RULE_IDS_H_
