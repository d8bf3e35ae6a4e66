// The process-group families a parallel config creates, as lists of rank
// groups, and the matching of a collective's groups against them.
//
// vLLM-on-Neuron (docs/reference/rank-model.md §5): ranks form a DP x TP
// grid, row d = [d*TP, (d+1)*TP). For each component DP size c:
//   component TP groups = blocks of TP*c consecutive ranks (DP rows
//                         [k*c, (k+1)*c));
//   DP column groups    = the c ranks at one TP position t inside a block:
//                         [k*c*TP + t, k*c*TP + TP + t, ...].
// With c = 1 these are the TP groups and size-1 self groups. Plus the vLLM DP
// group (columns of all DP ranks), and with expert parallelism EP groups =
// columns strided by world/EP with their EP-TP rows (world/EP consecutive
// ranks), and sampling DP rows / columns inside each TP group.
//
// NxD Inference (as its parallel_state builds them): TP groups of tp_degree
// consecutive ranks; attention DP, CP and MLP CP are carved inside each TP
// group (get_tp_cp_group_mesh: consecutive blocks of tp/d ranks, and the
// strided d-rank groups across them); EP groups stride tp inside blocks of
// tp*ep; PP groups stride world/pp; MoE TP / EP groups as NxD builds them for
// (moe_tp_degree, moe_ep_degree).
//
// TRN2 8x8 mesh: where NxDI (cp_degree == 8, tp/cp == 8, switch_cc false) or
// vLLM (64 ranks, EP-TP rows of 8, VLLM_NEURON_SWITCH_CC unset — an
// environment variable topolint cannot see) use the hard-coded TRN2 mesh
// instead of consecutive rows, the mesh rows and columns are offered as
// additional families. Per 64 ranks and per 16-rank quarter q the rows are
// [16q+0..3, 16q+12..15] and [16q+4..11].
//
// Families with identical groups are merged (one family, several names),
// which is how components with the same DP size alias one group set, as the
// group cache in vLLM's _create_neuron_groups does.
//
// Every function is pure and bounded: a layout of more than kMaxFamilyRanks
// ranks, or whose degrees do not divide as required, yields an
// InvalidArgument status.
#ifndef TOPOLINT_CHECKER_MODEL_COMPONENT_GROUPS_H_
#define TOPOLINT_CHECKER_MODEL_COMPONENT_GROUPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "checker/config/parallel_config.h"
#include "checker/model/group_list.h"

namespace topolint::model {

// Largest world a config layout is modelled for (families hold world ids
// each, so memory is bounded by a few MiB).
inline constexpr int64_t kMaxFamilyRanks = int64_t{1} << 16;

// --- Building blocks (preconditions are checked; violations give an
// InvalidArgument status naming the numbers) ---

// world/size groups of `size` consecutive ranks. Requires size | world.
absl::StatusOr<GroupList> ContiguousGroups(int64_t world, int64_t size);
// Inside each block of `block` consecutive ranks, the ranks at the same
// offset modulo `stride`: {b*block + t, b*block + t + stride, ...} for
// t in [0, stride), blocks in order. Requires block | world, stride | block.
absl::StatusOr<GroupList> StridedGroups(int64_t world, int64_t block,
                                        int64_t stride);
// The TRN2 8x8 mesh rows (see above). Requires 64 | world.
absl::StatusOr<GroupList> Trn2MeshRows(int64_t world);
// The columns of the mesh rows: for each 64-rank block, {row_i[j] : i} for
// j in [0, 8).
absl::StatusOr<GroupList> Trn2MeshColumns(int64_t world);

// vLLM grid (TP x DP): rows of TP; component TP groups and DP column groups
// of component DP size c. Requires c | dp.
absl::StatusOr<GroupList> TpGroups(int64_t tp, int64_t dp);
absl::StatusOr<GroupList> ComponentTpGroups(int64_t tp, int64_t dp, int64_t c);
absl::StatusOr<GroupList> DpColumnGroups(int64_t tp, int64_t dp, int64_t c);

// --- Families ---

struct GroupFamily {
  std::string name;  // e.g. "attention DP column (attention_dp_size=4)"
  std::vector<std::string> aliases;  // other roles with the same groups
  GroupList groups;

  // `name`, followed by ` (same groups as: a, b)` when aliased.
  std::string DisplayName() const;
};

struct ComponentSize {
  std::string
      component;    // "attention", "embedding", "mlp", "draft_mlp", "lm_head"
  std::string key;  // "attention_dp_size"
  int64_t size = 1;
};

struct VllmLayout {
  int64_t tp = 1;
  int64_t dp = 1;
  std::vector<ComponentSize> components;
  int64_t ep = 1;           // effective EP degree; 1 = no expert parallelism
  int64_t sampling_dp = 1;  // on_device_sampling_config.sampling_dp_degree
};

// In order: tp; per component (in the given order) its component TP and DP
// column groups; dp; ep-tp rows and ep (when ep > 1); sampling rows and
// columns (when sampling_dp > 1); TRN2 mesh variants. Requires c | dp for
// every component, ep | tp*dp, sampling_dp | tp.
absl::StatusOr<std::vector<GroupFamily>> VllmGroupFamilies(
    const VllmLayout& layout);

struct NxdiLayout {
  int64_t tp = 1;
  int64_t world = 1;  // world_size (tp*pp*ep when not written)
  int64_t cp = 1;
  int64_t attention_dp = 1;
  int64_t mlp_cp = 1;
  int64_t sampling_dp = 1;
  int64_t pp = 1;
  int64_t ep = 1;
  int64_t moe_tp = 1;
  int64_t moe_ep = 1;
  bool switch_cc = false;
};

// In order: tp; TP-within-CP and CP; TP-within-attention-DP and attention DP;
// the same for MLP CP and sampling DP (each when its degree is above 1);
// dp across TP groups (when world > tp*pp); ep; pp; MoE TP / EP (when either
// is above 1); TRN2 mesh variants. Requires tp | world, each inner degree |
// tp, tp*ep | world, pp | world, moe_tp*moe_ep | world.
absl::StatusOr<std::vector<GroupFamily>> NxdiGroupFamilies(
    const NxdiLayout& layout);

// The layout a config of the vLLM form (VllmLayoutOf) or the NxDI form
// (NxdiLayoutOf; fails when its world size overflows) declares: everything
// its group families depend on.
VllmLayout VllmLayoutOf(const config::ParallelConfig& cfg);
absl::StatusOr<NxdiLayout> NxdiLayoutOf(const config::ParallelConfig& cfg);

// The families of a config, by its form (fields' `value`s are used as read;
// the caller decides whether a config with schema problems is worth it).
absl::StatusOr<std::vector<GroupFamily>> GroupFamiliesOf(
    const config::ParallelConfig& cfg);

// --- Matching ---

// How a collective's groups relate to a set of families. Groups are compared
// as a set: the order of the groups in the list never matters. Membership (the
// partition of ranks into groups) decides whether the groups belong to a
// family; the order of ranks inside a group is recorded separately, since it
// matters only for ops whose result layout depends on rank-in-group
// (all-gather, reduce-scatter, all-to-all, ...), not for an all-reduce.
struct FamilyMatch {
  int exact = -1;           // same groups, each in the same rank order
  int same_partition = -1;  // same groups as sets, some rank order differs
  int nearest = -1;         // most groups in common (as sets); -1: no families
  int64_t groups_in_common = 0;  // with `nearest`
};

// Indexes families for repeated matching. Every family must be a partition
// of ranks (each rank in at most one group), as all the builders above
// produce; a group is found through its smallest rank. Matching costs
// O(ids x families). Not copyable (holds indexes); movable.
// Thread-compatible.
class FamilyMatcher {
 public:
  explicit FamilyMatcher(std::vector<GroupFamily> families);
  FamilyMatcher(FamilyMatcher&&) = default;
  FamilyMatcher& operator=(FamilyMatcher&&) = default;
  FamilyMatcher(const FamilyMatcher&) = delete;
  FamilyMatcher& operator=(const FamilyMatcher&) = delete;

  const std::vector<GroupFamily>& families() const { return families_; }

  // Ties for `nearest` go to a family whose group size equals the op's first
  // group's size, then to the earlier family.
  FamilyMatch Match(const GroupList& groups) const;

  // Index of the group of family `f` that holds the same ranks as `group`
  // (as a set), or -1.
  int64_t FindGroup(int f, absl::Span<const int64_t> group) const;
  // Index of the group of family `f` that contains `rank`, or -1.
  int64_t GroupContaining(int f, int64_t rank) const;

 private:
  struct Index {
    // The family's groups with the ranks of each group sorted.
    GroupList sorted;
    // rank -> group index (-1: in no group); ranks are in [0, world).
    std::vector<int64_t> by_rank;
  };
  // Index of the group of family `f` equal, as a set, to `sorted_group`
  // (ascending), or -1.
  int64_t FindSorted(size_t f, absl::Span<const int64_t> sorted_group) const;

  std::vector<GroupFamily> families_;
  std::vector<Index> index_;
};

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_COMPONENT_GROUPS_H_
