// The HLO front end's fast paths and the dispatcher that chooses between
// them and the exact parser: start reading here. (docs/architecture.md,
// "The HLO front end and its fast paths", is the same map as a table;
// tests/hlo/text/fast_path_map_test.cc checks that the two name the same
// functions.)
//
// The exact parser (HloLexer's scanners, ShapeReader, the Parse*Exact
// functions) accepts the grammar of GRAMMAR.md, reports every error at
// its place and reads through a window of any size. Each fast path reads
// straight from the window's bytes (which end with a NUL sentinel and
// InputWindow::kSlackBytes of slack), accepts only the common spelling of
// one construct, and otherwise declines, having consumed nothing; the
// exact parser then decides. Where a fast path accepts, its result and the
// cursor after it are what the exact parser gives: the differential tests
// (tests/hlo/text/fast_path_equivalence_test.cc, fast_scan_test.cc) parse the
// same texts with every fast path switched off (fast_path_switch.h) and
// with them on, and compare.
//
// Each fast path below has a test switch of its name (fast_path_switch.h)
// that turns it off; the differential tests use them to name the fast path
// that disagrees.
//
// Every choice between a fast path and the exact parser is one of the
// functions below, except four that live with the state they need:
//   ModuleParser::ParseInstruction  ScanSimpleHead, else the exact head
//   ModuleParser::ParseSignature    ScanSimpleParam, else exact
//   HloLexer::Scan                  FastScan(kGroup / kValue), else the
//                                   byte loop
//   HloLexer::SkipTrivia (inline)   newline + indentation, else
//                                   SkipTriviaSlow
//
//   construct              fast path (where)                exact parser
//   instruction head       ScanSimpleHead (instruction_     ModuleParser::
//                          head.cc)                         ParseHead
//   signature parameter    ScanSimpleParam (instruction_    ModuleParser::
//                          head.cc)                         ParseSignature
//   instruction body       HloLexer::TrySkipLine (hlo_      HloLexer::SkipGroup
//                          lexer_scan.cc, uses FastScan     + SkipValue
//                          kLine / kBody)
//   bracket group          HloLexer::TrySkipPlainGroup      HloLexer::SkipGroup
//   group / value          FastScan (fast_scan.cc)          HloLexer::Scan
//   shape                  ReadSimpleShape (shape_parser)   ShapeReader
//                          via TryReadShape                 (ParseShape)
//   captured shape text    ReadSimpleShape                  ParseShapeTextExact
//   collective result      ReadSimpleShape on the head's    ParseShapeText
//   shape                  window bytes (ParseResultShape)  (then as above)
//   source_target_pairs    TryRecallPairs (value_memo.cc),  ParseSourceTarget-
//                          then TryParseSimplePairs         PairsExact
//   explicit               TryRecallGroups (value_memo.cc), ParseExplicitGroup-
//   replica_groups         then TryParsePlainGroups         Exact (per group)
//   repeated shapes        TryFindShape, TryRecallShapeAt   as ReadSimpleShape
//                          (value_memo.cc)
//   iota replica_groups    TryParseSimpleIota               ParseIotaGroups-
//                                                           Exact
//   metadata={...}         TryParseSimpleMetadata           ParseMetadataExact
//
// Debug re-checks (RE2's "inconsistency" check, fast_path_check.h): in
// builds without NDEBUG (scripts/sanitize.sh, the fuzzers' debug builds)
// every fast path of the map is re-read by its exact parser where it
// accepted, with HloLexer::ExactOnly keeping the other fast paths out of
// that second reading, and a difference aborts with the fast path's name.
// Each check re-reads only what its fast path read (linear; ids located
// with IdLayout::Cursor, never IdPos per id). Where:
//   fast path               checked in (fast_path_checks.h)   compared
//   ScanSimpleHead          ModuleParser::CheckSimpleHead     ROOT, %, name,
//                                                             shape, opcode, (
//   ScanSimpleParam         ModuleParser::ExactParamAgrees    name, shape, end
//   TryCheckPlainText       HloLexer::FindControlByte         no control byte
//   TrySkipLine             CheckSkippedLine                  end; no missed
//                                                             `sharding=`
//   FastScan                HloLexer::CheckFastScan           end
//   TrySkipPlainGroup       SkipAnyGroup                      end
//   ReadSimpleShape         ParseShapeText, ParseResultShape  shape
//                           (CheckShapeText)
//   TryReadShape,           ParseOperand                      shape, end
//   TryRecallShapeAt
//   TryFindShape            ModuleParser::FinishInstruction   shape
//   TryRecallGroups,        ParseExplicitReplicaGroups        ids, groups,
//   TryParsePlainGroups     (SameExplicitGroups)              every place
//   TryRecallPairs,         ParseSourceTargetPairs            pairs, places
//   TryParseSimplePairs
//   TryParseSimpleIota      ParseIotaGroups                   spec
//   TryParseSimpleMetadata  ParseMetadata                     fields, end
// (The binary reader's ScanInstruction, ReadPlainGroup and ReadPlainPair
// are checked in checker/hlo/proto.)
// Internal to checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_FAST_PATHS_H_
#define TOPOLINT_CHECKER_HLO_TEXT_FAST_PATHS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "checker/diag/location.h"
#include "checker/hlo/fast_path_check.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/sharding_attr.h"
#include "checker/hlo/text/value_memo.h"

namespace topolint::hlo {

// ---- Dispatchers: fast path first, exact parser when it declines --------

// Skips `(operands)` and the attributes of a non-collective instruction; the
// cursor is at '('. Each piece goes through TrySkipLine, then (operands)
// TrySkipPlainGroup, and only then the exact SkipGroup / SkipValue.
// With `sharding` (may be null), the instruction's `sharding=` (and a
// domain's `domain=`) values are read on the way (sharding_attr.h).
[[nodiscard]] bool SkipInstructionBody(
    HloLexer& lx, const ShardingTarget* sharding = nullptr);

// At '(' / '[' / '{': through the matching closer (TrySkipPlainGroup, else
// HloLexer::SkipGroup).
[[nodiscard]] bool SkipAnyGroup(HloLexer& lx);

// Captured shape text into *shape, reusing its storage (ReadSimpleShape,
// else ParseShapeTextExact); false, with *shape unknown, when the text is
// not one complete shape.
// `read_simple`: whether ReadSimpleShape may engage (a test switch).
bool ParseShapeText(std::string_view text, Shape* shape,
                    bool read_simple = true);

// A collective's result shape into *shape, reusing its storage: straight
// from the window where ScanSimpleHead found it (`in_window`, inside a
// window that ends at `window_limit` and has read no more input since;
// empty when the exact head parser read the head), else from `captured`,
// its text in the shape table (ParseShapeText). One read from the window is
// remembered in `memo` (may be null), where the caller looks first
// (ValueMemo::TryFindShape, in ModuleParser::FinishInstruction).
bool ParseResultShape(std::string_view in_window, const char* window_limit,
                      std::string_view captured, ValueMemo* memo, Shape* shape,
                      bool read_simple = true);

// `metadata={...}`; the cursor is at the value's first byte.
[[nodiscard]] bool ParseMetadata(HloLexer& lx, Collective* c);

// RE2's inconsistency check (checker/hlo/fast_path_check.h) around one
// fast path: `fast()` reads a value at the cursor; in debug builds, when
// it accepts, the lexer goes back to where it started (a mark pins the
// window: a fast path reads only within it) and `exact_agrees()` reads the
// same bytes with the exact parser into a value of its own and says
// whether the two are equal; both must stop at the same byte (with
// `blanks_after`, the exact one may also stop after blanks that follow
// where the fast one stopped: a shape's trailing SkipTrivia). Views into the
// window that `fast()` made may be stale after the check (the exact parser may
// have read more input): callers copy what they keep inside `fast()`.
// Release builds run `fast()` alone. Each check re-reads what the fast path
// read once: linear.
template <class Fast, class ExactAgrees>
[[nodiscard]] bool CheckedFastPath(HloLexer& lx, std::string_view name,
                                   Fast fast, ExactAgrees exact_agrees,
                                   bool blanks_after = false) {
  if constexpr (!kCheckFastPaths) {
    (void)name;
    (void)exact_agrees;
    (void)blanks_after;
    return fast();
  } else {
    const HloLexer::Mark mark = lx.SaveMark();  // pins what fast() reads
    const HloLexer::State start = lx.Here();
    if (!fast()) {
      lx.Release();
      return false;
    }
    const HloLexer::State end = lx.Here();
    int64_t stop = end.offset;
    for (const char* q = lx.cursor(); blanks_after && *q == ' '; ++q) ++stop;
    lx.MoveTo(start);
    if (!exact_agrees() || (lx.Offset() != end.offset && lx.Offset() != stop)) {
      FastPathInconsistency(name, mark.offset,
                            "the exact parser reads another value or stops "
                            "elsewhere");
    }
    lx.MoveTo(end);  // as fast() left it (the window may have moved)
    lx.Release();
    return true;
  }
}

// `[G,S]<=[dims]T(perm)`; the cursor is at '['.
// TryParseSimpleIota, else the exact parser.
[[nodiscard]] bool ParseIotaGroups(HloLexer& lx, IotaSpec* out);

// An explicit `replica_groups` value `{{id,...},...}` into *out (its pos
// set); the cursor is at '{'. TryRecallGroups from `memo` (may be null),
// else TryParsePlainGroups (and remembered), else ParseExplicitGroups (the
// exact group parser, per group).
[[nodiscard]] bool ParseExplicitReplicaGroups(HloLexer& lx, ReplicaGroups* out,
                                              ValueMemo* memo);

// `{{s,t},...}` for `attr` (named in messages); the cursor is at '{'.
// Recalled from `memo` (may be null) when it holds the value, else
// TryParseSimplePairs (and remembered), else the exact parser.
[[nodiscard]] bool ParseSourceTargetPairs(HloLexer& lx, std::string_view attr,
                                          SourceTargetPairs* out,
                                          ValueMemo* memo);

// ---- Fast paths (each declines with nothing consumed) -------------------
// HloLexer::TrySkipLine and TrySkipPlainGroup are
// members (hlo_lexer.h); ScanSimpleHead is in instruction_head.h,
// ReadSimpleShape in shape_parser.h, FastScan in fast_scan.h.

// An operand's shape at the cursor (recalled from `memo`, which may be
// null, else ReadSimpleShape over the window, then remembered); true with
// the cursor past it, else false with *shape reset and nothing consumed.
[[nodiscard]] bool TryReadShape(HloLexer& lx, ValueMemo* memo, Shape* shape);

// `{{s,t},{s,t},...}` with no blanks, signs or line breaks
// (group_list_parser.cc). Declines leave `out`'s lists empty.
[[nodiscard]] bool TryParseSimplePairs(HloLexer& lx, SourceTargetPairs* out);

// A plain, valid `[G,S]<=[d,...]` or `[G,S]<=[d,...]T(p,...)` that visibly
// ends (',', '\n', '}' or ')' next) (iota_parser.cc).
[[nodiscard]] bool TryParseSimpleIota(HloLexer& lx, IotaSpec* out);

// `{key="plain string" ... source_line=N}` on one line, other keys with a
// string or digits value (collective_attrs.cc).
[[nodiscard]] bool TryParseSimpleMetadata(HloLexer& lx, Collective* c);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_FAST_PATHS_H_
