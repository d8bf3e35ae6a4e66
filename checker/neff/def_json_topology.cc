#include "checker/neff/def_json_topology.h"

#include <algorithm>
#include <numeric>
#include <string_view>

namespace topolint::neff {
namespace {

// A place in the text with its line:col (column in bytes, as the JSON loader
// counts them).
struct Cursor {
  std::string_view text;
  size_t offset;
  int64_t line;
  int64_t column;

  bool AtEnd() const { return offset >= text.size(); }
  char Peek() const { return text[offset]; }
  void Step() {
    if (text[offset] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    ++offset;
  }
  void SkipSpace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' ||
                        Peek() == '\r')) {
      Step();
    }
  }
  // From the first byte of an element to the first byte of the next one.
  void SkipElement() {
    while (!AtEnd() && Peek() != ',' && Peek() != ']' && Peek() != ' ' &&
           Peek() != '\t' && Peek() != '\n' && Peek() != '\r') {
      Step();
    }
    SkipSpace();
    if (!AtEnd() && Peek() == ',') Step();
    SkipSpace();
  }
};

}  // namespace

void Topology::AddGroup(TextPos pos, size_t offset) {
  group_marks_.push_back({json::PackedPos(pos), static_cast<uint32_t>(offset)});
  starts_.push_back(starts_.back());
}

void Topology::PushRank(int64_t value) {
  if (ranks_.capacity() == 0) ranks_.reserve(kInitialRanks);
  ranks_.push_back(static_cast<int32_t>(value));
  ++starts_.back();
}

void Topology::AddRank(int64_t value, TextPos pos) {
  PushRank(value);
  rank_marks_.push_back({json::PackedPos(pos), 0});
}

void Topology::AddRankAt(int64_t value, TextPos pos, size_t offset) {
  stride_ = kRankMarkStride;
  if (static_cast<int64_t>(ranks_.size()) % kRankMarkStride == 0) {
    rank_marks_.push_back(
        {json::PackedPos(pos), static_cast<uint32_t>(offset)});
  }
  PushRank(value);
}

void Topology::Finish() {
  // Only a large slack is worth the copy that shrinking makes (not that of
  // the first reservation).
  if (ranks_.capacity() > kInitialRanks &&
      ranks_.capacity() - ranks_.size() > ranks_.size() / 4) {
    ranks_.shrink_to_fit();
  }
  starts_.shrink_to_fit();
  group_marks_.shrink_to_fit();
  rank_marks_.shrink_to_fit();
}

int64_t Topology::GroupOf(int64_t flat) const {
  // The last group starting at or before `flat` (empty groups share their
  // start with the next one, so this is the group that holds it).
  const auto it = std::upper_bound(starts_.begin(), starts_.end() - 1,
                                   static_cast<uint32_t>(flat));
  return static_cast<int64_t>(it - starts_.begin()) - 1;
}

TextPos Topology::rank_pos(int64_t g, int64_t r) const {
  const int64_t flat = starts_[g] + r;
  if (stride_ == 1) return rank_marks_[flat].pos;
  const int64_t mark = flat / stride_;
  Cursor c{std::string_view(*text_), 0, 0, 0};
  int64_t skip;
  if (mark * stride_ >= static_cast<int64_t>(starts_[g])) {
    const Mark& m = rank_marks_[mark];
    c.offset = m.offset;
    c.line = m.pos.line;
    c.column = m.pos.column;
    skip = flat - mark * stride_;
  } else {
    const Mark& m = group_marks_[g];
    c.offset = m.offset;
    c.line = m.pos.line;
    c.column = m.pos.column;
    c.Step();  // the group's '['
    c.SkipSpace();
    skip = r;
  }
  for (int64_t i = 0; i < skip; ++i) c.SkipElement();
  return TextPos{c.line, c.column};
}

namespace {

std::vector<Repeat> RepeatsByBitmap(absl::Span<const int32_t> ranks,
                                    int64_t max) {
  const size_t words = static_cast<size_t>(max / 64 + 1);
  std::vector<uint64_t> seen(words, 0);
  std::vector<uint64_t> repeated(words, 0);
  const auto test_and_set = [](std::vector<uint64_t>& bits, int32_t v) {
    uint64_t& word = bits[static_cast<size_t>(v) / 64];
    const uint64_t bit = uint64_t{1} << (static_cast<uint32_t>(v) % 64);
    const bool was = (word & bit) != 0;
    word |= bit;
    return was;
  };
  std::vector<Repeat> out;
  std::vector<int32_t> values;  // each repeated value once
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (!test_and_set(seen, ranks[i])) continue;
    out.push_back({static_cast<int64_t>(i), -1});
    if (!test_and_set(repeated, ranks[i])) values.push_back(ranks[i]);
  }
  if (out.empty()) return out;
  // The first occurrence of each repeated value: one more pass.
  std::sort(values.begin(), values.end());
  std::vector<int64_t> first(values.size(), -1);
  const auto slot = [&](int32_t v) {
    return static_cast<size_t>(
        std::lower_bound(values.begin(), values.end(), v) - values.begin());
  };
  size_t found = 0;
  for (size_t i = 0; i < ranks.size() && found < values.size(); ++i) {
    const int32_t v = ranks[i];
    if ((repeated[static_cast<size_t>(v) / 64] >>
             (static_cast<uint32_t>(v) % 64) &
         1) == 0) {
      continue;
    }
    int64_t& f = first[slot(v)];
    if (f < 0) {
      f = static_cast<int64_t>(i);
      ++found;
    }
  }
  for (Repeat& r : out) r.first = first[slot(ranks[r.index])];
  return out;
}

std::vector<Repeat> RepeatsBySort(absl::Span<const int32_t> ranks) {
  std::vector<uint32_t> order(ranks.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return ranks[a] < ranks[b]; });
  std::vector<Repeat> out;
  size_t run = 0;  // start of the run of equal values: the first occurrence
  for (size_t i = 1; i < order.size(); ++i) {
    if (ranks[order[i]] != ranks[order[i - 1]]) {
      run = i;
      continue;
    }
    out.push_back({order[i], order[run]});
  }
  std::sort(out.begin(), out.end(),
            [](const Repeat& a, const Repeat& b) { return a.index < b.index; });
  return out;
}

}  // namespace

std::vector<Repeat> FindRepeats(absl::Span<const int32_t> ranks) {
  if (ranks.size() < 2) return {};
  const int64_t max = *std::max_element(ranks.begin(), ranks.end());
  // Bitmaps of (max + 1) bits each, at most 8 bits per rank (plus a little).
  if (max < 8 * static_cast<int64_t>(ranks.size()) + 4096) {
    return RepeatsByBitmap(ranks, max);
  }
  return RepeatsBySort(ranks);
}

}  // namespace topolint::neff
