// Every group mode's replica groups as groups of global (flattened) device
// ids `replica_id * P + partition_id` in [0, R*P): the form a NEFF rank and a
// cross-file check compare against.
#ifndef TOPOLINT_CHECKER_MODEL_FLATTENED_GROUPS_H_
#define TOPOLINT_CHECKER_MODEL_FLATTENED_GROUPS_H_

#include <cstdint>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/expansion_cache.h"
#include "checker/model/group_list.h"
#include "checker/model/group_mode.h"
#include "checker/model/module_params.h"

namespace topolint::model {

// XLA's GetParticipatingFlattenedIdGroups(groups, mode, R, P), same group
// order:
//  - cross_replica: for each group g, for each p in [0,P): {r*P+p : r in g}
//    (an empty list stands for the one group {0..R-1});
//  - cross_partition: for each group g, for each r in [0,R): {r*P+p : p in g}
//    (empty list: {0..P-1});
//  - cross_replica_and_partition: for each group g, {r*P+p : r in g, p in
//    [0,P)}, r-major (empty list: {0..R-1});
//  - flattened_id: the groups as written.
// Fails (InvalidArgument) for the invalid mode, an empty list in flattened-id
// mode, R or P below 1, or an id outside the mode's id space ([0,R), [0,P) or
// [0,R*P)) — i.e. run it on groups the hlo-* rules accept. Fails
// (ResourceExhausted) when the result would exceed `cap` ids.
absl::StatusOr<GroupList> GetParticipatingFlattenedIdGroups(
    const GroupList& groups, GroupMode mode, int64_t replica_count,
    int64_t num_partitions, int64_t cap = kMaxExpandedIds);

// Convenience for one instruction: ExpandReplicaGroups + GroupModeOf + the
// function above.
absl::StatusOr<GroupList> FlattenedIdGroupsOf(const hlo::Collective& op,
                                              const ModuleParams& params,
                                              int64_t cap = kMaxExpandedIds);

// Ids a FlattenedGroupsCache keeps, expanded and flattened each (2 MiB of
// int64 each): four lists of a config's largest world (kMaxFamilyRanks).
inline constexpr int64_t kMaxRetainedFlattenedIds = int64_t{1} << 18;

// FlattenedIdGroupsOf(op, params, cap) for the collectives of one module,
// each distinct list flattened once per group mode: lists are expanded
// through an ExpansionCache, and the flattened groups are kept by (cache
// entry, mode). When the cache's budget is spent the op is flattened afresh,
// so every op gets exactly FlattenedIdGroupsOf's answer.
//
// Memory: the expansion cache keeps at most kMaxRetainedFlattenedIds ids,
// and the flattened lists kept (failures too, each counted as its ids plus
// 8) at most kMaxRetainedFlattenedIds in all; a new list that does not fit
// empties them before it is kept.
//
// Not copyable or movable; not thread-safe.
class FlattenedGroupsCache {
 public:
  // `specs` (may be null) and `budget` are the ExpansionCache's.
  FlattenedGroupsCache(const ModuleParams& params, int64_t cap,
                       GroupSpecTable* specs = nullptr,
                       int64_t budget = kMaxModuleExpandedIds);
  FlattenedGroupsCache(const FlattenedGroupsCache&) = delete;
  FlattenedGroupsCache& operator=(const FlattenedGroupsCache&) = delete;

  struct Result {
    absl::Status status;  // FlattenedIdGroupsOf's
    // Set when `status` is OK; stays valid for a holder after eviction.
    std::shared_ptr<const GroupList> groups;
    // Unique among the lists this cache hands out, and the same for every
    // op that shares one: callers may memoise results about `groups` by it.
    // 0 for a list flattened afresh (not shared; do not memoise).
    uint64_t id = 0;
  };

  // Valid until the next Flatten() (copy `groups` to keep it longer).
  const Result& Flatten(const hlo::Collective& op);

  int64_t retained_ids() const { return retained_ids_; }

 private:
  struct Key {
    uint64_t entry_id;
    GroupMode mode;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.entry_id, k.mode);
    }
    friend bool operator==(const Key& a, const Key& b) {
      return a.entry_id == b.entry_id && a.mode == b.mode;
    }
  };

  const ModuleParams params_;
  const int64_t cap_;
  ExpansionCache expansions_;
  absl::flat_hash_map<Key, Result> flattened_;
  Result unkept_;  // the last result not kept in `flattened_`
  int64_t retained_ids_ = 0;
  uint64_t next_id_ = 1;
};

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_FLATTENED_GROUPS_H_
