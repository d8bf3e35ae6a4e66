// `sharding={...}` and `domain={kind="sharding", entry=..., exit=...}` on
// any instruction of HLO text: found where the body is skipped (the fast
// line scan: ScanSkippedLineForShardings; the exact skip and the collective
// attribute reader: ReadShardingAttr), parsed by checker/hlo/sharding
// (ParseShardingText, which knows nothing of this lexer), reported as
// syntax errors at their exact line and column with XLA's messages, and
// recorded into Module::sharding (RecordSharding). Nothing makes the body
// of a non-collective instruction leave its fast path: a line holding no
// `sharding=` costs one SIMD pass over bytes the scan just read.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_SHARDING_ATTR_H_
#define TOPOLINT_CHECKER_HLO_TEXT_SHARDING_ATTR_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "checker/diag/location.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/shape_table.h"

namespace topolint::hlo {

// Where the next `sharding=` of the input is, as far as it was searched
// (absolute byte offsets): one memmem over the rest of the window serves
// every line up to the key it finds, so that a line without a key costs two
// comparisons. One per parse.
struct ShardingKeyScan {
  int64_t searched_to = -1;  // the window was searched up to here
  int64_t next_key = -1;     // the first key found, -1: none before searched_to
};

// The instruction whose attributes are read: what its sharding is checked
// against. Views valid while the instruction is parsed.
// Built for every instruction, so it holds pointers only; the name and the
// shape text are looked up in `table` (its pending entry) when a sharding is
// found.
struct ShardingTarget {
  Module* module = nullptr;
  const ShapeTable* table = nullptr;  // the pending entry: name, shape text
  bool percent = false;               // the name was written with '%'
  bool is_domain = false;             // a `domain` instruction: reads `domain=`
  // The result shape: parsed (collectives), else the table's shape text
  // when `shape_text` (parsed only when a sharding is found), else unknown.
  const Shape* shape = nullptr;
  bool shape_text = false;
  ShardingKeyScan* scan = nullptr;  // the parse's (required by the line scan)
};

// Right after the fast line scan skipped [begin, cursor) (bytes of one
// line, still in the window): every top-level `sharding=` (and, for a
// domain instruction, `domain=`) in it. False only when the parser must
// stop (the error cap).
[[nodiscard]] bool ScanSkippedLineForShardingsSlow(HloLexer& lx,
                                                   const ShardingTarget& target,
                                                   const char* begin);
// The hot check, inline: the last search covers the line and found no key
// in it (a key found before the line is stale: searched again).
[[nodiscard]] inline bool ScanSkippedLineForShardings(
    HloLexer& lx, const ShardingTarget& target, const char* begin) {
  const ShardingKeyScan& scan = *target.scan;
  const int64_t e = lx.Offset();
  if (!target.is_domain && scan.searched_to >= e &&
      (scan.next_key < 0 || scan.next_key >= e)) {
    return true;
  }
  return ScanSkippedLineForShardingsSlow(lx, target, begin);
}

// At the first byte of an attribute (the exact path): when it is
// `sharding=` (or a domain's `domain=`), reads the key and its value,
// handles it and returns true with *handled set; else consumes nothing.
[[nodiscard]] bool ReadShardingAttrIfPresent(HloLexer& lx,
                                             const ShardingTarget& target,
                                             bool* handled);

// The cursor is at the value of an attribute `key` already read (the
// collective attribute reader): the value is read and handled.
[[nodiscard]] bool ReadShardingValue(HloLexer& lx, const ShardingTarget& target,
                                     bool domain);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_SHARDING_ATTR_H_
