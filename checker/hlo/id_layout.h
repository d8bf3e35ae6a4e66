// IdLayout: where the ids of an explicit id list were written, without a
// position per id.
//
// A position per id (16 bytes) costs twice the id itself, and findings need
// the position of one id now and then (the first duplicate, the first id out
// of range). Ids are written in runs with a steady layout: `{0,1,2,...}` on
// one line, `{0, 1, 2}` with one blank after each comma, the packed varints
// of a binary ReplicaGroup. Within a run, id j+1 starts `gap` bytes after the
// end of id j, whose written length follows from its value (its decimal
// digits and sign in text, its varint bytes in a binary module). So the
// layout keeps one Run per stretch of ids that follows that rule, and the
// position of id k is recomputed by re-scanning the ids of its run. A layout
// that breaks the rule (a line break, a comment, a leading zero, a different
// gap) just starts a new run there, so positions are always exact; a list
// written plainly costs one run per line.
//
// Value type. Not thread-safe for concurrent mutation.
#ifndef TOPOLINT_CHECKER_HLO_ID_LAYOUT_H_
#define TOPOLINT_CHECKER_HLO_ID_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "checker/diag/location.h"

namespace topolint::hlo {

class IdLayout {
 public:
  // Bytes an id of value `value` takes as written plainly: its decimal form
  // with a '-' for a negative value (text), or its varint (a binary module:
  // `byte` positions).
  static int64_t WrittenLength(int64_t value, bool byte) {
    return byte ? VarintLength(value) : DecimalLength(value);
  }
  // Bytes of the varint of `value`'s two's-complement bits, 7 per byte
  // (0 takes one; negatives take 10).
  static int64_t VarintLength(int64_t value) {
    return (63 - __builtin_clzll(static_cast<uint64_t>(value) | 1)) / 7 + 1;
  }

  // Back to no ids, keeping the storage.
  void Clear();

  // Records that id number `index` of the list, of value `value`, starts at
  // `pos`. Ids are recorded in list order, index 0 first; an index that does
  // not follow the previous one starts a new run. O(1) amortised.
  void Add(int64_t index, int64_t value, TextPos pos);

  // Records ids number first_index, first_index + 1, ... of the values
  // `values`, written back to back as varints that end at byte `end_byte`
  // (a packed field of a binary module, just read): the same layout as
  // Add() of each id at its byte, without a call per id once the run's
  // gap is known.
  void AddPacked(int64_t first_index, absl::Span<const int64_t> values,
                 int64_t end_byte);
  // The same, when the caller knows where the varints begin (`begin_byte`):
  // O(1) once the run's gap is known, not a varint length per id.
  void AddPacked(int64_t first_index, absl::Span<const int64_t> values,
                 int64_t begin_byte, int64_t end_byte);

  // Moves a layout recorded on one line of text (no byte positions) to
  // `line`, `column_delta` bytes to the right (left when negative): the
  // same ids written at another place (ValueMemo).
  void MoveOnLine(int64_t line, int64_t column_delta);

  // Where id `index` was written: `ids` must be the values recorded (the
  // list's ids, in order). An unknown TextPos when that id was not recorded.
  // O(length of its run).
  TextPos Locate(absl::Span<const int64_t> ids, int64_t index) const;

  // Locates ids in increasing index order in O(1) amortised each (a rule
  // that reports many ids of one list). Borrows the layout and `ids`.
  class Cursor {
   public:
    Cursor(const IdLayout& layout, absl::Span<const int64_t> ids)
        : layout_(layout), ids_(ids) {}
    // As Locate(ids, index); `index` must not be below the previous one.
    TextPos At(int64_t index);

   private:
    const IdLayout& layout_;
    absl::Span<const int64_t> ids_;
    size_t run_ = 0;      // the run of `index_`
    int64_t index_ = -1;  // the last id located (-1: none yet)
    int64_t column_ = 0;  // its column (or byte offset)
  };

  // Number of runs: one for a list written plainly on one line.
  size_t num_runs() const { return runs_.size(); }
  bool empty() const { return runs_.empty(); }

  friend bool operator==(const IdLayout& a, const IdLayout& b);

 private:
  // Ids [first, next run's first) start at pos, then each `gap` bytes after
  // the end of the previous one, on pos.line. gap < 0: the run holds one id.
  struct Run {
    int64_t first = 0;
    TextPos pos;
    int64_t gap = -1;
  };
  // The run holding id `index`, or runs_.size() when none does.
  size_t RunOf(int64_t index) const;
  // Decimal digits of `value`, with its '-'.
  static int64_t DecimalLength(int64_t value);

  std::vector<Run> runs_;
  int64_t last_index_ = -1;  // the last id recorded
  int64_t last_value_ = 0;
  TextPos last_pos_;
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_ID_LAYOUT_H_
