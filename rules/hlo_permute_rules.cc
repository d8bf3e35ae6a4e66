// hlo-permute-pairs: XLA's CheckDuplicatedSourceOrTarget (2026-02) for
// collective-permute and collective-permute-start, and the pair-uniqueness
// part of its send/recv deadlock check for the
// `_xla_send_recv_source_target_pairs` of send and recv.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"
#include "rules/hlo_rule_util.h"

namespace topolint::hlo_rules {
namespace {

// Occurrence counts of ids in [0, limit): a dense array when the range is
// small next to the number of pairs (on the stack when it is small, as in
// every permute of a realistic module), a hash map when ids are sparse (R or
// P left at 1 lets the ids themselves set the range).
class IdCounter {
 public:
  IdCounter(int64_t limit, size_t num_ids)
      : dense_(limit <= static_cast<int64_t>(4 * num_ids + 1024)) {
    if (!dense_) return;
    const size_t n = static_cast<size_t>(limit);
    if (n <= small_.size()) {
      counts_ = small_.data();
    } else {
      large_.resize(n);
      counts_ = large_.data();
    }
    std::fill_n(counts_, n, 0);
  }
  IdCounter(const IdCounter&) = delete;
  IdCounter& operator=(const IdCounter&) = delete;
  // Counts one more `id` and returns its count.
  int64_t Add(int64_t id) {
    if (dense_) return ++counts_[static_cast<size_t>(id)];
    return ++sparse_[id];
  }

 private:
  bool dense_;
  int64_t* counts_ = nullptr;
  std::array<int64_t, 256> small_;
  std::vector<int64_t> large_;
  absl::flat_hash_map<int64_t, int64_t> sparse_;
};

struct Limit {
  int64_t value;
  bool derived;      // R / P was 1: no upper bound is checked
  const char* noun;  // "replicas" / "partitions"
};

// "%cp's source_target_pairs (pair 1 {0,2})". Only formatted for a problem:
// this check runs on every pair of every permute.
std::string PairWhere(const hlo::Collective& op, size_t i) {
  const std::pair<int64_t, int64_t>& p = op.source_target_pairs.pairs[i];
  const bool send_recv = op.kind == hlo::CollectiveKind::kSend ||
                         op.kind == hlo::CollectiveKind::kRecv;
  return fmt::format(
      "{}'s {} (pair {} {{{},{}}})", op.name,
      send_recv ? "_xla_send_recv_source_target_pairs" : "source_target_pairs",
      i, p.first, p.second);
}

// Whether one endpoint is in range and not repeated more than `allowed`
// times (counted when in range). Runs on every pair of every permute: no
// strings unless there is a problem.
bool EndpointOk(int64_t id, const Limit& limit, int64_t allowed,
                IdCounter& counter) {
  return id >= 0 && (id < limit.value || limit.derived) &&
         counter.Add(id) <= allowed;
}

// The problem with one endpoint of pair `i` of `op` that EndpointOk
// rejected.
std::string EndpointProblem(const char* what, int64_t id, const Limit& limit,
                            int64_t allowed, const hlo::Collective& op,
                            size_t i) {
  const std::string where = PairWhere(op, i);
  if (id < 0) {
    return fmt::format("{} {} in {} must be >= 0", what, id, where);
  }
  if (id >= limit.value && !limit.derived) {
    return fmt::format("{} {} in {} must be < {}, the number of {}", what, id,
                       where, limit.value, limit.noun);
  }
  if (allowed == 1) {
    return fmt::format(
        "{} {} appears more than once in {}; each device may "
        "{} once",
        what, id, where, what[0] == 's' ? "send" : "receive");
  }
  return fmt::format(
      "{} {} appears more than {} times in {}; an in-place "
      "permute may repeat an id once per slice_sizes offset "
      "tuple",
      what, id, allowed, where);
}

}  // namespace

bool CleanPairsMemo::Matches(const OpView& v) const {
  const hlo::Collective& op = *v.op;
  return valid_ && op.kind == kind_ && v.mode == mode_ &&
         op.slice_sizes_count == slice_sizes_count_ &&
         op.source_target_pairs.present &&
         op.source_target_pairs.pairs == pairs_;
}

void CleanPairsMemo::Remember(const OpView& v) {
  const hlo::Collective& op = *v.op;
  if (!op.source_target_pairs.present) return;  // (an op of another kind)
  valid_ = true;
  kind_ = op.kind;
  mode_ = v.mode;
  slice_sizes_count_ = op.slice_sizes_count;
  pairs_.assign(op.source_target_pairs.pairs.begin(),
                op.source_target_pairs.pairs.end());
}

bool CheckPermutePairs(const OpView& v, Emitter& emit) {
  const hlo::Collective& op = *v.op;
  const bool send_recv = op.kind == hlo::CollectiveKind::kSend ||
                         op.kind == hlo::CollectiveKind::kRecv;
  if ((op.kind != hlo::CollectiveKind::kCollectivePermute && !send_recv) ||
      !op.source_target_pairs.present) {
    return true;
  }
  const auto& pairs = op.source_target_pairs.pairs;
  const bool by_partition = v.mode == model::GroupMode::kCrossPartition;
  int64_t limit =
      by_partition ? v.params.num_partitions : v.params.replica_count;
  // XLA checks send/recv pairs for repeats only (its deadlock check), never
  // against R or P: their ids bound themselves, as with R = P = 1.
  const bool derived = limit == 1 || send_recv;
  if (derived) {
    // 2026-02: with R (or P) left at 1, the pairs' own span is the limit, so
    // only negative ids can be out of range. (Saturating: an id of INT64_MAX
    // must not make XLA's max + 1 overflow into a false finding.)
    int64_t max_id = 0;
    for (const auto& [s, t] : pairs) max_id = std::max({max_id, s, t});
    limit = max_id == std::numeric_limits<int64_t>::max() ? max_id : max_id + 1;
  }
  const Limit bound{limit, derived, by_partition ? "partitions" : "replicas"};
  const int64_t allowed = std::max<int64_t>(op.slice_sizes_count, 1);
  IdCounter sources(limit, pairs.size()), targets(limit, pairs.size());
  // The first endpoint that is out of range or repeated too often; the
  // message is only formatted for it.
  const std::pair<int64_t, int64_t>* const data = pairs.data();
  const size_t n = pairs.size();
  size_t i = 0;
  const char* what = nullptr;
  int64_t id = 0;
  for (; i < n; ++i) {
    const auto [source, target] = data[i];
    if (!EndpointOk(source, bound, allowed, sources)) {
      what = "source";
      id = source;
      break;
    }
    if (!EndpointOk(target, bound, allowed, targets)) {
      what = "target";
      id = target;
      break;
    }
  }
  if (what != nullptr) {
    std::string problem = EndpointProblem(what, id, bound, allowed, op, i);
    const TextPos pos = i < op.source_target_pairs.pair_pos.size() &&
                                op.source_target_pairs.pair_pos[i].known()
                            ? op.source_target_pairs.pair_pos[i]
                        : op.source_target_pairs.pos.known()
                            ? op.source_target_pairs.pos
                            : OpPos(op);
    // As XLA: the first problem of the op only.
    Report(emit, kHloPermutePairs, v, pos, std::move(problem));
    return false;
  }
  return true;
}

}  // namespace topolint::hlo_rules
