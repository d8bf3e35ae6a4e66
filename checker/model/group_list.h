// GroupList: a list of replica groups (groups of device ids), stored flat.
//
// One collective's groups are conceptually a 2-D list
// `[num_groups][ids of the group]`. GroupList stores every id in one flat
// vector, in list order, plus either one group size (the usual, uniform case)
// or per-group offsets (non-uniform lists, e.g. an all-reduce's). A list of
// 2^20 ids therefore costs 8 MiB and no per-group allocation. A list made
// with Shared() refers to ids stored elsewhere (an HLO instruction's explicit
// list) instead of copying them; copies of it share them too, and the first
// change makes the list its own copy.
//
// Value type: copyable and movable. Not thread-safe for concurrent mutation.
#ifndef TOPOLINT_CHECKER_MODEL_GROUP_LIST_H_
#define TOPOLINT_CHECKER_MODEL_GROUP_LIST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"

namespace topolint::model {

// The most ids any expansion in checker/model will produce (2^21, as
// hlo::kMaxExpandedIds, which says why). Inputs that would expand further
// are refused with an error status rather than allocated. The ids of all
// expansions of one module are bounded separately (ExpansionCache).
inline constexpr int64_t kMaxExpandedIds = int64_t{1} << 21;

class GroupList {
 public:
  // The empty list: no groups at all (as `replica_groups={}` or an absent
  // attribute; what that means depends on the group mode).
  GroupList() = default;

  // `num_groups` groups of `group_size` ids each; `ids` is row-major and
  // must hold num_groups * group_size ids.
  static GroupList Uniform(int64_t num_groups, int64_t group_size,
                           std::vector<int64_t> ids);
  // Copies nested groups (any sizes, empty groups allowed).
  static GroupList FromGroups(const std::vector<std::vector<int64_t>>& groups);
  // The groups of `ids` (flat, in list order) that end at `group_ends`
  // (group g holds ids [group_ends[g-1], group_ends[g]), group 0 from 0;
  // nondecreasing, the last one ids->size()), sharing `ids` rather than
  // copying them: O(groups), not O(ids). `ids` may be null when there are
  // none.
  static GroupList Shared(std::shared_ptr<const std::vector<int64_t>> ids,
                          absl::Span<const int64_t> group_ends);
  // The same groups held in storage of its own (a copy only when shared).
  GroupList Owned() const;
  // True when the ids are shared (made by Shared(), not changed since).
  bool is_shared() const { return shared_ids_ != nullptr; }

  // Appends one group (may be empty). Amortised O(|group|); stays in the
  // compact uniform representation while all groups have equal size.
  void AppendGroup(absl::Span<const int64_t> group);

  int64_t num_groups() const { return num_groups_; }
  int64_t num_ids() const { return static_cast<int64_t>(ids().size()); }
  // True when there are no groups (not when there are only empty groups).
  bool empty() const { return num_groups_ == 0; }
  // True when every group has the size of group 0 (and for the empty list).
  bool is_uniform() const { return offsets_.empty(); }

  // Preconditions for the accessors below: 0 <= g < num_groups().
  int64_t group_size(int64_t g) const;
  // The size of the largest group (0 for the empty list); O(1) when uniform.
  int64_t largest_group_size() const;
  // Index in ids() of group g's first id.
  int64_t group_start(int64_t g) const;
  absl::Span<const int64_t> group(int64_t g) const;
  // Every id, in list order.
  absl::Span<const int64_t> ids() const {
    return shared_ids_ != nullptr ? absl::Span<const int64_t>(*shared_ids_)
                                  : absl::Span<const int64_t>(ids_);
  }

  std::vector<std::vector<int64_t>> ToVectors() const;

  // The same groups, each with its ids sorted (groups in list order).
  GroupList WithSortedGroups() const;
  // The groups as a set of sets: each sorted, the groups in lexicographic
  // order. Two lists hold the same groups in any order when their
  // Canonical() lists are equal.
  GroupList Canonical() const;

  // `{{0,1},{2,3}}`, as HLO prints an explicit list. At most `max_ids` ids are
  // written; a longer list ends in `...` (so messages stay one short line).
  std::string ToString(int64_t max_ids = 32) const;
  // `{0,1}` for group g, with the same truncation.
  std::string GroupToString(int64_t g, int64_t max_ids = 32) const;

  // Same groups, same ids, same order.
  friend bool operator==(const GroupList& a, const GroupList& b);
  friend bool operator!=(const GroupList& a, const GroupList& b) {
    return !(a == b);
  }

  template <typename H>
  friend H AbslHashValue(H h, const GroupList& g) {
    h = H::combine(std::move(h), g.num_groups_, g.uniform_size_);
    h = H::combine_contiguous(std::move(h), g.offsets_.data(),
                              g.offsets_.size());
    const absl::Span<const int64_t> ids = g.ids();
    return H::combine_contiguous(std::move(h), ids.data(), ids.size());
  }

 private:
  int64_t num_groups_ = 0;
  // Size of every group while the list is uniform; meaningless otherwise.
  int64_t uniform_size_ = 0;
  // Empty while uniform; else num_groups_ + 1 start offsets into ids_.
  std::vector<int64_t> offsets_;
  std::vector<int64_t> ids_;  // empty while shared
  // Set while the ids are shared (Shared()); then they are these.
  std::shared_ptr<const std::vector<int64_t>> shared_ids_;
};

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_GROUP_LIST_H_
