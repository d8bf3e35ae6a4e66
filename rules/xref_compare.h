// The HLO <-> NEFF comparisons behind the xref-* rules, as pure functions so
// that `topolint explain` shows exactly what the rules decide.
//
// The reconciliation is a containment (docs/reference/rank-model.md §2): an
// op's group list, as written after iota / mesh expansion, must be the NEFF's
// topology[0] bit for bit and in order. Nothing is converted or flattened
// across group modes here.
#ifndef TOPOLINT_RULES_XREF_COMPARE_H_
#define TOPOLINT_RULES_XREF_COMPARE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/group_list.h"
#include "checker/model/module_params.h"
#include "checker/neff/def_json.h"

namespace topolint::xref {

// True for the collectives that carry replica_groups (everything except
// collective-permute and send / recv, which carry source-target pairs): the
// kinds whose groups XLA's verifier checks, plus collective-broadcast, whose
// groups the runtime resolves the same way.
bool CarriesReplicaGroups(const hlo::Collective& op);

// The op's groups as the NEFF must list them: the written list after iota /
// mesh expansion (model::ExpandReplicaGroups). An absent or empty list means
// one group of every participant: {0, 1, ..., S-1} with S =
// model::SubgroupSize (R, P or R*P by group mode). Fails when the value does
// not expand (the hlo-* rules report why), when an empty list has no
// participants to stand for (flattened-id mode), or when the list exceeds
// `cap` ids (ResourceExhausted).
absl::StatusOr<model::GroupList> WrittenGroups(
    const hlo::Collective& op, const model::ModuleParams& p,
    int64_t cap = model::kMaxExpandedIds);

// True when the op wrote no groups (absent or `{}`), so WrittenGroups is the
// implied single group.
bool HasImplicitGroups(const hlo::Collective& op);

// A NEFF topology as a group list (same groups, same order).
model::GroupList TopologyGroups(const neff::Topology& topology);

// "4 groups of 2", "1 group of 8", "3 groups of sizes 2, 2, 4", "no groups".
std::string DescribeShape(const model::GroupList& groups);

// The first difference between an op's groups and topology[0].
struct GroupListDiff {
  enum class Kind {
    kEqual,
    kShape,  // different numbers of groups, or uniform lists of different
             // group sizes
    kGroup,  // otherwise: group `group` is the first that differs
  };
  Kind kind = Kind::kEqual;
  int64_t group = -1;  // kGroup: first differing group
  int64_t rank = -1;   // kGroup: first differing position in it (may be the
                       // size of the shorter group)
  // Both lists hold the same groups (as sets of ranks) in another order, or
  // the differing group holds the same ranks in another order.
  bool same_groups_reordered = false;
  bool same_ranks_reordered = false;
};

GroupListDiff CompareGroupLists(const model::GroupList& hlo,
                                const model::GroupList& neff);

// True when `groups` is one group {0, 1, ..., n-1} (any n >= 1), the
// explicit spelling of "every rank in one group".
bool IsSingleIotaGroup(const model::GroupList& groups);

// Which parts of a def.json can be compared: false when a schema problem
// (neff-schema reports it) touches that part, since an element with a
// problem is left out of the model and would make a false difference.
struct UsableParts {
  bool replica_groups = false;  // read completely (absent reads as [])
  bool pairs = false;           // read completely (absent reads as [])
  bool explicit_world_size = false;
};
UsableParts UsablePartsOf(const neff::DefJson& d);

// Source-target pairs, compared as sets: XLA gives the order of
// source_target_pairs no meaning, and the NEFF reader only takes their span.
struct PairSetDiff {
  std::vector<std::pair<int64_t, int64_t>> only_hlo;   // sorted, unique
  std::vector<std::pair<int64_t, int64_t>> only_neff;  // sorted, unique
  bool equal() const { return only_hlo.empty() && only_neff.empty(); }
};
PairSetDiff ComparePairSets(const hlo::SourceTargetPairs& hlo,
                            const std::vector<neff::Pair>& neff);

// `{{0,1},{1,2}}` (HLO style) / `[[0,1],[1,2]]` (JSON style), at most
// `max_pairs` pairs then `...`.
std::string PairsToString(const std::vector<std::pair<int64_t, int64_t>>& p,
                          bool json_style, size_t max_pairs = 8);

}  // namespace topolint::xref

#endif  // TOPOLINT_RULES_XREF_COMPARE_H_
