// Instruction bodies: the operand list and attributes of a collective
// (parsed into a Collective), and the fast skip of every other instruction.
// Internal to checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_COLLECTIVE_PARSER_H_
#define TOPOLINT_CHECKER_HLO_TEXT_COLLECTIVE_PARSER_H_

#include <cstdint>
#include <string_view>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/shape_table.h"
#include "checker/hlo/text/sharding_attr.h"
#include "checker/hlo/text/value_memo.h"

namespace topolint::hlo {

// Parses `(operands)` and `, attr=value` pairs of a collective; the cursor
// is at '('. Operands written without a shape are resolved in `table`.
// c->operand_shapes may hold more elements than c->operand_count (shapes of
// an earlier collective, kept for their storage): operands are read into
// them, and those left over are dropped. Explicit replica_groups and
// source_target_pairs values are recalled from and remembered in `memo`
// (may be null).
// With `sharding` (may be null), a `sharding=` value is read and recorded
// (sharding_attr.h).
[[nodiscard]] bool ParseCollectiveBody(
    HloLexer& lx, ShapeTable& table, ValueMemo* memo, Collective* c,
    const ShardingTarget* sharding = nullptr);

// After an attribute value: the next byte must end it (',', end of line, a
// comment, '}' or end of file).
[[nodiscard]] bool ExpectValueEnd(HloLexer& lx, std::string_view attr);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_COLLECTIVE_PARSER_H_
