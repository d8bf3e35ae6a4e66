#include "checker/hlo/text/fast_path_checks.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "checker/hlo/fast_path_check.h"
#include "checker/hlo/id_layout.h"
#include "checker/hlo/text/byte_classes.h"
#include "checker/hlo/text/shape_parser.h"
#include "checker/hlo/text/sharding_attr.h"

namespace topolint::hlo {

bool SameShape(const Shape& a, const Shape& b) {
  if (a.known != b.known || a.is_tuple != b.is_tuple) return false;
  if (!a.known) return true;
  if (a.is_tuple) {
    return std::equal(a.tuple.begin(), a.tuple.end(), b.tuple.begin(),
                      b.tuple.end(), SameShape);
  }
  return a.element_type == b.element_type && a.dims == b.dims;
}

bool SamePositions(const std::vector<TextPos>& a,
                   const std::vector<TextPos>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const TextPos& x, const TextPos& y) {
                      return x.line == y.line && x.column == y.column;
                    });
}

bool SameExplicitGroups(const ReplicaGroups& a, const ReplicaGroups& b) {
  if (a.form != b.form || a.group_ends != b.group_ends ||
      !SamePositions(a.group_pos, b.group_pos) ||
      !std::equal(a.ids().begin(), a.ids().end(), b.ids().begin(),
                  b.ids().end())) {
    return false;
  }
  // Cursors, not IdPos per id: O(n) for n ids.
  IdLayout::Cursor at_a(a.id_layout, a.ids());
  IdLayout::Cursor at_b(b.id_layout, b.ids());
  const auto n = static_cast<int64_t>(a.ids().size());
  for (int64_t k = 0; k < n; ++k) {
    const TextPos x = at_a.At(k);
    const TextPos y = at_b.At(k);
    if (x.line != y.line || x.column != y.column) return false;
  }
  return true;
}

void CheckShapeText(std::string_view fast_path, std::string_view text,
                    const Shape& fast) {
  Shape exact;
  if (!ParseShapeTextExact(text, &exact) || !SameShape(exact, fast)) {
    FastPathInconsistency(fast_path, -1,
                          "the exact parser reads another shape from its "
                          "text");
  }
}

void CheckSkippedLine(HloLexer& lx, const HloLexer::Mark& mark,
                      bool from_operands, bool with_sharding,
                      const ShardingBraces& sharding_keys) {
  const HloLexer::State fast_end = lx.Here();
  const char* const fast_begin = lx.cursor() - (fast_end.offset - mark.offset);
  lx.Restore(mark);
  const HloLexer::Mark again = lx.SaveMark();  // pins the line's bytes
  const char* const begin = lx.cursor();
  const char* const end = begin + (fast_end.offset - again.offset);
  if (with_sharding) {
    // The reported braces, at their place in the line as it is now.
    const auto at = [&](const char* brace) {
      return brace == nullptr ? nullptr : begin + (brace - fast_begin);
    };
    const char* const first = at(sharding_keys.first);
    const char* const last = at(sharding_keys.last);
    const ShardingBraces exact = LineShardingKeys(begin, end, from_operands);
    if (exact.any() &&
        (first == nullptr || first > exact.first || last < exact.last)) {
      FastPathInconsistency("TrySkipLine", again.offset,
                            "the block scanner missed a sharding= key");
    }
  }
  // The fast scan may stop at a blank where the exact one stops after the
  // run (SkipInstructionBody skips it next either way).
  const char* stop = end;
  while (*stop == ' ') ++stop;  // the window's NUL stops it
  {
    const HloLexer::ExactOnly exact(lx);
    bool ok = from_operands ? lx.SkipGroup() : lx.SkipValue();
    while (ok) {
      lx.SkipBlanks();
      if (lx.Peek() != ',') break;
      lx.Bump();
      lx.SkipBlanks();
      if (lx.Peek() == '\n' || lx.Peek() == kEof) break;
      ok = lx.SkipValue();
    }
    lx.SkipBlanks();
    if (!ok || lx.Offset() != again.offset + (stop - begin)) {
      FastPathInconsistency("TrySkipLine", again.offset,
                            "the exact scanners stop elsewhere");
    }
  }
  lx.MoveTo(fast_end);  // (the window may have moved)
  lx.Release();
}

}  // namespace topolint::hlo
