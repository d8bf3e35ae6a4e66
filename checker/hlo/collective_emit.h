// Where both front ends finish a collective and hand it on: what its opcode
// says (kind, async start), whether it is a collective at all (a send or
// recv only with its pairs attribute), and the sink or the module's list.
// The text parser (text/module_parser_body.cc, FinishInstruction) and the
// binary reader (proto/hlo_proto_stream.cc, InstructionWalk::Finish)
// fill the rest of the record and call these.
#ifndef TOPOLINT_CHECKER_HLO_COLLECTIVE_EMIT_H_
#define TOPOLINT_CHECKER_HLO_COLLECTIVE_EMIT_H_

#include "checker/hlo/collective_opcode.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"

namespace topolint::hlo {

// The fields of `c` its opcode decides.
inline void SetCollectiveOpcode(const CollectiveOpcode& op, Collective* c) {
  c->kind = op.kind;
  c->is_async_start = op.async_start;
}

// False for a send or recv without `_xla_send_recv_source_target_pairs`:
// a point-to-point transfer with no pairs to check is no collective here.
inline bool IsEmittedCollective(const Collective& c) {
  const bool send_recv =
      c.kind == CollectiveKind::kSend || c.kind == CollectiveKind::kRecv;
  return !send_recv || c.source_target_pairs.present;
}

// Hands `c` to `sink`, or (without one) moves it to module->collectives.
inline void EmitCollective(const CollectiveSink& sink, Module* module,
                           Collective& c) {
  if (!module->sharding.frozen) {
    module->sharding.frozen = true;
    module->sharding.tile_counts_at_first_collective =
        module->sharding.tile_counts;
  }
  if (sink) {
    sink(*module, c);
  } else {
    module->collectives.push_back(std::move(c));
  }
}

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_COLLECTIVE_EMIT_H_
