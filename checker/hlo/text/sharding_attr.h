// `sharding={...}` and `domain={kind="sharding", entry=..., exit=...}` on
// any instruction of HLO text: found where the body is skipped (the fast
// line scan: ScanSkippedLineForShardings; the exact skip and the collective
// attribute reader: ReadShardingAttr), parsed by checker/hlo/sharding
// (ParseShardingText, which knows nothing of this lexer), reported as
// syntax errors at their exact line and column with XLA's messages, and
// recorded into Module::sharding (RecordSharding). Nothing makes the body
// of a non-collective instruction leave its fast path: the block scanner
// that skips the line tests each '{' it meets at depth 0 for the key
// (FastScan's sharding_keys: `sharding=` and blanks before a '{' at depth
// 0), which also says where the key is: the key is read there, with no
// search of the line (only a line with two such keys or more is searched),
// so a line without one costs nothing more. A `sharding=` whose value
// does not start with '{' (after blanks, or on the next line after `=` +
// line break) is not a sharding annotation, on every path (XLA's parser
// rejects it; a key the line scan cannot see without a pass of its own).
#ifndef TOPOLINT_CHECKER_HLO_TEXT_SHARDING_ATTR_H_
#define TOPOLINT_CHECKER_HLO_TEXT_SHARDING_ATTR_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "checker/diag/location.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/sharding/sharding_text.h"
#include "checker/hlo/text/fast_scan.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/shape_table.h"

namespace topolint::hlo {

// Storage a sharding's handling writes into, kept by the module parser
// across instructions so that it allocates only until it has grown (the
// sharding read, the instruction's name with its '%', its shape parsed from
// the table's text).
struct ShardingScratch {
  ShardingParse parse;
  std::string name;
  Shape shape;
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
  ShardingScratch* scratch = nullptr;  // not null when `module` is not
};

// Right after the fast line scan skipped [begin, cursor) (bytes of one
// line, still in the window), which added to `keys` each '{' that follows
// `sharding=` at depth 0 (FastScan's sharding_keys): every top-level
// `sharding=` (and, for a domain instruction, `domain=`) in it. False only
// when the parser must stop (the error cap).
[[nodiscard]] bool ScanSkippedLineForShardingsSlow(HloLexer& lx,
                                                   const ShardingTarget& target,
                                                   const char* begin,
                                                   const ShardingBraces& keys);
// The hot check, inline: a line without a key costs one test.
[[nodiscard]] inline bool ScanSkippedLineForShardings(
    HloLexer& lx, const ShardingTarget& target, const char* begin,
    const ShardingBraces& keys) {
  if (!keys.any() && !target.is_domain) return true;
  return ScanSkippedLineForShardingsSlow(lx, target, begin, keys);
}

// For the debug re-check of TrySkipLine (fast_path_checks.h): the '{' of
// the first and the last top-level `sharding=` + '{' of the skipped line
// [begin, end), which FastScan's sharding_keys should have reported; both
// null when it holds none.
ShardingBraces LineShardingKeys(const char* begin, const char* end,
                                bool from_operands);

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
