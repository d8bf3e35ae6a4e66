// Shared between the binary HLO reader's driver and second pass
// (hlo_proto_reader.cc), its first pass (hlo_proto_header.cc) and its
// instruction decoder (hlo_proto_instruction.cc, hlo_proto_groups.cc,
// hlo_proto_mesh.cc).
#ifndef TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_INTERNAL_H_
#define TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/proto/hlo_proto_wire.h"

namespace topolint::hlo::proto {

// HloInstructionProto field numbers (xla/service/hlo.proto), for the full
// decoder (hlo_proto_instruction.cc) and the fast path (hlo_proto_scan.cc).
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
  kReplicaGroups = 49,
  kSourceTargetPairs = 52,
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

// ---- The first pass (hlo_proto_header.cc) --------------------------------

// A computation as the first pass sees it (its instructions skipped).
struct ComputationInfo {
  std::string name;
  bool has_id = false;
  int64_t id = 0;
  bool has_root = false;
  int64_t root_id = 0;
};

// What the first pass learns.
struct Header {
  int depth = 0;  // wrappers around the HloModuleProto
  bool saw_config = false;
  bool found_module = false;
  int64_t module_begin = 0;
  int64_t module_size = -1;  // -1: up to the end of the input
  std::string name;
  std::string entry_name;
  bool has_entry_id = false;
  int64_t entry_id = 0;
  std::vector<ComputationInfo> computations;
  std::optional<int64_t> replica_count, num_partitions;
  TextPos replica_count_pos, num_partitions_pos;
  std::optional<int64_t> da_replicas, da_computations;
  TextPos da_replicas_pos, da_computations_pos;
  NameBudget names;
};

// Reads the wrappers (HloSnapshot > HloProto, HloModuleProtoWithConfig) and
// the module's own fields from the start of the input, skipping every
// instruction. False on error (r.failed()).
bool ReadHeader(WireReader& r, Header* h);

// "HloModuleProto", "HloProto", ... for the wrapping the first pass found.
const char* FormatName(const Header& h);

// ---- The second pass's instruction decoder (hlo_proto_instruction.cc,
// hlo_proto_groups.cc) --------------------------------------------------

// The last few ShapeProtos decoded in place, by their bytes: the
// collectives of a module repeat a handful of result and operand shapes,
// and the same bytes decode to the same Shape (DecodeShapeRemembered).
struct ShapeMemo {
  static constexpr int kEntries = 4;
  static constexpr size_t kMaxBytes = 256;
  struct Entry {
    std::string bytes;  // empty: nothing remembered
    Shape shape;
  };
  Entry entries[kEntries];
  int next = 0;  // the entry the next shape replaces
};

// The last run of source_target_pairs (52) fields decoded in place at the
// start of an instruction's pairs: its bytes (from the first pair's length
// to the end of the last pair), the pairs and each pair's offset from the
// run's start. A collective-permute repeats the ring of the one before, so
// the next run with the same bytes is recalled, not decoded
// (ReadSourceTarget).
struct PairsMemo {
  static constexpr size_t kMaxBytes = size_t{16} << 10;
  std::string bytes;  // empty: nothing remembered
  std::vector<std::pair<int64_t, int64_t>> pairs;
  std::vector<int64_t> offsets;
};

// The last run of groups read in place (ReadGroupRunInPlace): its bytes
// (from the first group's length to the end of the last group), the ids,
// and per group its id count, the offsets of its length and of its packed
// ids and the end of those, from the run's start. A module repeats a handful of
// group lists, and the next run with the same bytes is recalled, not decoded.
// One memo serves one GroupRun (the bytes between the groups differ).
struct GroupsMemo {
  std::string bytes;  // empty: nothing remembered
  std::vector<int64_t> ids;
  std::vector<int64_t> sizes;
  std::vector<int64_t> starts;
  std::vector<int64_t> id_begins;  // where each group's packed ids begin
  std::vector<int64_t> ends;
};

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
  // Which replica-group field filled c.replica_groups (XLA's reader order:
  // replica_groups 49 if non-empty, then 92, 93, 87); 0 = none.
  int groups_rank = 0;
  ReplicaGroups discarded;  // a lower-ranked group field, read and dropped
  std::string key, value;   // frontend attribute scratch
  // Positions of one ReplicaGroup field's ids (ReadReplicaGroup), kept
  // here so that their storage serves every group of the module.
  std::vector<TextPos> id_pos;
  // The ShapeProto bytes of the result shape when it was decoded in place
  // (ReadShapeInPlace; the last shape field wins): the caller keeps those
  // in its ShapeTable instead of a decoded copy. `shape_at` is the byte
  // offset of the bytes in the input.
  bool shape_raw = false;
  std::string shape_bytes;
  int64_t shape_at = 0;
  // ParseOptions::binary_fast_path (not reset by Clear): the shape and the
  // group runs held whole in the buffer are read in place (DecodeShape,
  // ReadGroupRunInPlace), and the memos below are used.
  bool fast_paths = true;
  // Kept from one instruction to the next (not reset by Clear).
  PairsMemo pairs_memo;
  ShapeMemo shape_memo;
  GroupsMemo groups_memo;       // runs of replica_groups (49)
  GroupsMemo device_list_memo;  // runs inside collective_device_list (87)

  void Clear();
};

// The decoders below are templates over the wire walker: WireReader (the
// judge, over any input) and MemReader (hlo_proto_mem_reader.h: a message
// held whole in memory, the second pass's fast path). Both are
// instantiated in the files that define them.
//
// Decodes the fields of one HloInstructionProto; `r` is inside it (after
// Enter) and is left at its end. False on error (r.failed()).
template <class Reader>
bool ReadInstruction(Reader& r, InstructionScratch* s);

// Decodes one ShapeProto (r is inside it).
template <class Reader>
bool ReadShape(Reader& r, int depth, int64_t* nodes, Shape* out);
// The fast path of ReadShape, for a ShapeProto held whole in memory
// (hlo_proto_scan.cc): the same Shape, or false, leaving `out` to be
// cleared, on anything ReadShape would refuse (the caller then decodes it
// with ReadShape, which says what is wrong) and on tuples nested more than
// kMaxFastShapeDepth deep.
inline constexpr int kMaxFastShapeDepth = 8;
bool DecodeShape(const uint8_t* data, size_t size, int depth, int64_t* nodes,
                 Shape* out);
// DecodeShape of a whole ShapeProto, recalled from `memo` when it holds the
// same bytes, and remembered there when decoded.
bool DecodeShapeRemembered(const uint8_t* data, size_t size, ShapeMemo* memo,
                           Shape* out);

// Group fields; `r` is positioned at the field's value (its tag read).
// `id_pos` is scratch for the positions of the ids read (its contents are
// replaced).
template <class Reader>
bool ReadReplicaGroup(Reader& r, int wire_type, ReplicaGroups* out,
                      std::vector<TextPos>* id_pos);
// Where a run of groups lies: replica_groups (49) fields of the
// instruction, or the replica_groups (1) fields of a
// CollectiveDeviceListProto (87), inside its bounds.
enum class GroupRun { kReplicaGroups, kDeviceList };

// The group field of `run` at the reader (its tag read, its wire type
// length-delimited) and the ones of the same field that follow it in a
// row, each a ReplicaGroup of one packed replica_ids field as XLA writes
// them, held in the input buffer: read in place into `out` (empty: no
// group read into it yet) as ReadReplicaGroup reads them one by one, or
// recalled from `memo` (that run's own) when the run has its bytes, and
// skipped. The first group that is not so plain (or would pass a limit)
// ends the run, for ReadReplicaGroup to read. False, having read nothing,
// when the first is not.
template <class Reader>
bool ReadGroupRunInPlace(Reader& r, GroupRun run, ReplicaGroups* out,
                         GroupsMemo* memo);
// collective_device_list (87); its runs of plain groups are read in place
// with `memo` (ReadGroupRunInPlace) unless it is null.
template <class Reader>
bool ReadDeviceList(Reader& r, int wire_type, ReplicaGroups* out,
                    std::vector<TextPos>* id_pos, GroupsMemo* memo);
template <class Reader>
bool ReadIotaList(Reader& r, int wire_type, TextPos field_pos,
                  ReplicaGroups* out);
template <class Reader>
bool ReadMeshList(Reader& r, int wire_type, TextPos field_pos,
                  ReplicaGroups* out);
// One source_target_pairs (52) value; the pairs that follow it in a row
// (each with its tag), held in the input buffer, are read with it. `memo`
// (may be null) recalls a run the last instruction had.
template <class Reader>
bool ReadSourceTarget(Reader& r, int wire_type, SourceTargetPairs* out,
                      PairsMemo* memo);
// `{{0,1},{1,2}}` (the send/recv frontend attribute's value), read by the
// shared ParsePairsText (checker/hlo/pairs_text.h).
inline constexpr std::string_view kSendRecvPairs =
    "_xla_send_recv_source_target_pairs";
template <class Reader>
bool ReadPairsAttribute(Reader& r, const std::string& text, TextPos pos,
                        SourceTargetPairs* out);
// (A binary module's group lists carry no `text`: ReplicaGroups::Text()
// describes them as XLA prints them when a message needs it.)

// ---- The second pass's fast path (hlo_proto_scan.cc) ---------------------

// What the fast path reads of an HloInstructionProto held whole in memory:
// the fields that decide whether it is a collective and what a later
// collective may need of it (its id and shape), as views into the bytes.
struct InstructionView {
  std::string_view opcode;  // the first 64 bytes, as ReadInstruction keeps
  bool has_id = false;
  int64_t id = 0;
  bool has_shape = false;
  std::string_view shape;   // the ShapeProto's bytes (the last one)
  size_t shape_offset = 0;  // of `shape` from the start of the message
};

// Walks the fields of one HloInstructionProto (`size` bytes at `data`)
// without decoding them. False when ReadInstruction must read it instead:
// a tag, length or varint that does not fit, a wire type other than the one
// ReadInstruction expects for a field it reads, or any replica-group or
// pair field (49, 52, 87, 92, 93), which only collectives carry.
bool ScanInstruction(const uint8_t* data, size_t size, InstructionView* v);

// A shape the fast path keeps as bytes is at most this long (a tuple of
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
// the fast path saw are kept as their ShapeProto bytes and decoded only
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
  // the input (absent: `has_shape` false). Inline for the usual case (ids
  // growing, room in the current generation); KeepRawSlow otherwise.
  void KeepRaw(int64_t id, bool has_shape, std::string_view bytes, int64_t at) {
    Generation& g = generations_[current_];
    const size_t need = kEntryBytes + bytes.size();
    if (g.ordered && (g.decoded.empty() || id > g.max_decoded) &&
        !g.raw.empty() && g.held + need <= kGenerationBytes &&
        id > g.raw.back().id) {
      g.held += need;
      g.raw.push_back(Raw{id, at, static_cast<uint32_t>(g.bytes.size()),
                          static_cast<uint32_t>(bytes.size()), has_shape});
      g.bytes.append(bytes);
      return;
    }
    KeepRawSlow(id, has_shape, bytes, at);
  }
  void KeepDecoded(int64_t id, const Shape& shape);
  // The shape of `id` (unknown when not held). A kept ShapeProto that does
  // not decode fails `r` (at its byte) as ReadInstruction would have.
  bool Find(WireReader& r, int64_t id, Shape* out) const;
  // Kept shapes are decoded in place (DecodeShape) first:
  // ParseOptions::binary_fast_path.
  void set_fast(bool fast) { fast_ = fast; }

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
  void KeepRawSlow(int64_t id, bool has_shape, std::string_view bytes,
                   int64_t at);
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
  bool fast_ = true;
  mutable ShapeMemo memo_;  // the operand shapes Find decoded last
};

// "f32", "bf16", ... for a PrimitiveType number ("type<N>" if unknown).
std::string ElementTypeName(int64_t type);

}  // namespace topolint::hlo::proto

#endif  // TOPOLINT_CHECKER_HLO_PROTO_HLO_PROTO_INTERNAL_H_
