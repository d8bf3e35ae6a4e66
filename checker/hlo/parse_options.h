// What both HLO front ends (checker/hlo/text, checker/hlo/proto) take: the
// limits they enforce, the sink that receives each collective as it is read,
// and the knobs of one parse (ParseOptions). The entry points are
// ParseHloText / ParseHloFile (text/hlo_parser.h), ParseHloProto /
// ParseHloProtoFile (proto/hlo_proto_reader.h) and, text or binary by
// content, ParseHloAny / ParseHloAnyFile (dispatch/parse_any.h).
#ifndef TOPOLINT_CHECKER_HLO_PARSE_OPTIONS_H_
#define TOPOLINT_CHECKER_HLO_PARSE_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "checker/hlo/hlo_module.h"
#include "checker/io/input_file.h"

namespace topolint::hlo {

// Limits. Every one is enforced with a syntax error, never with a crash.
//
// An iota or mesh replica-group list may describe at most this many ids
// (G×S, or the product of the mesh axis sizes): 2^21 = 2,097,152 devices,
// ten times the largest single training jobs reported (100-200k
// accelerators; a 2^21-rank Neuron world is 262,144 Trn2 chips at lnc=1).
// An expanded list costs 8 bytes per id, so one list at the cap is 16 MiB,
// which keeps checking a module within the 64 MiB of docs/reference/quality.md.
// Equal to model::kMaxExpandedIds.
inline constexpr int64_t kMaxExpandedIds = int64_t{1} << 21;
// An explicit `{{...},...}` list (replica_groups, source_target_pairs,
// device_ids) may hold at most this many ids in one instruction.
inline constexpr int64_t kMaxExplicitIds = int64_t{1} << 20;
// One instruction (or header, or computation signature) may span at most
// this many bytes, from its first byte to its last.
inline constexpr int64_t kMaxInstructionBytes = int64_t{64} << 20;
// One name, number or attribute key may be at most this long.
inline constexpr int64_t kMaxTokenBytes = int64_t{64} << 10;
// Brackets ((), [], {}) may nest at most this deep; tuple shapes at most
// kMaxShapeDepth deep.
inline constexpr int kMaxNestingDepth = 1000;
inline constexpr int kMaxShapeDepth = 64;
// After this many syntax errors the parser stops and records one final
// error saying that the rest of the file was not checked.
inline constexpr int kMaxSyntaxErrors = 20;
// Bytes per read. Small enough for the window to stay in the L2 cache while
// it is scanned (measured faster than 1-4 MiB windows on a 300 MB module).
inline constexpr size_t kDefaultWindowBytes = size_t{256} << 10;
// Per-computation budget for the name -> shape table used to resolve
// operands written without a shape. When it is exhausted the table is
// emptied and refilled with later instructions (recent names stay
// resolvable; older ones resolve to an unknown shape).
inline constexpr size_t kMaxShapeTableBytes = size_t{8} << 20;

// Receives each collective as soon as it is parsed, in source order. The
// module's header (file, name, replica_count, num_partitions) is final by
// then; its suppressions and syntax errors are those seen so far. `op` may
// be moved from; it is not kept by the parser.
using CollectiveSink =
    std::function<void(const Module& module, Collective& op)>;

// protobuf's message limit, 2^31 - 1 bytes.
inline constexpr int64_t kMaxProtoBytes = 2147483647;

// Knobs for tests and benchmarks. The defaults are the limits above.
struct ParseOptions {
  size_t window_bytes = kDefaultWindowBytes;  // >= 1
  // Bytes ParseHloFile reads before it gives up (exit 2): the file is
  // streamed, so this bounds time on an endless pipe, not memory.
  int64_t max_file_bytes = kMaxHloBytes;
  int64_t max_instruction_bytes = kMaxInstructionBytes;
  int max_syntax_errors = kMaxSyntaxErrors;
  // When set, collectives go to the sink instead of Module::collectives
  // (which stays empty), so that a caller can check each one and drop it:
  // memory then grows with one collective, not with the module.
  CollectiveSink on_collective;
  // A StableHLO file split by `// -----` lines holds several modules
  // (checker/hlo/mlir/mlir_reader.h): at the end of each but the last, the
  // reader hands the module read so far here (it may be moved from) and
  // goes on with a fresh one in the same `Module*`. Unset, the parts are
  // read into one module.
  std::function<void(Module& finished)> on_module_split;
  // The binary reader skips instructions that are not collectives by their
  // length (checker/hlo/proto/hlo_proto_scan.cc); false decodes every one
  // in full (the differential tests compare both).
  bool binary_fast_path = true;
  // Tests only: the text front end's fast paths to turn off, one bit each
  // (text/fast_path_switch.h); 0 takes them all.
  uint64_t disabled_fast_paths = 0;
  // Bytes of one binary module (inflated, for .pb.gz) the proto reader
  // reads: protobuf's 2 GiB message limit (CodedInputStream counts in int).
  // Tests lower it so as not to inflate 2 GiB.
  int64_t max_proto_bytes = kMaxProtoBytes;
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_PARSE_OPTIONS_H_
