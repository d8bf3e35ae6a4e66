// The fast path for the head of an instruction as XLA prints it,
// `[ROOT ]%name = shape opcode(`, scanned straight from the window's bytes.
// It accepts only the plain, common spelling and declines everything else
// (comments, line breaks, strings, `/*index=N*/`, tiled layouts, buffers,
// dynamic dimensions, shape-less instructions), so that the exact parser
// decides those; where it accepts, the result is what the exact parser
// would read. Internal to checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_INSTRUCTION_HEAD_H_
#define TOPOLINT_CHECKER_HLO_TEXT_INSTRUCTION_HEAD_H_

#include <cstddef>
#include <string_view>

namespace topolint::hlo {

struct SimpleHead {
  bool is_root = false;
  bool percent = false;    // the name was written with '%'
  std::string_view name;   // without '%'
  std::string_view shape;  // the shape text as written
  std::string_view opcode;
  size_t opcode_offset = 0;    // bytes from the start to the opcode
  const char* open = nullptr;  // the '(' after the opcode
};

// Scans the head starting at `start`. The bytes must end with a NUL (the
// window's sentinel) followed by at least 15 readable bytes (the window's
// slack): runs of bytes are scanned 16 at a time. Returns false, with `*out`
// unspecified, when the head is not the plain form.
[[nodiscard]] bool ScanSimpleHead(const char* start, SimpleHead* out);

// One parameter of a computation's signature as XLA prints it, `name: shape`
// (the name may have a '%'), at `start`, with the shape plain as
// ScanSimpleHead's and followed right away by ',' or ')'. The same slack
// requirement as ScanSimpleHead. False (`*out` unspecified) otherwise: the
// exact path (ModuleParser::ParseSignature) then decides.
struct SimpleParam {
  std::string_view name;      // as written (with its '%', if any)
  std::string_view shape;     // the shape text as written
  const char* end = nullptr;  // the ',' or ')' after the shape
};
[[nodiscard]] bool ScanSimpleParam(const char* start, SimpleParam* out);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_INSTRUCTION_HEAD_H_
