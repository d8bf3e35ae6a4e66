// Internal to the hlo-* rule family (rules/hlo_*.cc): the per-instruction
// view every check reads, the family's checks, and the helpers that locate
// and phrase their findings. Not a public API.
#ifndef TOPOLINT_RULES_HLO_RULE_UTIL_H_
#define TOPOLINT_RULES_HLO_RULE_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "checker/diag/finding.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/expansion_cache.h"
#include "checker/model/group_list.h"
#include "checker/model/group_mode.h"
#include "checker/model/module_params.h"
#include "checker/model/recent_entries.h"
#include "rules/emitter.h"

namespace topolint::hlo_rules {

// One collective instruction with what the model says about it. Pointers are
// borrowed for the duration of one CheckHlo call.
struct OpView {
  const hlo::Module* module = nullptr;
  const hlo::Collective* op = nullptr;
  model::ModuleParams params;
  model::GroupMode mode = model::GroupMode::kCrossReplica;
  // The expanded replica groups; nullptr when they could not be expanded
  // (then the group checks are skipped and hlo-group-coverage says why).
  const model::GroupList* groups = nullptr;
  // The cache entry `groups` belongs to (set whenever `groups` is), with its
  // hash and memoised id scans.
  const model::ExpandedGroups* expanded = nullptr;
};

// --- checks, one family each (rules/hlo_<family>_rules.cc) ---------------

// hlo-group-mode (hlo_mode_rules.cc).
void CheckGroupMode(const OpView& v, Emitter& emit);
// hlo-not-flattened-id (hlo_mode_rules.cc).
void CheckNotFlattenedId(const OpView& v, Emitter& emit);
// hlo-group-coverage for replica groups that cannot be expanded
// (hlo_group_rules.cc).
void ReportUnexpandableGroups(const OpView& v, const absl::Status& why,
                              Emitter& emit);
// hlo-syntax for replica groups left unexpanded because the module's budget
// of expanded ids is spent (hlo_group_rules.cc).
void ReportOverBudgetGroups(const OpView& v, const model::ExpansionCache& cache,
                            Emitter& emit);
// hlo-empty-group, hlo-device-id-range, hlo-duplicate-device-id,
// hlo-group-coverage, hlo-nonuniform-groups (hlo_group_rules.cc).
void CheckGroupIds(const OpView& v, Emitter& emit);
// hlo-group-size-shape (hlo_shape_rules.cc).
void CheckGroupSizeShape(const OpView& v, Emitter& emit);
// hlo-permute-pairs (hlo_permute_rules.cc). False when the op's pairs have
// a problem (reported, or dropped by the emitter), true when they have none
// or the op has no pairs to check.
bool CheckPermutePairs(const OpView& v, Emitter& emit);

// The pairs of the last collective-permute (or send / recv) of a module
// that CheckPermutePairs found clean: a module repeats one ring over
// thousands of ops, and the check depends only on what Matches compares
// (the module's R and P being fixed). Not thread-safe.
class CleanPairsMemo {
 public:
  // True when `v`'s op repeats the clean pairs exactly.
  bool Matches(const OpView& v) const;
  // `v`'s op, which CheckPermutePairs found clean; an op without pairs
  // changes nothing.
  void Remember(const OpView& v);

 private:
  bool valid_ = false;
  hlo::CollectiveKind kind_ = hlo::CollectiveKind::kCollectivePermute;
  model::GroupMode mode_ = model::GroupMode::kInvalid;
  int64_t slice_sizes_count_ = 0;
  std::vector<std::pair<int64_t, int64_t>> pairs_;
};

// hlo-multiple-geometries (hlo_module_rules.cc): fed every op of one module
// in order, then reports at most one finding for the module. Only ops of the
// SPMD flow (num_partitions > 1, flattened-id or cross-partition mode) whose
// list has a group of 2 or more devices count. Keeps copies of
// the first op and list (or a reference to the list's cache entry; a list
// above 2^18 ids is compared by size and 64-bit hash instead of kept) and of
// the first differing op only, so memory does not grow with the number of ops,
// and the ops fed need not outlive Add() (a module may be checked while it is
// parsed). Each op costs O(1) when it shares the first op's cache entry or
// key, else one hash comparison and at most one O(ids) comparison per
// distinct key. Not copyable or movable.
class GeometryTracker {
 public:
  GeometryTracker() = default;
  GeometryTracker(const GeometryTracker&) = delete;
  GeometryTracker& operator=(const GeometryTracker&) = delete;

  // `entry` is v.groups' cache entry when it has one (kept, not copied).
  void Add(const OpView& v,
           const std::shared_ptr<const model::ExpandedGroups>& entry);
  void Report(Emitter& emit) const;

 private:
  // True when v's list equals the first list (memoised by cache key, so
  // thousands of ops sharing one large list are compared once, and by cache
  // entry for the few entries met lately, so that most ops cost neither a
  // hash nor a string key).
  bool SameAsFirst(const OpView& v);
  bool SameAsFirstByKey(const OpView& v);

  OpView first_;              // first op with groups (op == nullptr: none)
  hlo::Collective first_op_;  // what first_.op points to
  // The first list: its cache entry when there is one, else a copy; null
  // when it is too large to keep (then compared by size and hash).
  std::shared_ptr<const model::ExpandedGroups> first_entry_;
  model::GroupList first_groups_copy_;
  const model::GroupList* first_groups_ = nullptr;
  size_t first_hash_ = 0;
  int64_t first_num_ids_ = 0;
  int64_t first_num_groups_ = 0;
  std::string first_text_;     // as printed in the message
  int64_t first_workers_ = 0;  // its largest group (the reader's ws_rg)
  absl::flat_hash_map<std::string, bool> same_as_first_by_key_;
  // SameAsFirst's answers by ExpandedGroups::id (unique within the one
  // cache the session's ops come from; an entry never changes).
  model::RecentEntries<uint64_t, bool> same_as_first_by_entry_;
  OpView differing_;               // first op whose list differs from first_'s
  hlo::Collective differing_op_;   // what differing_.op points to
  std::string differing_text_;     // its list, as printed in the message
  int64_t differing_workers_ = 0;  // its largest group
  absl::flat_hash_set<size_t> distinct_hashes_;  // one per distinct list
};

// hlo-sharding-device / -count / -rank: the module's sharding issues
// (hlo::Module::sharding), once the module is read
// (rules/hlo_sharding_rules.cc).
void ReportShardingIssues(const hlo::Module& module, Emitter& emit);

// --- helpers (hlo_rule_util.cc) ------------------------------------------

// Reports `rule` at `pos` of v's module file, with v's anchor and, when the
// op's metadata names a source line, a note there; `notes` come first.
void Report(Emitter& emit, RuleId rule, const OpView& v, TextPos pos,
            std::string message, std::vector<Note> notes = {});

// " (num_partitions=N from the sharding at line L: the header has none)"
// when P came from the module's shardings (model::CountSource::kSharding),
// else "": what a message about P adds so that it says where P came from.
std::string PartitionsFromSharding(const model::ModuleParams& params);

// Where a finding about the op as a whole goes: its opcode, else its start.
TextPos OpPos(const hlo::Collective& op);
// The replica_groups value, or OpPos when the attribute is absent.
TextPos GroupsPos(const hlo::Collective& op);
// The '{' of explicit group g, else GroupsPos.
TextPos GroupPos(const hlo::Collective& op, int64_t g);
// Id k of explicit group g, else GroupPos.
TextPos IdPos(const hlo::Collective& op, int64_t g, int64_t k);

// What one id names in `mode`: "replica", "partition", "flattened id".
const char* IdNoun(model::GroupMode mode);
// XLA's plural for the count check: "replicas", "partitions",
// "flattened IDs".
const char* CountNoun(model::GroupMode mode);
// "an all-gather", "a reduce-scatter": the kind with its article.
std::string KindWithArticle(hlo::CollectiveKind kind);

}  // namespace topolint::hlo_rules

#endif  // TOPOLINT_RULES_HLO_RULE_UTIL_H_
