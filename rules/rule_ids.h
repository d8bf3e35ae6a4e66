// Rule ids as compile-time constants: the only spelling of each id in the
// code. The Emitter takes a RuleId, and only this header can make one, so a
// rule that reports under a misspelt id does not compile. The registry
// (rules/registry.cc) gives each constant its severity and summary, and
// checks at compile time that it lists every constant here exactly once.
#ifndef TOPOLINT_RULES_RULE_IDS_H_
#define TOPOLINT_RULES_RULE_IDS_H_

#include <string_view>

namespace topolint {

namespace rule_ids_internal {
struct Maker;
}  // namespace rule_ids_internal

// A registered rule id (SPEC §4). Converts to its text.
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

#define TOPOLINT_RULE_ID_(name, text) \
  inline constexpr RuleId name = rule_ids_internal::Maker::Make(text)

// SPEC §4, in order.
TOPOLINT_RULE_ID_(kHloSyntax, "hlo-syntax");
TOPOLINT_RULE_ID_(kJsonSyntax, "json-syntax");
TOPOLINT_RULE_ID_(kNeffSchema, "neff-schema");
TOPOLINT_RULE_ID_(kNeffEmptyTopology, "neff-empty-topology");
TOPOLINT_RULE_ID_(kNeffInconsistentWorkerCount,
                  "neff-inconsistent-worker-count");
TOPOLINT_RULE_ID_(kNeffMultipleTopologies, "neff-multiple-topologies");
TOPOLINT_RULE_ID_(kNeffRaggedGroups, "neff-ragged-groups");
TOPOLINT_RULE_ID_(kNeffDuplicateRank, "neff-duplicate-rank");
TOPOLINT_RULE_ID_(kNeffWorldSize, "neff-world-size");
TOPOLINT_RULE_ID_(kHloGroupMode, "hlo-group-mode");
TOPOLINT_RULE_ID_(kHloEmptyGroup, "hlo-empty-group");
TOPOLINT_RULE_ID_(kHloDeviceIdRange, "hlo-device-id-range");
TOPOLINT_RULE_ID_(kHloDuplicateDeviceId, "hlo-duplicate-device-id");
TOPOLINT_RULE_ID_(kHloGroupCoverage, "hlo-group-coverage");
TOPOLINT_RULE_ID_(kHloNonuniformGroups, "hlo-nonuniform-groups");
TOPOLINT_RULE_ID_(kHloGroupSizeShape, "hlo-group-size-shape");
TOPOLINT_RULE_ID_(kHloPermutePairs, "hlo-permute-pairs");
TOPOLINT_RULE_ID_(kHloNotFlattenedId, "hlo-not-flattened-id");
TOPOLINT_RULE_ID_(kHloMultipleGeometries, "hlo-multiple-geometries");
TOPOLINT_RULE_ID_(kXrefTopologyMismatch, "xref-topology-mismatch");
TOPOLINT_RULE_ID_(kXrefWorldSize, "xref-world-size");
TOPOLINT_RULE_ID_(kXrefPermutePairs, "xref-permute-pairs");
TOPOLINT_RULE_ID_(kConfigSchema, "config-schema");
TOPOLINT_RULE_ID_(kConfigUnknownKey, "config-unknown-key");
TOPOLINT_RULE_ID_(kConfigDiRecommended, "config-di-recommended");
TOPOLINT_RULE_ID_(kConfigDpDivides, "config-dp-divides");
TOPOLINT_RULE_ID_(kConfigMlpDpWithEp, "config-mlp-dp-with-ep");
TOPOLINT_RULE_ID_(kConfigWorldSize, "config-world-size");
TOPOLINT_RULE_ID_(kXrefConfigGroups, "xref-config-groups");
TOPOLINT_RULE_ID_(kLncRankRange, "lnc-rank-range");
TOPOLINT_RULE_ID_(kNeffLncMismatch, "neff-lnc-mismatch");
TOPOLINT_RULE_ID_(kNeffGraphsDisagree, "neff-graphs-disagree");
// Beyond SPEC §4 (reported by checker/core/suppression.cc).
TOPOLINT_RULE_ID_(kUnusedSuppression, "unused-suppression");

#undef TOPOLINT_RULE_ID_

// Every constant above, in the same order (registry.cc checks its table
// against this list at compile time).
inline constexpr RuleId kAllRuleIds[] = {
    kHloSyntax,
    kJsonSyntax,
    kNeffSchema,
    kNeffEmptyTopology,
    kNeffInconsistentWorkerCount,
    kNeffMultipleTopologies,
    kNeffRaggedGroups,
    kNeffDuplicateRank,
    kNeffWorldSize,
    kHloGroupMode,
    kHloEmptyGroup,
    kHloDeviceIdRange,
    kHloDuplicateDeviceId,
    kHloGroupCoverage,
    kHloNonuniformGroups,
    kHloGroupSizeShape,
    kHloPermutePairs,
    kHloNotFlattenedId,
    kHloMultipleGeometries,
    kXrefTopologyMismatch,
    kXrefWorldSize,
    kXrefPermutePairs,
    kConfigSchema,
    kConfigUnknownKey,
    kConfigDiRecommended,
    kConfigDpDivides,
    kConfigMlpDpWithEp,
    kConfigWorldSize,
    kXrefConfigGroups,
    kLncRankRange,
    kNeffLncMismatch,
    kNeffGraphsDisagree,
    kUnusedSuppression,
};

}  // namespace topolint

#endif  // TOPOLINT_RULES_RULE_IDS_H_
