// Instruction bodies: the operand list and attributes of a collective
// (parsed into a Collective), and the fast skip of every other instruction.
// Internal to checker/hlo.
#ifndef TOPOLINT_CHECKER_HLO_COLLECTIVE_PARSER_H_
#define TOPOLINT_CHECKER_HLO_COLLECTIVE_PARSER_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/shape_table.h"
#include "checker/hlo/text/value_memo.h"

namespace topolint::hlo {

struct CollectiveOpcode {
  CollectiveKind kind;
  bool async_start = false;  // all-reduce-start, reduce-scatter-start, ...
};

// ClassifyOpcode's table lookup (only called for opcodes that pass
// MayBeCollectiveOpcode): the entry, or nullptr. (A pointer comes back in a
// register; the optional came back through memory.)
const CollectiveOpcode* LookUpCollectiveOpcode(std::string_view opcode);

// False for most opcodes, cheaply: a collective's opcode has one of the
// lengths below and starts with 'a', 'c', 'r' or 's'. (This runs once per
// instruction of a module, inline; the lookup is a call.)
inline bool MayBeCollectiveOpcode(std::string_view opcode) {
  // all-reduce (10), reduce-scatter (14), all-gather-start (16),
  // ragged-all-to-all (17), collective-permute (18), reduce-scatter-start
  // and collective-broadcast (20), ragged-all-to-all-start (23),
  // collective-permute-start (24), collective-broadcast-start (26), send
  // and recv (4).
  constexpr uint32_t kLengths =
      (1u << 4) | (1u << 10) | (1u << 14) | (1u << 16) | (1u << 17) |
      (1u << 18) | (1u << 20) | (1u << 23) | (1u << 24) | (1u << 26);
  if (opcode.size() >= 32 || ((kLengths >> opcode.size()) & 1u) == 0) {
    return false;
  }
  const char c = opcode[0];
  return c == 'a' || c == 'c' || c == 'r' || c == 's';
}

// The collective an opcode performs; nullopt for every other opcode
// (including the -done / -update halves and async-start, whose wrapped
// collective is recorded in the called computation).
inline std::optional<CollectiveOpcode> ClassifyOpcode(std::string_view opcode) {
  if (!MayBeCollectiveOpcode(opcode)) return std::nullopt;
  if (const CollectiveOpcode* op = LookUpCollectiveOpcode(opcode)) return *op;
  return std::nullopt;
}

// Parses `(operands)` and `, attr=value` pairs of a collective; the cursor
// is at '('. Operands written without a shape are resolved in `table`.
// c->operand_shapes may hold more elements than c->operand_count (shapes of
// an earlier collective, kept for their storage): operands are read into
// them, and those left over are dropped. Explicit replica_groups and
// source_target_pairs values are recalled from and remembered in `memo`
// (may be null).
[[nodiscard]] bool ParseCollectiveBody(HloLexer& lx, ShapeTable& table,
                                       ValueMemo* memo, Collective* c);

// After an attribute value: the next byte must end it (',', end of line, a
// comment, '}' or end of file).
[[nodiscard]] bool ExpectValueEnd(HloLexer& lx, std::string_view attr);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_COLLECTIVE_PARSER_H_
