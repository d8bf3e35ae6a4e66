// Instruction bodies: the operand list and attributes of a collective
// (parsed into a Collective), and the fast skip of every other instruction.
// Internal to checker/hlo.
#ifndef TOPOLINT_CHECKER_HLO_COLLECTIVE_PARSER_H_
#define TOPOLINT_CHECKER_HLO_COLLECTIVE_PARSER_H_

#include <optional>
#include <string_view>

#include "checker/hlo/hlo_lexer.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/shape_table.h"

namespace topolint::hlo {

struct CollectiveOpcode {
  CollectiveKind kind;
  bool async_start = false;  // all-reduce-start, reduce-scatter-start, ...
};

// The collective an opcode performs; nullopt for every other opcode
// (including the -done / -update halves and async-start, whose wrapped
// collective is recorded in the called computation).
std::optional<CollectiveOpcode> ClassifyOpcode(std::string_view opcode);

// Parses `(operands)` and `, attr=value` pairs of a collective; the cursor
// is at '('. Operands written without a shape are resolved in `table`.
[[nodiscard]] bool ParseCollectiveBody(HloLexer& lx, ShapeTable& table,
                                       Collective* c);

// After an attribute value: the next byte must end it (',', end of line, a
// comment, '}' or end of file).
[[nodiscard]] bool ExpectValueEnd(HloLexer& lx, std::string_view attr);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_COLLECTIVE_PARSER_H_
