// Per-computation table from instruction / parameter name to the text of its
// shape, used to resolve collective operands written without a shape.
// Internal to checker/hlo/text.
//
// Adding costs one append to an arena; the hash index is built lazily, only
// when a lookup happens, so modules whose operands all carry inline shapes
// (everything XLA prints) never pay for it. Memory is bounded by
// kMaxShapeTableBytes: when an entry would exceed it, the table is emptied
// first, so recent names stay resolvable.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_SHAPE_TABLE_H_
#define TOPOLINT_CHECKER_HLO_TEXT_SHAPE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "checker/hlo/text/small_copy.h"

namespace topolint::hlo {

class ShapeTable {
 public:
  explicit ShapeTable(size_t max_bytes);

  // The input's length, when known (-1: unknown). Names and shapes are
  // texts of the input, so a table never holds more than that: the first
  // Begin reserves for it instead of the whole budget, and a small module
  // costs a small allocation (many small units, -j: a budget-sized block
  // per unit kept the allocator consolidating).
  void set_input_bytes(int64_t bytes) { input_bytes_ = bytes; }

  // Starts an entry for `name` (a leading '%' is ignored). The caller then
  // appends the shape text with AppendPending() and calls Commit() or
  // Abort().
  void Begin(std::string_view name);
  void AppendPending(std::string_view text) {
    if (text.size() > capacity_ - size_) Grow(text.size());
    CopySmall(arena_.get() + size_, text.data(), text.size());
    size_ += text.size();
  }
  // Begin(name) followed by AppendPending(shape), in one step: this runs
  // once per instruction of a module.
  void BeginWithShape(std::string_view name, std::string_view shape) {
    Begin(name);
    AppendPending(shape);
  }
  // False when the entry alone is over budget and was dropped.
  bool Commit();
  void Abort();
  // The name of the entry begun and not yet committed or aborted.
  std::string_view PendingName() const {
    return std::string_view(arena_.get() + pending_name_offset_,
                            pending_shape_offset_ - pending_name_offset_);
  }
  // The text appended after the pending name so far.
  std::string_view PendingShape() const {
    return std::string_view(arena_.get() + pending_shape_offset_,
                            size_ - pending_shape_offset_);
  }

  // The shape text recorded for `name` (a leading '%' is ignored), latest
  // entry first; nullopt when unknown.
  std::optional<std::string_view> Find(std::string_view name);

  void Clear();

  // Bytes the arena has room for (tests: what set_input_bytes reserved).
  size_t arena_capacity() const { return capacity_; }

 private:
  // 16 bytes: offsets fit in 32 bits because the arena stays within
  // max_bytes_ (at most 4 GiB). The shape follows the name in the arena.
  struct Entry {
    uint32_t name_offset;
    uint32_t name_len;
    uint32_t shape_len;
    uint32_t prev_same_hash;  // kNone or index of an older entry
  };
  static constexpr uint32_t kNone = ~uint32_t{0};
  // Entries Find() compares one by one, newest first, before it uses (and
  // extends) the hash index.
  static constexpr size_t kLinearLookups = 64;
  // Reserved past max_bytes_: one ordinary entry may be appended before
  // Commit() finds the budget exceeded, without the arena reallocating.
  static constexpr size_t kArenaSlack = size_t{64} << 10;
  // Past the length of an input whose length is known.
  static constexpr size_t kSmallArenaSlack = 256;

  // Memory held: arena, entries and (an estimate of) the index.
  size_t Bytes() const {
    return size_ + entries_.size() * (sizeof(Entry) + 16);
  }
  std::string_view NameOf(const Entry& e) const {
    return std::string_view(arena_.get() + e.name_offset, e.name_len);
  }
  std::string_view ShapeOf(const Entry& e) const {
    return std::string_view(arena_.get() + e.name_offset + e.name_len,
                            e.shape_len);
  }
  // Makes room for `more` bytes past size_ (an entry longer than the
  // slack, or the first Begin).
  void Grow(size_t more);

  size_t max_bytes_;
  int64_t input_bytes_ = -1;
  // The names and shape texts, back to back: a plain buffer (appending is
  // a bounds check and a copy; a vector's insert was several times that).
  // Allocated once and kept by Clear().
  std::unique_ptr<char[]> arena_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::vector<Entry> entries_;
  absl::flat_hash_map<uint64_t, uint32_t> index_;  // name hash -> latest
  size_t indexed_ = 0;                             // entries in index_
  size_t pending_name_offset_ = 0;
  size_t pending_shape_offset_ = 0;
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_SHAPE_TABLE_H_
