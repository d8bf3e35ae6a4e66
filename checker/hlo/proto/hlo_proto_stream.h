// The binary reader's second pass: the instructions of the module,
// computation by computation, each collective decoded and handed to
// ParseOptions::on_collective; the other instructions skipped, their ids
// and shapes kept for the operands of later collectives (see README.md).
#ifndef TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_STREAM_H_
#define TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_STREAM_H_

#include <cstdint>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_wire.h"

namespace topolint::hlo::proto {

// Reads the module (its first byte at h.module_begin, h.module_size bytes,
// -1: to the end of the input) from the start of `r`'s input; `h` is what
// the first pass learnt. On error (r.failed()) the instruction being read
// when it struck gets a span of Module::binary_ops, naming the finding's
// place. Returns where reading stopped: the reader's offset, or, when an
// instruction decoded from memory failed, where a reader entered into it
// stopped.
int64_t ReadInstructions(WireReader& r, const Header& h,
                         const ParseOptions& opts, Module* m);

}  // namespace topolint::hlo::proto

#endif  // TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_STREAM_H_
