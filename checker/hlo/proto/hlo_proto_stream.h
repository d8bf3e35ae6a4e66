// The binary reader's second pass: the instructions of the module,
// computation by computation, each collective decoded and handed to
// ParseOptions::on_collective; the other instructions skipped, their ids
// and shapes kept for the operands of later collectives (see README.md).
#ifndef TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_STREAM_H_
#define TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_STREAM_H_

#include <cstdint>
#include <memory>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_wire.h"

namespace topolint::hlo::proto {

class InstructionWalk;

class InstructionStream {
 public:
  // `h` is what the first pass learnt; `r` reads the module's fields.
  InstructionStream(WireReader& r, const Header& h, const ParseOptions& opts,
                    Module* m);
  ~InstructionStream();
  InstructionStream(const InstructionStream&) = delete;
  InstructionStream& operator=(const InstructionStream&) = delete;

  // Reads the module's fields to its end; false on error (r.failed()).
  bool Run();
  // After an error: names the instruction being read when it struck (a
  // span of Module::binary_ops, for the finding's place).
  void NoteFailure();
  // Where reading stopped: the reader's offset, or, when an instruction
  // decoded from memory failed, where a reader entered into it stopped.
  int64_t offset() const;

 private:
  std::unique_ptr<InstructionWalk> walk_;
};

}  // namespace topolint::hlo::proto

#endif  // TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_STREAM_H_
