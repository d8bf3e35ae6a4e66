// hlo-multiple-geometries: a single-program SPMD NEFF holds one topology, so
// in the SPMD flow (num_partitions > 1, flattened-id or cross-partition
// collectives) every collective that moves data (a group of 2 or more
// devices) must use the same expanded list. Cross-replica (torch_xla
// replica-mode) modules mix TP/DP/PP groups legitimately and are out of scope.
#include <algorithm>
#include <utility>

#include "absl/hash/hash.h"
#include "fmt/format.h"
#include "rules/hlo_rule_util.h"
#include "rules/xref_compare.h"

namespace topolint::hlo_rules {

namespace {

// The first list is kept for exact comparison up to this many ids (2 MiB);
// a larger one is compared by its size and 64-bit hash only, so that the
// tracker does not hold a list at the expansion cap beside the current op's.
constexpr int64_t kMaxKeptIds = int64_t{1} << 18;

// The SPMD flow of the rank model: ids name partitions (alone or flattened
// with replicas) of a module with more than one partition.
bool InSpmdFlow(const OpView& v) {
  return v.params.num_partitions > 1 &&
         (v.mode == model::GroupMode::kFlattenedId ||
          v.mode == model::GroupMode::kCrossPartition);
}

}  // namespace

bool GeometryTracker::SameAsFirst(const OpView& v) {
  const model::ExpandedGroups* e = v.expanded;
  if (e == nullptr) return SameAsFirstByKey(v);
  if (e == first_entry_.get()) return true;
  if (const bool* known = same_as_first_by_entry_.Find(e->id)) return *known;
  const bool same = SameAsFirstByKey(v);
  same_as_first_by_entry_.Add(e->id, same);
  return same;
}

bool GeometryTracker::SameAsFirstByKey(const OpView& v) {
  const model::ExpandedGroups* e = v.expanded;
  if (e != nullptr && e == first_entry_.get()) return true;
  const size_t hash = e != nullptr ? e->hash : absl::HashOf(*v.groups);
  if (hash != first_hash_) return false;
  if (first_groups_ == nullptr) {
    return v.groups->num_ids() == first_num_ids_ &&
           v.groups->num_groups() == first_num_groups_;
  }
  // Equal hashes: decide exactly, once per cache key.
  if (e != nullptr && !e->key.empty()) {
    auto it = same_as_first_by_key_.find(e->key);
    if (it != same_as_first_by_key_.end()) return it->second;
    const bool same = *v.groups == *first_groups_;
    same_as_first_by_key_.emplace(e->key, same);
    return same;
  }
  return *v.groups == *first_groups_;
}

void GeometryTracker::Add(
    const OpView& v,
    const std::shared_ptr<const model::ExpandedGroups>& entry) {
  // Only lists that are written and expand: an empty list names no topology,
  // and collective-permute / send / recv pairs are not replica groups.
  if (v.groups == nullptr || v.groups->empty() ||
      !xref::CarriesReplicaGroups(*v.op) || !InSpmdFlow(v)) {
    return;
  }
  // Groups of one device move no data and need no NEFF topology entry.
  // The NEFF reader's worker count of a topology: its largest group length.
  const int64_t largest = v.groups->largest_group_size();
  if (largest < 2) return;
  if (first_.op == nullptr) {
    first_ = v;
    first_op_.CopyForReport(*v.op);  // not its ids: first_groups_ has them
    first_.op = &first_op_;
    first_.groups = nullptr;  // first_groups_ is the one kept
    first_.expanded = nullptr;
    first_hash_ =
        v.expanded != nullptr ? v.expanded->hash : absl::HashOf(*v.groups);
    first_num_ids_ = v.groups->num_ids();
    first_num_groups_ = v.groups->num_groups();
    first_text_ = v.groups->ToString(24);
    first_workers_ = largest;
    if (first_num_ids_ > kMaxKeptIds) {
      first_groups_ = nullptr;  // compared by hash
    } else if (entry != nullptr && !entry->key.empty()) {
      first_entry_ = entry;
      first_groups_ = &first_entry_->groups;
    } else {
      first_groups_copy_ = *v.groups;
      first_groups_ = &first_groups_copy_;
    }
    distinct_hashes_.insert(first_hash_);
    return;
  }
  const bool same = SameAsFirst(v);
  // Distinct lists are counted by hash (for the message only); whether an op
  // differs from the first is decided exactly.
  if (!same && distinct_hashes_.size() < 1000) {
    distinct_hashes_.insert(v.expanded != nullptr ? v.expanded->hash
                                                  : absl::HashOf(*v.groups));
  }
  if (differing_.op == nullptr && !same) {
    differing_ = v;
    differing_op_.CopyForReport(*v.op);
    differing_.op = &differing_op_;
    differing_.groups = nullptr;  // not kept: only its text is reported
    differing_.expanded = nullptr;
    differing_text_ = v.groups->ToString(24);
    differing_workers_ = largest;
  }
}

void GeometryTracker::Report(Emitter& emit) const {
  if (differing_.op == nullptr) return;
  const size_t count = std::max<size_t>(distinct_hashes_.size(), 2);
  std::vector<Note> notes;
  notes.push_back(
      Note{At(first_.module->file, GroupsPos(*first_.op)),
           fmt::format("{} uses {} here", first_.op->name, first_text_)});
  // What the NEFF reader would make of the two topologies
  // (docs/reference/rank-model.md §4).
  const std::string verdict =
      first_workers_ != differing_workers_
          ? fmt::format(
                "the NEFF reader would refuse it (\"Inconsistent worker "
                "count across topologies: {} vs {}. Possible MPMD\")",
                first_workers_, differing_workers_)
          : fmt::format(
                "the worker counts agree ({} each), so it is an MPMD NEFF "
                "that a single-program runtime does not load",
                first_workers_);
  hlo_rules::Report(
      emit, kHloMultipleGeometries, differing_, GroupsPos(*differing_.op),
      fmt::format("{} uses replica groups {} but {} uses {}; {} different "
                  "data-moving group lists in one SPMD module would need {} "
                  "NEFF topologies, and {}; expected one group list for "
                  "every collective",
                  differing_.op->name, differing_text_, first_.op->name,
                  first_text_, count, count, verdict),
      std::move(notes));
}

}  // namespace topolint::hlo_rules
