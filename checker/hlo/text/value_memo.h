// ValueMemo: the plain values of collective attributes (explicit replica
// groups, source_target_pairs) and the shapes of collectives already
// parsed in a module, recalled when the same bytes come again.
//
// A module repeats a handful of replica_groups and source_target_pairs
// values over thousands of collectives (the tensor-parallel group list, one
// ring of pairs). A value written plainly, with only digits, ',', '{' and
// '}' (so on one line, with no blank, sign, comment or directive), parses
// to the same ids wherever it stands; only its positions move with it. The
// memo keeps the last few such values, their text and their parse, and
// when the bytes at the cursor are one of them it fills the result from
// it, with every position moved to the cursor, and consumes the value.
//
// TryRecall* are fast paths (see fast_paths.h): they read straight from the
// window and decline, with nothing consumed, unless a remembered value lies
// whole inside it, so through a window too small for the value the exact
// parser decides. A recalled value compares equal, positions included, to
// what parsing it would give (tests/hlo/text/value_memo_test.cc).
//
// One per ModuleParser. Not thread-safe; not copyable.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_VALUE_MEMO_H_
#define TOPOLINT_CHECKER_HLO_TEXT_VALUE_MEMO_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/diag/location.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/id_layout.h"
#include "checker/hlo/text/hlo_lexer.h"

namespace topolint::hlo {

class ValueMemo {
 public:
  // Values remembered per kind, and the longest text remembered: of an
  // explicit list or pairs, and of a shape.
  static constexpr size_t kMaxEntries = 8;
  static constexpr size_t kMaxTextBytes = size_t{16} << 10;
  static constexpr size_t kMaxShortTextBytes = 1024;

  ValueMemo() = default;
  ValueMemo(const ValueMemo&) = delete;
  ValueMemo& operator=(const ValueMemo&) = delete;

  // Whether `text` is a value the memo takes: at most kMaxTextBytes of
  // digits, ',', '{' and '}'.
  static bool IsPlainValue(std::string_view text);

  // At the '{' of a source_target_pairs value, *out reset and present with
  // its pos: when the bytes there are a remembered value, fills out->pairs
  // and out->pair_pos, consumes the value and returns true. Else false,
  // nothing consumed or changed.
  [[nodiscard]] bool TryRecallPairs(HloLexer& lx, SourceTargetPairs* out);
  // Remembers `parsed`, just parsed from `text` (written at parsed.pos),
  // when IsPlainValue(text).
  void RememberPairs(std::string_view text, const SourceTargetPairs& parsed);

  // The same for an explicit replica_groups value `{{...},...}`: *out reset,
  // with its pos. Fills form, the ids, group_ends, group_pos, id_layout and
  // explicit_id_count (a capture around the value collects `text`).
  [[nodiscard]] bool TryRecallGroups(HloLexer& lx, ReplicaGroups* out);
  void RememberGroups(std::string_view text, const ReplicaGroups& parsed);

  // Shapes, the same way: collectives repeat a few result and operand
  // shapes. Only shapes ReadSimpleShape read are remembered, and only those
  // that end in '}' or ')', where that reader stops without looking further.
  // A collective's result shape, in two steps: TryFindShape gives the entry
  // whose text is `text` (the shape as the head scan found it), kNoEntry
  // when none (entries are numbered below kMaxEntries); RecallShapeInto
  // makes *shape that entry's shape, reusing its storage (a caller that
  // keeps one Shape per entry to recall into copies little).
  // TryRecallShapeAt: the bytes at `p` (in a window ending at `limit`)
  // begin with a remembered shape; *shape becomes it and the end of its
  // text comes back, else nullptr.
  static constexpr size_t kNoEntry = ~size_t{0};
  size_t TryFindShape(std::string_view text) const;
  void RecallShapeInto(size_t entry, Shape* shape);
  [[nodiscard]] const char* TryRecallShapeAt(const char* p, const char* limit,
                                             Shape* shape);
  // Remembers `shape`, which ReadSimpleShape read from `text`.
  void RememberShape(std::string_view text, const Shape& shape);

  // Values and shapes recalled so far (tests and benchmarks).
  int64_t recalled() const { return recalled_; }

 private:
  struct PairsEntry {
    std::string text;
    TextPos pos;
    std::vector<std::pair<int64_t, int64_t>> pairs;
    std::vector<TextPos> pair_pos;
  };
  struct GroupsEntry {
    std::string text;
    TextPos pos;
    std::vector<int64_t> ids;
    std::vector<int64_t> group_ends;
    std::vector<TextPos> group_pos;
    IdLayout id_layout;
  };

  struct ShapeEntry {
    std::string text;
    Shape shape;
  };

  // The last kMaxEntries entries of one kind: Next() is a new entry until
  // there are that many, then each old one in turn.
  template <typename Entry>
  struct Ring {
    std::vector<Entry> entries;
    size_t next = 0;
    Entry& Next() {
      if (entries.size() < kMaxEntries) return entries.emplace_back();
      Entry& e = entries[next];
      next = (next + 1) % kMaxEntries;
      return e;
    }
  };

  Ring<PairsEntry> pairs_;
  Ring<GroupsEntry> groups_;
  Ring<ShapeEntry> shapes_;
  int64_t recalled_ = 0;
};

// Runs `parse` (a fast path that reads straight from the window, so the
// window still holds what it consumed) and, when it accepts and `memo` is
// not null, calls `remember(memo, text)` with the bytes it consumed.
template <typename Parse, typename Remember>
bool ParseRemembering(HloLexer& lx, ValueMemo* memo, Parse parse,
                      Remember remember) {
  const char* const start = lx.cursor();
  if (!parse()) return false;
  if (memo != nullptr) {
    remember(memo,
             std::string_view(start, static_cast<size_t>(lx.cursor() - start)));
  }
  return true;
}

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_VALUE_MEMO_H_
