// hlo-multiple-geometries: a single-program SPMD NEFF holds one topology, so
// every collective with replica groups must use the same expanded list.
#include <algorithm>
#include <utility>

#include "absl/hash/hash.h"
#include "fmt/format.h"
#include "rules/hlo_rule_util.h"

namespace topolint::hlo_rules {

void GeometryTracker::Add(const OpView& v) {
  // Only lists that are written and expand: an empty list names no topology,
  // and collective-permute / send / recv pairs are not replica groups.
  if (v.groups == nullptr || v.groups->empty() ||
      !HasReplicaGroups(v.op->kind)) {
    return;
  }
  const size_t hash = absl::HashOf(*v.groups);
  if (first_.op == nullptr) {
    first_ = v;
    first_op_ = *v.op;
    first_.op = &first_op_;
    first_.groups = nullptr;  // the copy below is the one kept
    first_groups_ = *v.groups;
    distinct_hashes_.push_back(hash);
    return;
  }
  // Distinct lists are counted by hash (for the message only); whether an op
  // differs from the first is decided exactly.
  if (std::find(distinct_hashes_.begin(), distinct_hashes_.end(), hash) ==
          distinct_hashes_.end() &&
      distinct_hashes_.size() < 1000) {
    distinct_hashes_.push_back(hash);
  }
  if (differing_.op == nullptr && *v.groups != first_groups_) {
    differing_ = v;
    differing_op_ = *v.op;
    differing_.op = &differing_op_;
    differing_.groups = nullptr;  // not kept: only its text is reported
    differing_text_ = v.groups->ToString(24);
  }
}

void GeometryTracker::Report(Emitter& emit) const {
  if (differing_.op == nullptr) return;
  const size_t count = std::max<size_t>(distinct_hashes_.size(), 2);
  std::vector<Note> notes;
  notes.push_back(Note{At(first_.module->file, GroupsPos(*first_.op)),
                       fmt::format("{} uses {} here", first_.op->name,
                                   first_groups_.ToString(24))});
  hlo_rules::Report(
      emit, "hlo-multiple-geometries", differing_, GroupsPos(*differing_.op),
      fmt::format("{} uses replica groups {} but {} uses {}; {} different "
                  "group lists in one module would need {} NEFF topologies "
                  "(MPMD); expected one group list for every collective",
                  differing_.op->name, differing_text_, first_.op->name,
                  first_groups_.ToString(24), count, count),
      std::move(notes));
}

}  // namespace topolint::hlo_rules
