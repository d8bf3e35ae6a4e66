// The replica-group checks of XLA's verifier (CheckReplicaGroups, 2026-02):
// hlo-empty-group, hlo-device-id-range, hlo-duplicate-device-id,
// hlo-group-coverage and hlo-nonuniform-groups.
//
// XLA stops at the first failure; topolint reports each rule at most once per
// op (the first offending group or id in list order), so one run shows every
// kind of problem an op has.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "checker/model/id_scan.h"
#include "fmt/format.h"
#include "rules/hlo_rule_util.h"
#include "rules/xref_compare.h"

namespace topolint::hlo_rules {
namespace {

using model::GroupList;
using model::GroupMode;

// Groups must have one size except on all-reduce (and collective-broadcast,
// which XLA does not check).
bool NeedsUniformGroups(hlo::CollectiveKind kind) {
  return kind == hlo::CollectiveKind::kAllGather ||
         kind == hlo::CollectiveKind::kReduceScatter ||
         kind == hlo::CollectiveKind::kAllToAll ||
         kind == hlo::CollectiveKind::kRaggedAllToAll;
}

void CheckEmptyGroups(const OpView& v, Emitter& emit) {
  const GroupList& groups = *v.groups;
  // O(1) for the uniform lists every iota and mesh expands to.
  if (groups.is_uniform() && groups.group_size(0) != 0) return;
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    if (groups.group_size(g) != 0) continue;
    Report(emit, kHloEmptyGroup, v, GroupPos(*v.op, g),
           fmt::format("replica group {} of {} is empty; every group needs at "
                       "least one id (XLA: \"Instruction cannot have an empty "
                       "replica group\")",
                       g, v.op->name));
    return;
  }
}

// Range (below the ids listed and the mode's participants) and duplicates,
// in list order: model::ScanIds, one linear pass over a flat byte map,
// memoised on the cache entry so that ops sharing a list scan it once.
void CheckIdsInRangeAndUnique(const OpView& v, int64_t participants,
                              Emitter& emit) {
  const GroupList& groups = *v.groups;
  const hlo::Collective& op = *v.op;
  const int64_t listed = groups.num_ids();
  const int64_t limit =
      participants > 1 ? std::min(listed, participants) : listed;
  model::IdScan local;
  const model::IdScan* scan = nullptr;
  if (v.expanded != nullptr) {
    scan = &v.expanded->Scan(limit);
  } else {
    local = model::ScanIds(groups, limit);
    scan = &local;
  }
  if (scan->range_group >= 0) {
    const int64_t g = scan->range_group, k = scan->range_index;
    const int64_t id = groups.group(g)[static_cast<size_t>(k)];
    std::string why =
        limit == listed
            ? fmt::format("the {} ids listed must be exactly 0..{}", listed,
                          listed - 1)
            : fmt::format("{} mode has {} {}", model::ModeName(v.mode),
                          participants, CountNoun(v.mode));
    Report(emit, kHloDeviceIdRange, v, IdPos(op, g, k),
           fmt::format("{} {} is out of range (should be in [0, {})) in "
                       "{}'s replica groups; {}",
                       IdNoun(v.mode), id, limit, op.name, why));
  }
  if (scan->dup_group >= 0) {
    const int64_t g = scan->dup_group, k = scan->dup_index;
    const int64_t id = groups.group(g)[static_cast<size_t>(k)];
    Report(emit, kHloDuplicateDeviceId, v, IdPos(op, g, k),
           fmt::format("{} {} is repeated in {}'s replica groups (again in "
                       "group {} {}); each id may appear in one group, once",
                       IdNoun(v.mode), id, op.name, g,
                       groups.GroupToString(g, 16)));
  }
}

void CheckCoverage(const OpView& v, int64_t participants, Emitter& emit) {
  const int64_t listed = v.groups->num_ids();
  if (participants <= 1 || listed == participants) return;
  std::string counts;
  switch (v.mode) {
    case GroupMode::kCrossPartition:
      counts = fmt::format("num_partitions={}", v.params.num_partitions);
      break;
    case GroupMode::kFlattenedId:
      counts = fmt::format("replica_count={}, num_partitions={}",
                           v.params.replica_count, v.params.num_partitions);
      break;
    default:
      counts = fmt::format("replica_count={}", v.params.replica_count);
      break;
  }
  if (v.mode != GroupMode::kCrossReplica) {
    counts += PartitionsFromSharding(v.params);
  }
  Report(emit, kHloGroupCoverage, v, GroupsPos(*v.op),
         fmt::format("{}'s replica groups hold {} ids but {} mode with {} "
                     "needs all {} {} (XLA: \"In {} mode, replica groups "
                     "should contain {} {}, but found {}\")",
                     v.op->name, listed, model::ModeName(v.mode), counts,
                     participants, CountNoun(v.mode), model::ModeName(v.mode),
                     participants, CountNoun(v.mode), listed));
}

void CheckUniform(const OpView& v, Emitter& emit) {
  const GroupList& groups = *v.groups;
  if (!NeedsUniformGroups(v.op->kind) || groups.is_uniform()) return;
  const int64_t size0 = groups.group_size(0);
  for (int64_t g = 1; g < groups.num_groups(); ++g) {
    if (groups.group_size(g) == size0) continue;
    Report(
        emit, kHloNonuniformGroups, v, GroupPos(*v.op, g),
        fmt::format("replica group {} {} of {} has {} ids but group 0 has "
                    "{}; {} needs groups of one size (XLA: \"Replica "
                    "groups expected to be of uniform size\")",
                    g, groups.GroupToString(g, 16), v.op->name,
                    groups.group_size(g), size0, KindWithArticle(v.op->kind)));
    return;
  }
}

}  // namespace

void ReportUnexpandableGroups(const OpView& v, const absl::Status& why,
                              Emitter& emit) {
  Report(emit, kHloGroupCoverage, v, GroupsPos(*v.op),
         fmt::format("{}'s replica groups cannot be expanded: {}", v.op->name,
                     std::string(why.message())));
}

void ReportOverBudgetGroups(const OpView& v, const model::ExpansionCache& cache,
                            Emitter& emit) {
  const int64_t n = model::ExpandedIdCount(v.op->replica_groups);
  Report(emit, kHloSyntax, v, GroupsPos(*v.op),
         fmt::format("{}'s replica groups were not expanded or checked: they "
                     "expand to {} ids but this module's iota and mesh lists "
                     "have already expanded to {} of the {} ids topolint "
                     "expands per module (identical lists count once); "
                     "expected fewer distinct large lists in one module",
                     v.op->name, n, cache.spent(), cache.budget()));
}

void CheckGroupIds(const OpView& v, Emitter& emit) {
  if (v.groups == nullptr || !xref::CarriesReplicaGroups(*v.op)) return;
  if (v.groups->empty()) {
    if (v.mode != GroupMode::kFlattenedId) return;
    Report(emit, kHloEmptyGroup, v, GroupsPos(*v.op),
           fmt::format("{} is in flattened_id mode (channel_id with "
                       "use_global_device_ids=true) but lists no replica "
                       "groups; expected every device id listed (XLA: "
                       "\"Replica groups must be specified in flattened-id "
                       "mode\")",
                       v.op->name));
    return;
  }
  const int64_t participants = model::ParticipantCount(
      v.mode, v.params.replica_count, v.params.num_partitions);
  CheckEmptyGroups(v, emit);
  CheckIdsInRangeAndUnique(v, participants, emit);
  CheckCoverage(v, participants, emit);
  CheckUniform(v, emit);
}

}  // namespace topolint::hlo_rules
