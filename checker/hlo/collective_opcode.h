// Which opcodes are collectives, and of which kind: one table for both front
// ends (the text parser classifies the opcode of each instruction head, the
// binary reader the opcode field of each HloInstructionProto).
#ifndef TOPOLINT_CHECKER_HLO_COLLECTIVE_OPCODE_H_
#define TOPOLINT_CHECKER_HLO_COLLECTIVE_OPCODE_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "checker/hlo/hlo_module.h"

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

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_COLLECTIVE_OPCODE_H_
