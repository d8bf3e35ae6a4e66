#include "checker/model/flattened_groups.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "checker/io/status_macros.h"
#include "checker/model/replica_groups.h"
#include "fmt/format.h"

namespace topolint::model {
namespace {

// The list `{0..count-1}` that an empty list stands for.
GroupList AllIds(int64_t count) {
  std::vector<int64_t> ids(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) ids[static_cast<size_t>(i)] = i;
  return GroupList::Uniform(1, count, std::move(ids));
}

absl::Status CheckIdsBelow(const GroupList& groups, int64_t limit,
                           GroupMode mode) {
  for (int64_t id : groups.ids()) {
    if (id < 0 || id >= limit) {
      return absl::InvalidArgumentError(fmt::format(
          "id {} is outside [0, {}) in {} mode", id, limit, ModeName(mode)));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<GroupList> GetParticipatingFlattenedIdGroups(
    const GroupList& groups, GroupMode mode, int64_t replica_count,
    int64_t num_partitions, int64_t cap) {
  const int64_t r_count = replica_count, p_count = num_partitions;
  if (r_count < 1 || p_count < 1) {
    return absl::InvalidArgumentError(
        fmt::format("replica_count {} and num_partitions {} must be at least 1",
                    r_count, p_count));
  }
  int64_t device_count = 0;
  if (__builtin_mul_overflow(r_count, p_count, &device_count) ||
      device_count > cap) {
    return absl::ResourceExhaustedError(fmt::format(
        "{} replicas x {} partitions is more than the {} ids topolint expands",
        r_count, p_count, cap));
  }
  switch (mode) {
    case GroupMode::kInvalid:
      return absl::InvalidArgumentError(
          "cannot have use_global_device_ids=true without channel_id");
    case GroupMode::kFlattenedId:
      if (groups.empty()) {
        return absl::InvalidArgumentError(
            "replica groups must be specified in flattened-id mode");
      }
      if (absl::Status s = CheckIdsBelow(groups, device_count, mode); !s.ok()) {
        return s;
      }
      return groups;
    default:
      break;
  }

  const bool by_partition = mode == GroupMode::kCrossPartition;
  const int64_t id_limit = by_partition ? p_count : r_count;
  const GroupList source = groups.empty() ? AllIds(id_limit) : groups;
  if (absl::Status s = CheckIdsBelow(source, id_limit, mode); !s.ok()) return s;
  // Every mode below multiplies each listed id by the other axis' count.
  const int64_t other = by_partition ? r_count : p_count;
  int64_t total = 0;
  if (__builtin_mul_overflow(source.num_ids(), other, &total) || total > cap) {
    return absl::ResourceExhaustedError(
        fmt::format("the flattened groups would hold more than {} ids", cap));
  }

  GroupList out;
  std::vector<int64_t> group;
  for (int64_t g = 0; g < source.num_groups(); ++g) {
    absl::Span<const int64_t> ids = source.group(g);
    if (mode == GroupMode::kCrossReplicaAndPartition) {
      group.clear();
      for (int64_t r : ids) {
        for (int64_t p = 0; p < p_count; ++p) group.push_back(r * p_count + p);
      }
      out.AppendGroup(group);
      continue;
    }
    for (int64_t fixed = 0; fixed < other; ++fixed) {
      group.clear();
      for (int64_t id : ids) {
        group.push_back(by_partition ? fixed * p_count + id
                                     : id * p_count + fixed);
      }
      out.AppendGroup(group);
    }
  }
  return out;
}

absl::StatusOr<GroupList> FlattenedIdGroupsOf(const hlo::Collective& op,
                                              const ModuleParams& params,
                                              int64_t cap) {
  TOPOLINT_ASSIGN_OR_RETURN(const GroupList groups,
                            ExpandReplicaGroups(op.replica_groups, cap));
  return GetParticipatingFlattenedIdGroups(groups, GroupModeOf(op),
                                           params.replica_count,
                                           params.num_partitions, cap);
}

FlattenedGroupsCache::FlattenedGroupsCache(const ModuleParams& params,
                                           int64_t cap, GroupSpecTable* specs,
                                           int64_t budget)
    : params_(params),
      cap_(cap),
      expansions_(budget, kMaxRetainedFlattenedIds, specs) {}

const FlattenedGroupsCache::Result& FlattenedGroupsCache::Flatten(
    const hlo::Collective& op) {
  // Each flattened list (or failure) counts as its ids plus this many.
  constexpr int64_t kOverheadIds = 8;
  constexpr int64_t kMaxKeptIds = kMaxRetainedFlattenedIds;
  Result r;
  ExpansionCache::Result e = expansions_.Expand(op.replica_groups, cap_);
  if (e.over_budget) {
    absl::StatusOr<GroupList> fresh = FlattenedIdGroupsOf(op, params_, cap_);
    r.status = fresh.status();
    if (fresh.ok()) {
      r.groups = std::make_shared<const GroupList>(*std::move(fresh));
    }
    return unkept_ = std::move(r);
  }
  if (!e.status.ok()) {
    r.status = e.status;
    return unkept_ = std::move(r);
  }
  const Key key{e.groups->id, GroupModeOf(op)};
  if (auto it = flattened_.find(key); it != flattened_.end()) {
    return it->second;
  }
  absl::StatusOr<GroupList> flat = GetParticipatingFlattenedIdGroups(
      e.groups->groups, key.mode, params_.replica_count, params_.num_partitions,
      cap_);
  r.status = flat.status();
  if (flat.ok()) {
    r.groups = std::make_shared<const GroupList>(*std::move(flat));
  }
  r.id = next_id_++;
  const int64_t charge =
      (r.groups != nullptr ? r.groups->num_ids() : 0) + kOverheadIds;
  if (charge > kMaxKeptIds) return unkept_ = std::move(r);
  if (charge > kMaxKeptIds - retained_ids_) {
    flattened_.clear();
    retained_ids_ = 0;
  }
  retained_ids_ += charge;
  return flattened_.emplace(key, std::move(r)).first->second;
}

}  // namespace topolint::model
