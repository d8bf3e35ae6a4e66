// Streaming reader of binary XLA HLO: HloModuleProto, HloProto, HloSnapshot
// and HloModuleProtoWithConfig, plain or gzip-compressed, told apart by
// content. It fills the same hlo::Module / hlo::Collective model as the text
// parser and feeds the same ParseOptions::on_collective sink, so every HLO
// rule runs unchanged. Text or binary by content: dispatch/parse_any.h.
//
// The file is never held whole: the reader walks the protobuf wire format
// (protobuf's CodedInputStream, no generated code) twice. The first pass
// reads the wrappers and the module's own fields (name, entry computation,
// the config's replica_count / num_partitions, device_assignment, each
// computation's name, id and root) and skips every instruction; the second
// streams the instructions of each computation and hands each collective
// to the sink. Memory is bounded by the largest collective plus a per-
// computation table of instruction shapes (for operands, within
// kMaxBinaryShapeTableBytes). Positions are byte offsets (TextPos::AtByte) into
// the file, or into the decompressed stream for gzip input.
//
// Malformed, truncated or garbage input becomes one `Module::syntax_errors`
// entry saying what was expected and where; the reader never throws,
// never aborts and allocates nothing from a declared length.
#ifndef TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_READER_H_
#define TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_READER_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"

namespace topolint::hlo {

// Reads a binary module held in memory (plain or gzip). `Module::file` is
// set to `display_name`.
void ParseHloProto(std::string_view bytes, const std::string& display_name,
                   const ParseOptions& options, Module* module);

// Reads the binary module in the file at `path` (plain or gzip), streaming.
// A non-OK status only when the file cannot be opened.
absl::Status ParseHloProtoFile(const std::string& path,
                               const std::string& display_name,
                               const ParseOptions& options, Module* module);

// The same for a descriptor the shared opener (OpenInputFd) returned, which
// it closes: a regular file is streamed, each pass from offset 0; a pipe is
// read once into memory, bounded like every pipe input. A non-OK status
// only when a pipe cannot be read.
absl::Status ParseHloProtoFd(int fd, const std::string& display_name,
                             const ParseOptions& options, Module* module);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_READER_H_
