// One topology of a def.json's CCInfo.replica_groups, stored flat.
//
// A def.json may list a million ranks, so a topology keeps them as one int32
// vector with group boundaries (as model::GroupList does for HLO), not as a
// located value per rank. Positions are kept for the topology and each group;
// a rank's line:col is found again when a finding needs it:
//   - built from a located tree (AddRank with a position): every rank's
//     position is stored;
//   - read by the streaming def.json reader (AddRankAt): the position of
//     every kRankMarkStride-th rank is stored, with the document text, and a
//     rank's position is found by scanning forward from the nearest mark
//     (or its group's '[') over at most kRankMarkStride - 1 literals.
// Copyable and movable; const methods are safe to call concurrently.
#ifndef TOPOLINT_CHECKER_NEFF_DEF_JSON_TOPOLOGY_H_
#define TOPOLINT_CHECKER_NEFF_DEF_JSON_TOPOLOGY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "checker/diag/location.h"
#include "checker/json/json_containers.h"

namespace topolint::neff {

class Topology {
 public:
  static constexpr int64_t kRankMarkStride = 64;

  int64_t index = 0;  // position in replica_groups (see DefJson::topologies)
  TextPos pos;        // its '['
  // Byte offset of that '[' in the file, when the streaming reader read it
  // (what a fix rewriting the topology needs); -1 otherwise.
  int64_t offset = -1;

  int64_t num_groups() const {
    return static_cast<int64_t>(group_marks_.size());
  }
  bool empty() const { return group_marks_.empty(); }
  // Ranks of all groups.
  int64_t num_ranks() const { return static_cast<int64_t>(ranks_.size()); }
  // Preconditions below: 0 <= g < num_groups(), 0 <= r < group_size(g).
  int64_t group_size(int64_t g) const {
    return static_cast<int64_t>(starts_[g + 1] - starts_[g]);
  }
  absl::Span<const int32_t> group(int64_t g) const {
    return absl::MakeConstSpan(ranks_.data() + starts_[g],
                               starts_[g + 1] - starts_[g]);
  }
  int64_t rank(int64_t g, int64_t r) const { return ranks_[starts_[g] + r]; }
  // Every rank, group after group.
  absl::Span<const int32_t> ranks() const { return ranks_; }
  // Index in ranks() of group g's first rank.
  int64_t group_start(int64_t g) const { return starts_[g]; }
  // The group holding ranks()[flat] (0 <= flat < num_ranks()).
  int64_t GroupOf(int64_t flat) const;
  TextPos group_pos(int64_t g) const { return group_marks_[g].pos; }
  TextPos rank_pos(int64_t g, int64_t r) const;

  // --- building (the reader and tests) ---
  // Starts a group whose '[' is at `pos` (byte `offset` of the text).
  void AddGroup(TextPos pos, size_t offset = 0);
  // Appends a rank (0 <= value <= INT32_MAX) to the last group, keeping
  // its position.
  void AddRank(int64_t value, TextPos pos);
  // Appends a rank whose literal starts at byte `offset` of `text` (see
  // SetText); only every kRankMarkStride-th position is kept. Do not mix
  // with AddRank in one topology.
  void AddRankAt(int64_t value, TextPos pos, size_t offset);
  // The document the AddRankAt offsets point into.
  void SetText(std::shared_ptr<const std::string> text) {
    text_ = std::move(text);
  }
  // Gives back growth slack once the topology is complete.
  void Finish();

 private:
  // Appends a rank to the last group (room for the first few dozen at once:
  // growing one by one reallocated five or six times).
  void PushRank(int64_t value);
  static constexpr size_t kInitialRanks = 64;

  struct Mark {
    json::PackedPos pos;
    uint32_t offset = 0;  // byte of the '[' or the literal (< 1 GiB)
  };

  std::vector<int32_t> ranks_;
  std::vector<uint32_t> starts_{0};  // group g: [starts_[g], starts_[g+1])
  std::vector<Mark> group_marks_;
  // Position of rank i * stride_ (flat index): every rank when stride_ is 1.
  std::vector<Mark> rank_marks_;
  int64_t stride_ = 1;
  std::shared_ptr<const std::string> text_;
};

// A rank repeated in a list: ranks[index] == ranks[first], first < index,
// and no earlier element has that value.
struct Repeat {
  int64_t index = 0;
  int64_t first = 0;
};

// Every repeat of `ranks` (non-negative), by increasing index. No hash map:
// a bitmap over [0, max rank] when that range is not much larger than the
// list (8 bits of bitmap per rank at most), else a sort of the indices.
std::vector<Repeat> FindRepeats(absl::Span<const int32_t> ranks);

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_DEF_JSON_TOPOLOGY_H_
