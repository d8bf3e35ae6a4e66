// ExpansionCache: the replica-group expansions of one HLO module, each done
// once, within a module-wide budget of expanded ids.
//
// An iota or mesh list may expand to up to kMaxExpandedIds ids however short
// its text, so checking every collective's expansion afresh would cost
// (collectives x cap) time — minutes for a 9 KB module. Real modules repeat a
// few geometries thousands of times, so a module session keeps one
// ExpansionCache: identical lists (same form, same iota dims / reshape /
// transpose or mesh spec, same cap) share one expansion, and the ids of all
// fresh expansions of a module are bounded by `budget` (kMaxModuleExpandedIds
// by default). Beyond it Expand() refuses (`over_budget`) and the caller
// reports that the op's groups were not checked (hlo-syntax).
//
// A list is found through its specification (GroupSpecTable: hashed and
// compared field by field, so two different specifications never share an
// entry, and no key text is built per op). The caches of one module's
// families may share one table, so that an op pinned in it is hashed once
// for all of them.
//
// Memory: iota and mesh entries are retained while their ids total at most
// `retained` (kMaxRetainedIds); a new list that does not fit empties them
// before it is expanded.
// Written lists (explicit `{{...}}`, `{}` or absent) are never charged: they
// are already in memory, as text-bounded as their expansion. Identical ones
// still share an entry (so what is computed about a list is computed once),
// kept apart from the iota and mesh entries and within kMaxRetainedWrittenIds
// (with ids of their own). A written list that is not kept shares the
// instruction's ids (GroupList::Shared) instead of copying them.
//
// Not copyable or movable; not thread-safe. Entries are handed out as
// shared_ptr, so an entry stays valid for a holder after eviction.
#ifndef TOPOLINT_CHECKER_MODEL_EXPANSION_CACHE_H_
#define TOPOLINT_CHECKER_MODEL_EXPANSION_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/group_list.h"
#include "checker/model/group_spec_table.h"
#include "checker/model/id_scan.h"

namespace topolint::model {

// Ids of fresh (not cached) iota and mesh expansions per module and family:
// 2^24, eight lists at kMaxExpandedIds, or 256 distinct lists of 65,536 ids
// (a real module repeats a handful of geometries). A few seconds of work in
// a Debug build, a fraction of one in Release.
inline constexpr int64_t kMaxModuleExpandedIds = int64_t{1} << 24;
// Ids the cache keeps between ops: one list at the cap (16 MiB of int64).
inline constexpr int64_t kMaxRetainedIds = kMaxExpandedIds;
// Ids of written lists the cache keeps between ops (512 KiB of int64); each
// entry counts as its ids plus kWrittenEntryOverheadIds, which bounds the
// number of entries too. A larger written list is handed out but not kept.
inline constexpr int64_t kMaxRetainedWrittenIds = int64_t{1} << 16;
inline constexpr int64_t kWrittenEntryOverheadIds = 8;

// One expanded list and what has been computed about it.
struct ExpandedGroups {
  // The canonical form it was cached under (CanonicalGroupsKey); "" for
  // written lists and uncached ones. Callers may memoise results by it.
  std::string key;
  // Unique among the entries one cache hands out, never reused (also across
  // evictions): callers may memoise results by it.
  uint64_t id = 0;
  GroupList groups;
  size_t hash = 0;  // absl::HashOf(groups)
  // Memo of ScanIds(groups, limit) by limit (a module has at most four
  // distinct limits: R, P, R*P and the list's own size). Mutable: a cache
  // of a pure function of `groups`.
  mutable std::vector<IdScan> scans;

  // ScanIds(groups, limit), computed at most once per limit.
  const IdScan& Scan(int64_t limit) const;
};

class ExpansionCache {
 public:
  // `specs` (may be null: the cache keeps its own) must outlive the cache.
  explicit ExpansionCache(int64_t budget = kMaxModuleExpandedIds,
                          int64_t retained = kMaxRetainedIds,
                          GroupSpecTable* specs = nullptr);
  ~ExpansionCache();
  ExpansionCache(const ExpansionCache&) = delete;
  ExpansionCache& operator=(const ExpansionCache&) = delete;

  struct Result {
    // Not OK when the value does not expand (ExpandReplicaGroups' status:
    // invalid, or above `cap`). OK with `over_budget` when it would expand
    // but the module's budget is spent. Else `groups` is set.
    absl::Status status;
    bool over_budget = false;
    std::shared_ptr<const ExpandedGroups> groups;
  };

  // ExpandReplicaGroups(rg, cap), shared with every earlier identical list
  // still retained. Only iota and mesh lists are charged to the budget.
  // O(1) allocations on a hit; O(size of the specification) time (for a
  // written list, O(its ids)).
  Result Expand(const hlo::ReplicaGroups& rg, int64_t cap = kMaxExpandedIds);

  int64_t budget() const { return budget_; }
  // Ids charged so far (fresh iota and mesh expansions).
  int64_t spent() const { return spent_; }
  // Lookups of iota and mesh lists that found / did not find an entry.
  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }
  // Ids of the iota and mesh entries retained.
  int64_t retained_ids() const { return retained_ids_; }
  // Charge (ids + overhead) of the written entries retained.
  int64_t retained_written_ids() const { return retained_written_; }

 private:
  // An entry kept for a spec of the table.
  struct Slot {
    const GroupSpec* spec = nullptr;  // held while the slot exists
    std::shared_ptr<const ExpandedGroups> entry;
  };
  // By GroupSpec::id and cap (a written list's cap is 0: it expands to
  // itself whenever it fits).
  using SlotMap = absl::flat_hash_map<std::pair<uint64_t, int64_t>, Slot>;

  Result ExpandWritten(const hlo::ReplicaGroups& rg, int64_t cap);
  std::shared_ptr<ExpandedGroups> NewEntry(GroupList groups, std::string key);
  // Keeps `entry` for `spec` in `slots` (unless a slot is already there).
  void Keep(SlotMap& slots, const GroupSpec* spec, int64_t cap,
            std::shared_ptr<const ExpandedGroups> entry);
  void Clear(SlotMap& slots);

  const int64_t budget_;
  const int64_t retained_;
  int64_t spent_ = 0;
  int64_t hits_ = 0;
  int64_t misses_ = 0;
  int64_t retained_ids_ = 0;
  int64_t retained_written_ = 0;
  uint64_t next_id_ = 1;
  std::unique_ptr<GroupSpecTable> own_specs_;  // when none is shared
  GroupSpecTable* const specs_;
  // A spec the table does not enter (see GroupSpecTable::Find) is expanded
  // and handed out, not kept.
  SlotMap expanded_;  // iota and mesh
  SlotMap written_;   // explicit, `{}` and absent
};

// The key identical iota / mesh lists share, ExpandedGroups::key: the form,
// the numbers as written and `cap`. "" for written lists (they share entries
// by their ids, without a key) and for a mesh over an explicit device_ids
// list (not cached).
std::string CanonicalGroupsKey(const hlo::ReplicaGroups& rg, int64_t cap);

// The ids an iota or mesh list expands to, computed from its sizes without
// expanding: G*S, or the product of the mesh axes. -1 for other forms, or
// when a size is not positive or the product overflows.
int64_t ExpandedIdCount(const hlo::ReplicaGroups& rg);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_EXPANSION_CACHE_H_
