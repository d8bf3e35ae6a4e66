// GroupSpecTable: the replica-group specifications of one HLO module, each
// found by hash and compared field by field once, then known by an id.
//
// Every family that checks a module's collectives keeps its own
// ExpansionCache (its own budget and retention). Looking an op's list up in
// each of them would hash and compare the same specification once per
// family; instead the caches of one module share a GroupSpecTable, the
// caller pins each op's `replica_groups` while the families check it
// (Pin), and each cache then finds its entry by the spec's id.
//
// A spec stays in the table while a cache holds an entry for it (Hold /
// Release); specs no cache holds are dropped from time to time (once they
// are as many as the held ones, at least kMaxUnheldSpecs, or hold more than
// kMaxUnheldWrittenIds ids of written lists), so the table is bounded by
// twice what the caches retain plus those bounds, and each new spec costs
// O(1) amortised. Ids are never reused, so a dropped spec seen again gets a
// new id (no cache holds the old one).
//
// Not copyable or movable; not thread-safe. Must outlive the caches that
// share it.
#ifndef TOPOLINT_CHECKER_MODEL_GROUP_SPEC_TABLE_H_
#define TOPOLINT_CHECKER_MODEL_GROUP_SPEC_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/recent_entries.h"

namespace topolint::model {

// Written lists longer than this are not entered (their text bounds them,
// and caches do not keep them either).
inline constexpr int64_t kMaxSharedWrittenIds = int64_t{1} << 16;

// One specification as parsed. Two specs are the same when every field is:
// an iota's G, S, reshape dims and transpose; a mesh's axes (names, sizes),
// grouped refs and device_ids iota (a mesh over an explicit device_ids list
// is not entered); a written list's groups (an absent list is the written
// list `{}`: both expand to no groups).
struct GroupSpec {
  uint64_t id = 0;  // unique in its table, never reused
  size_t hash = 0;  // what the table files it under
  hlo::ReplicaGroups::Form form = hlo::ReplicaGroups::Form::kExplicit;
  hlo::IotaSpec iota;  // kIota
  hlo::MeshSpec mesh;  // kMesh
  // kExplicit: the ids, flat, and where each group ends (as
  // hlo::ReplicaGroups::group_ends).
  std::vector<int64_t> written;
  std::vector<int64_t> written_ends;
  int64_t written_ids = 0;  // kExplicit: ids in `written`
};

class GroupSpecTable {
 public:
  // Unheld specs (at least) and ids of unheld written lists (at most) kept
  // before a sweep drops them.
  static constexpr size_t kMaxUnheldSpecs = 256;
  static constexpr int64_t kMaxUnheldWrittenIds = int64_t{1} << 16;

  GroupSpecTable();
  ~GroupSpecTable();
  GroupSpecTable(const GroupSpecTable&) = delete;
  GroupSpecTable& operator=(const GroupSpecTable&) = delete;

  // The spec `rg` is, entered when new; null when `rg` is not entered (a
  // mesh over explicit device_ids, a written list above
  // kMaxSharedWrittenIds, or the rare spec whose 64-bit hash another spec
  // already has). O(1) for the pinned object; else O(size of the spec).
  // The pointer is valid while the spec is held or pinned, or until the
  // next Find.
  const GroupSpec* Find(const hlo::ReplicaGroups& rg);

  // While alive, Find(rg) for this very object (same address) answers
  // without hashing. The pinned object must not change meanwhile. One pin at
  // a time.
  class Pin {
   public:
    Pin(GroupSpecTable& table, const hlo::ReplicaGroups& rg);
    ~Pin();
    Pin(const Pin&) = delete;
    Pin& operator=(const Pin&) = delete;

   private:
    GroupSpecTable& table_;
  };

  // A cache keeps (Hold) or drops (Release) an entry for `spec`, which must
  // come from this table's Find and, for Release, be held.
  void Hold(const GroupSpec* spec);
  void Release(const GroupSpec* spec);

  size_t size() const { return specs_.size(); }

 private:
  struct Record {
    std::unique_ptr<GroupSpec> spec;
    int64_t holders = 0;
  };

  // Drops the specs nobody holds or pins.
  void Sweep();
  // Find without the pin and the recent specs.
  const GroupSpec* FindByHash(const hlo::ReplicaGroups& rg);

  absl::flat_hash_map<size_t, Record> specs_;  // by GroupSpec::hash
  uint64_t next_id_ = 1;
  size_t held_specs_ = 0;
  int64_t written_ids_since_sweep_ = 0;
  const hlo::ReplicaGroups* pinned_rg_ = nullptr;
  const GroupSpec* pinned_ = nullptr;
  // Up to kRecent distinct specs found lately, in the order they were first
  // found: a module's collectives take turns among a few lists, in a cycle
  // that repeats layer after layer, so the spec after the last one found is
  // tried first, and the others then, each compared field by field instead
  // of hashed and looked up. Emptied by Sweep (which may free them).
  RecentEntries<const GroupSpec*, const GroupSpec*> recent_;
};

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_GROUP_SPEC_TABLE_H_
