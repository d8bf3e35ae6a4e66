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
// Memory: entries are retained while their ids total at most `retained`
// (kMaxRetainedIds); a new list that does not fit empties the cache before
// it is expanded.
// Explicit `{{...}}` lists are never cached or charged: they are already in
// memory, as text-bounded as their expansion.
//
// Not copyable or movable; not thread-safe. Entries are handed out as
// shared_ptr, so an entry stays valid for a holder after eviction.
#ifndef TOPOLINT_CHECKER_MODEL_EXPANSION_CACHE_H_
#define TOPOLINT_CHECKER_MODEL_EXPANSION_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/group_list.h"
#include "checker/model/id_scan.h"

namespace topolint::model {

// Ids of fresh (not cached) iota and mesh expansions per module and family:
// 2^24, eight lists at kMaxExpandedIds, or 256 distinct lists of 65,536 ids
// (a real module repeats a handful of geometries). A few seconds of work in
// a Debug build, a fraction of one in Release.
inline constexpr int64_t kMaxModuleExpandedIds = int64_t{1} << 24;
// Ids the cache keeps between ops: one list at the cap (16 MiB of int64).
inline constexpr int64_t kMaxRetainedIds = kMaxExpandedIds;

// One expanded list and what has been computed about it.
struct ExpandedGroups {
  std::string key;  // the canonical form it was cached under
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
  explicit ExpansionCache(int64_t budget = kMaxModuleExpandedIds,
                          int64_t retained = kMaxRetainedIds);
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

  // ExpandReplicaGroups(rg, cap), shared with every earlier identical list.
  // An absent or explicit list is expanded each time and not charged.
  Result Expand(const hlo::ReplicaGroups& rg, int64_t cap = kMaxExpandedIds);

  int64_t budget() const { return budget_; }
  // Ids charged so far (fresh iota and mesh expansions).
  int64_t spent() const { return spent_; }
  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }
  int64_t retained_ids() const { return retained_ids_; }

 private:
  const int64_t budget_;
  const int64_t retained_;
  int64_t spent_ = 0;
  int64_t hits_ = 0;
  int64_t misses_ = 0;
  int64_t retained_ids_ = 0;
  absl::flat_hash_map<std::string, std::shared_ptr<const ExpandedGroups>>
      entries_;
};

// The key identical iota / mesh lists share ("" for absent and explicit
// lists, and for a mesh with an explicit device_ids list, which are not
// cached): the form, the numbers as written and `cap`.
std::string CanonicalGroupsKey(const hlo::ReplicaGroups& rg, int64_t cap);

// The ids an iota or mesh list expands to, computed from its sizes without
// expanding: G*S, or the product of the mesh axes. -1 for other forms, or
// when a size is not positive or the product overflows.
int64_t ExpandedIdCount(const hlo::ReplicaGroups& rg);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_EXPANSION_CACHE_H_
