// Shared between the binary HLO reader's driver (hlo_proto_reader.cc), its
// first pass (hlo_proto_header.cc), its second pass (hlo_proto_stream.cc)
// and its instruction decoder (hlo_proto_scan.cc, hlo_proto_instruction.cc,
// hlo_proto_groups.cc, hlo_proto_mesh.cc).
#ifndef TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_INTERNAL_H_
#define TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/proto/hlo_proto_wire.h"

namespace topolint::hlo::proto {

// HloInstructionProto field numbers (xla/service/hlo.proto), for the
// decoder's two stages (hlo_proto_scan.cc, hlo_proto_instruction.cc).
namespace instruction_fields {
enum : uint32_t {
  kName = 1,
  kOpcode = 2,
  kShape = 3,
  kMetadata = 7,
  kDimensions = 14,
  kDynamicSliceSizes = 20,
  kChannelId = 26,
  kId = 35,
  kOperandIds = 36,
  kCalledComputationIds = 38,
  kSharding = 40,
  kReplicaGroups = 49,
  kSourceTargetPairs = 52,
  kDomainEntrySharding = 54,
  kDomainExitSharding = 55,
  kFrontendAttributes = 68,
  kUseGlobalDeviceIds = 71,
  kCollectiveDeviceList = 87,
  kIotaCollectiveDeviceList = 92,
  kMeshAxesReplicaGroupList = 93,
};
}  // namespace instruction_fields

// Names are kept up to this many bytes (longer ones are cut).
inline constexpr size_t kMaxNameBytes = 1024;
// A module may declare at most this many computations.
inline constexpr int64_t kMaxComputations = int64_t{1} << 20;
// Names held for the whole module (computations, and the ops that name a
// finding's place): up to this many bytes in all they are kept whole (each
// up to kMaxNameBytes); past it each further name keeps its first
// kMaxNameBytesOverBudget bytes, held inline in its std::string. So 2^20
// computations with 1 KiB names cost ~80 MiB, not 1 GiB.
inline constexpr size_t kMaxHeldNameBytes = size_t{16} << 20;
inline constexpr size_t kMaxNameBytesOverBudget = 15;
// Collectives whose span (BinaryOpSpans) is kept for naming a finding's
// place ("computation %c, op %ar"): 10x the largest modules seen (~100k
// collectives). Past it a finding's place is "module NAME" (the byte
// offset is still given).
inline constexpr size_t kMaxOpSpans = size_t{1} << 20;
// Replica groups of one group field (empty groups cost no ids but ~16 bytes
// each): as many as ids.
inline constexpr int64_t kMaxReplicaGroups = int64_t{1} << 20;

// Counts the bytes of names kept, and cuts names once kMaxHeldNameBytes
// are held.
class NameBudget {
 public:
  void Keep(std::string* name) {
    const size_t kept = Keep(std::string_view(*name)).size();
    if (kept < name->size()) {
      name->resize(kept);
      name->shrink_to_fit();
    }
  }
  // The part of `name` to keep: all of it within the budget, else its
  // first kMaxNameBytesOverBudget bytes.
  std::string_view Keep(std::string_view name) {
    if (held_ + name.size() > kMaxHeldNameBytes &&
        name.size() > kMaxNameBytesOverBudget) {
      return name.substr(0, kMaxNameBytesOverBudget);
    }
    held_ += name.size();
    return name;
  }

 private:
  size_t held_ = 0;
};
// A repeated id field other than the group lists (operand_ids, ...) may
// hold at most this many values.
inline constexpr int64_t kMaxIdsPerField = int64_t{1} << 20;
// A shape may have at most this many dims (per array) and tuple elements
// (in total).
inline constexpr int64_t kMaxShapeDims = 4096;
inline constexpr int64_t kMaxShapeNodes = int64_t{1} << 16;

// The instructions (field 2, length-delimited: tag byte 0x12) that follow
// held whole in the input buffer, each one's bytes to `take(data, size,
// begin, at)` (`size` bytes at `data`, which start at byte `at` of the
// input, its length prefix at `begin`), then all skipped in one step: both
// passes' hot loop. What is not such an instruction, or is cut by the
// buffer's end, is left to the caller's NextField and Skip, which say what
// is wrong with it. False on error (`take` fails `r` when it returns false).
template <typename Take>
bool TakeHeldInstructions(WireReader& r, Take&& take) {
  const uint8_t* p = nullptr;
  size_t n = 0;
  if (r.depth() >= kMaxMessageDepth || !r.PeekBuffer(&p, &n)) {
    return !r.failed();
  }
  const int64_t at = r.offset();
  size_t i = 0;
  size_t prefix = 0;
  size_t len = 0;
  while (n - i > 1 && p[i] == 0x12 &&
         DecodeHeldLength(p + i + 1, n - i - 1, &prefix, &len)) {
    const int64_t begin = at + static_cast<int64_t>(i) + 1;
    if (!take(p + i + 1 + prefix, len, begin,
              begin + static_cast<int64_t>(prefix))) {
      return false;
    }
    i += 1 + prefix + len;
  }
  return i == 0 ||
         r.SkipBytes("an HloInstructionProto", static_cast<int64_t>(i));
}

// ---- The first pass (hlo_proto_header.cc) --------------------------------

// A computation as the first pass sees it (its instructions skipped).
struct ComputationInfo {
  std::string name;
  std::optional<int64_t> id, root_id;
};

// HloModuleProto.stack_frame_index (17), a StackFrameIndexProto, as far as
// resolving an OpMetadata.stack_frame_id (15) needs it: modern JAX records
// source locations there, not in OpMetadata.source_file / source_line.
// Ids are 1-based positions in these arrays (0: none). The module's table
// is held within kMaxHeldStackFrameBytes; past it nothing is held (`cut`)
// and no id resolves (hlo_proto_stack_frames.cc).
struct StackFrames {
  struct FileLocation {
    int64_t file_name_id = 0;
    int64_t line = 0;
    int64_t column = 0;
  };
  std::vector<std::string> file_names;       // file_names (1)
  std::vector<FileLocation> file_locations;  // file_locations (3)
  // stack_frames (4): each frame's file_location_id (its parent_frame_id
  // is not needed: a collective's location is its innermost frame's).
  std::vector<int64_t> frame_locations;
  size_t held = 0;  // bytes counted against kMaxHeldStackFrameBytes
  bool cut = false;
  // Where the table that went past the bound begins (its field's tag, a
  // byte offset) and its length in bytes, for NoteStackFramesCut.
  int64_t cut_at = -1;
  int64_t cut_bytes = 0;

  // Sets c's source_file, source_line and source_column from the frame
  // `id` names. False, leaving `c` as it is, when an id on the way is out
  // of range.
  bool Resolve(int64_t id, Collective* c) const;
};
inline constexpr size_t kMaxHeldStackFrameBytes = size_t{16} << 20;

// Reads stack_frame_index (17) into `f` (its tag read); a repeated one
// appends, as protobuf merges it.
bool ReadStackFrameIndex(WireReader& r, int wire_type, StackFrames* f);
// A table that was not held (`cut`) is an unchecked-input note on `m` at
// the table, saying its size and the bound: no frame resolved.
void NoteStackFramesCut(const StackFrames& f, Module* m);

// What the first pass learns.
struct Header {
  int depth = 0;  // wrappers around the HloModuleProto
  bool saw_config = false;
  bool found_module = false;
  int64_t module_begin = 0;
  int64_t module_size = -1;  // -1: up to the end of the input
  std::string name;
  std::string entry_name;
  std::optional<int64_t> entry_id;
  std::vector<ComputationInfo> computations;
  std::optional<int64_t> replica_count, num_partitions;
  TextPos replica_count_pos, num_partitions_pos;
  std::optional<int64_t> da_replicas, da_computations;
  TextPos da_replicas_pos, da_computations_pos;
  NameBudget names;
  // spmd_output_sharding (12) and spmd_parameters_shardings (14), each an
  // xla.OpSharding, length-delimited, in the order read: the field, the
  // offset of its bytes and the bytes, for the OpSharding decoder. Held
  // within kMaxHeldShardingBytes in all; past it `shardings_cut` is set and
  // the rest are skipped.
  struct RawSharding {
    uint32_t field = 0;
    int64_t at = 0;
    std::string bytes;
  };
  std::vector<RawSharding> shardings;
  size_t sharding_bytes = 0;  // held in `shardings`
  bool shardings_cut = false;
  // stack_frame_index (17): read by the first pass, as it may follow the
  // computations, so that the second resolves each collective's frame.
  StackFrames stack_frames;
};
// The module shardings (Header::shardings) held at most.
inline constexpr size_t kMaxHeldShardingBytes = size_t{16} << 20;

// Reads the wrappers (HloSnapshot > HloProto, HloModuleProtoWithConfig) and
// the module's own fields from the start of the input, skipping every
// instruction. False on error (r.failed()).
bool ReadHeader(WireReader& r, Header* h);

// "HloModuleProto", "HloProto", ... for the wrapping the first pass found.
const char* FormatName(const Header& h);

// ---- The second pass (hlo_proto_stream.cc) -------------------------------

// The instructions of the module, computation by computation, each
// collective decoded and handed to ParseOptions::on_collective; the other
// instructions skipped, their ids and shapes kept for the operands of later
// collectives (see README.md). Reads the module (its first byte at
// h.module_begin, h.module_size bytes, -1: to the end of the input) from
// the start of `r`'s input; `h` is what the first pass learnt. On error
// (r.failed()) the instruction being read when it struck gets a span of
// Module::binary_ops, naming the finding's place. Returns where reading
// stopped: the reader's offset, or, when an instruction decoded from
// memory failed, where a reader entered into it stopped.
int64_t ReadInstructions(WireReader& r, const Header& h,
                         const ParseOptions& opts, Module* m);

// ---- The second pass's instruction decoder (hlo_proto_instruction.cc,
// hlo_proto_groups.cc, hlo_proto_mesh.cc) ---------------------------------

// One instruction as decoded: the Collective fields (filled for every
// instruction; the caller keeps only collectives) and the ids that the
// caller resolves against the computation.
struct InstructionScratch {
  Collective c;
  bool has_id = false;
  int64_t id = 0;
  std::vector<int64_t> operand_ids;
  std::vector<int64_t> called_ids;
  // dynamic_slice_sizes (20): an in-place collective-permute's slice_sizes
  // lists, flattened (one value per dimension of each list).
  int64_t dynamic_slice_sizes = 0;
  // metadata.stack_frame_id (OpMetadata 15): 0 when absent.
  int64_t stack_frame_id = 0;
  // Which replica-group field filled c.replica_groups (XLA's reader order:
  // replica_groups 49 if non-empty, then 92, 93, 87); 0 = none.
  int groups_rank = 0;
  ReplicaGroups discarded;  // a lower-ranked group field, read and dropped
  std::string key, value;   // frontend attribute scratch
  // Positions of one ReplicaGroup field's ids (ReadReplicaGroup), kept
  // here so that their storage serves every group of the module.
  std::vector<TextPos> id_pos;
  // sharding (40, an xla.OpSharding), length-delimited, as its bytes (the
  // last one wins) and the offset of its first byte; empty when absent.
  // The OpSharding decoder reads them from here.
  std::string sharding;
  int64_t sharding_at = -1;
  // domain_entry_sharding (54) and domain_exit_sharding (55), likewise: a
  // kDomain's shardings, read as the text's `domain={kind="sharding",
  // entry=..., exit=...}`.
  std::string domain_entry, domain_exit;
  int64_t domain_entry_at = -1, domain_exit_at = -1;
  // Where the result shape's bytes lie in the input (the last shape field;
  // shape_end < 0: none), for the caller to keep them as bytes.
  int64_t shape_begin = 0, shape_end = -1;
  // ParseOptions::binary_fast_path (not reset by Clear): a ReplicaGroup or
  // SourceTarget held whole and plain is read in place (ReadPlainGroup,
  // ReadPlainPair in hlo_proto_groups.cc).
  bool fast_paths = true;

  void Clear();
};

// Decodes the fields of one HloInstructionProto; `r` is inside it (a
// reader over its bytes, or entered) and is left at its end. False on
// error (r.failed()).
bool ReadInstruction(WireReader& r, InstructionScratch* s);

// Decodes one ShapeProto (r is inside it).
bool ReadShape(WireReader& r, int depth, int64_t* nodes, Shape* out);

// An xla.OpSharding's `bytes` (at byte `at` of the input), read by the one
// sharding decoder (checker/hlo/sharding) and handed to RecordSharding as
// the text front end hands `sharding={...}`: validated for an instruction
// (`shape`: its result shape, unknown when not read), counted only for the
// module's spmd_* shardings. Empty bytes (replicated) say nothing. A
// malformed OpSharding is malformed protobuf, as any other sub-message:
// false, with its message and byte offset in `error` / `error_at`, for the
// caller to stop reading there (a module has one wire error at most).
//
// `field` says which one it is: 40 (an instruction's sharding), 54 / 55 (a
// domain's entry / exit sharding: counted, not validated, as the text's
// `domain=`) or 12 / 14 (the module's).
bool RecordProtoSharding(std::string_view bytes, int64_t at,
                         std::string_view instruction, const Shape& shape,
                         uint32_t field, Module* m, std::string* error,
                         int64_t* error_at);

// Group fields; `r` is positioned at the field's value (its tag read).
// `id_pos` is scratch for the positions of the ids read (its contents are
// replaced).
// `fast`: one held whole and plain is read in place.
bool ReadReplicaGroup(WireReader& r, int wire_type, ReplicaGroups* out,
                      std::vector<TextPos>* id_pos, bool fast);
// collective_device_list (87).
bool ReadDeviceList(WireReader& r, int wire_type, ReplicaGroups* out,
                    std::vector<TextPos>* id_pos, bool fast);
bool ReadIotaList(WireReader& r, int wire_type, TextPos field_pos,
                  ReplicaGroups* out);
bool ReadMeshList(WireReader& r, int wire_type, TextPos field_pos,
                  ReplicaGroups* out);
// One source_target_pairs (52) value; with `fast`, when it is held whole
// and plain, the plain values that follow it back to back too.
bool ReadSourceTarget(WireReader& r, int wire_type, SourceTargetPairs* out,
                      bool fast);
// `{{0,1},{1,2}}` (the send/recv frontend attribute's value), read by the
// shared ParsePairsText (checker/hlo/pairs_text.h).
inline constexpr std::string_view kSendRecvPairs =
    "_xla_send_recv_source_target_pairs";
bool ReadPairsAttribute(WireReader& r, const std::string& text, TextPos pos,
                        SourceTargetPairs* out);
// (A binary module's group lists carry no `text`: ReplicaGroups::Text()
// describes them as XLA prints them when a message needs it.)

// ---- The decoder's first stage (hlo_proto_scan.cc) -----------------------

// What the first stage reads of an HloInstructionProto in memory:
// the fields that decide whether it is a collective and what a later
// collective may need of it (its id and shape), as views into the bytes
// (so a field's offset in the message is where its view starts).
struct InstructionView {
  std::string_view opcode;  // the first 64 bytes, as ReadInstruction keeps
  std::string_view name;    // for a sharding's messages
  bool has_id = false;
  int64_t id = 0;
  bool has_shape = false;
  std::string_view shape;  // the ShapeProto's bytes (the last one)
  // sharding (40, length-delimited), domain_entry_sharding (54) and
  // domain_exit_sharding (55), the last of each, as InstructionScratch
  // keeps them.
  std::string_view sharding, domain_entry, domain_exit;
};

// Walks the fields of one HloInstructionProto (`size` bytes at `data`)
// without decoding them. False when ReadInstruction must read it instead:
// a tag, length or varint that does not fit, a wire type other than the one
// ReadInstruction expects for a field it reads, or any replica-group or
// pair field (49, 52, 87, 92, 93), which only collectives carry.
bool ScanInstruction(const uint8_t* data, size_t size, InstructionView* v);

// A shape the first stage keeps as bytes is at most this long (a tuple of
// ~5,000 arrays); an instruction with a longer one is decoded in full, so
// that an unknown field inside a shape is skipped, never copied.
inline constexpr size_t kMaxKeptShapeBytes = size_t{64} << 10;

// Bytes the binary reader's shape table holds at most (ShapeTable): half
// the text parser's kMaxShapeTableBytes, since it drops only its older
// half when full (the text table empties itself), so it always holds the
// last ~30,000 instructions' shapes. Operands are almost always recent.
inline constexpr size_t kMaxBinaryShapeTableBytes = size_t{4} << 20;

// Instruction id -> result shape for one computation (operands of later
// collectives are looked up here), within kMaxBinaryShapeTableBytes. Shapes
// the first stage saw are kept as their ShapeProto bytes and decoded only
// when a collective names them; shapes ReadInstruction decoded are kept
// decoded.
//
// Two generations of half the budget each: entries go to the current one;
// when it is full it becomes the old one (the old one's entries are
// dropped, its storage reused) and a new current one starts. A lookup
// tries the current generation, then the old one, so the newest entry of
// an id wins and the shapes of the last half-budget of instructions are
// always held.
//
// Within a generation the raw shapes are a vector in the order kept: XLA
// numbers instructions in order, so while ids only grow a lookup is a
// binary search and keeping one costs an append (no hashing, and dropping
// a generation frees nothing). The first id that does not grow builds an
// id -> entry index for that generation.
class ShapeTable {
 public:
  void Clear();
  // The ShapeProto bytes of instruction `id`, which start at byte `at` of
  // the input (absent: `has_shape` false).
  void KeepRaw(int64_t id, bool has_shape, std::string_view bytes, int64_t at);
  void KeepDecoded(int64_t id, const Shape& shape);
  // The shape of `id` (unknown when not held). A kept ShapeProto that does
  // not decode fails `r` (at its byte) as ReadInstruction would have.
  bool Find(WireReader& r, int64_t id, Shape* out) const;

 private:
  // A generation holds at most this many bytes (the budget's half), each
  // entry counting as kEntryBytes plus its shape's bytes.
  static constexpr size_t kGenerationBytes = kMaxBinaryShapeTableBytes / 2;
  static constexpr size_t kEntryBytes = 48;
  struct Raw {
    int64_t id = 0;
    int64_t at = 0;
    uint32_t offset = 0;  // in Generation::bytes
    uint32_t size = 0;
    bool has_shape = false;
  };
  struct Generation {
    std::vector<Raw> raw;
    bool ordered = true;  // ids in raw strictly increase
    absl::flat_hash_map<int64_t, uint32_t> raw_index;  // when !ordered
    absl::flat_hash_map<int64_t, Shape> decoded;
    int64_t max_decoded = 0;  // the largest id in `decoded`, if any
    std::string bytes;
    size_t held = 0;

    void Clear();
    // The raw entry of `id` (the last one kept), or nullptr.
    const Raw* FindRaw(int64_t id) const;
  };
  // Makes room for `bytes` more in the current generation, starting a new
  // one when it is full.
  void MakeRoom(size_t bytes);
  // The shape of `id` in generation `g`: found (true, *out set, or `r`
  // failed), or not held there (false).
  bool FindIn(const Generation& g, WireReader& r, int64_t id, Shape* out,
              bool* ok) const;
  Generation generations_[2];
  int current_ = 0;
};

// "f32", "bf16", ... for a PrimitiveType number ("type<N>" if unknown),
// into `*out` (its storage kept: no string is built for the usual types).
void ElementTypeName(int64_t type, std::string* out);

}  // namespace topolint::hlo::proto

#endif  // TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_INTERNAL_H_
