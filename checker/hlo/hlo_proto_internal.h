// Shared between the binary HLO reader's passes (hlo_proto_reader.cc) and
// its instruction decoder (hlo_proto_instruction.cc, hlo_proto_groups.cc).
#ifndef TOPOLINT_CHECKER_HLO_HLO_PROTO_INTERNAL_H_
#define TOPOLINT_CHECKER_HLO_HLO_PROTO_INTERNAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/hlo_proto_wire.h"

namespace topolint::hlo::proto {

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
// Collectives whose span (BinaryOpSpan) is kept for naming a finding's
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
    if (held_ + name->size() > kMaxHeldNameBytes &&
        name->size() > kMaxNameBytesOverBudget) {
      name->resize(kMaxNameBytesOverBudget);
      name->shrink_to_fit();
      return;
    }
    held_ += name->size();
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

  void Clear();
};

// Decodes the fields of one HloInstructionProto; `r` is inside it (after
// Enter) and is left at its end. False on error (r.failed()).
bool ReadInstruction(WireReader& r, InstructionScratch* s);

// Decodes one ShapeProto (r is inside it).
bool ReadShape(WireReader& r, int depth, int64_t* nodes, Shape* out);

// Group fields; `r` is positioned at the field's value (its tag read).
bool ReadReplicaGroup(WireReader& r, int wire_type, ReplicaGroups* out);
bool ReadDeviceList(WireReader& r, int wire_type, ReplicaGroups* out);
bool ReadIotaList(WireReader& r, int wire_type, TextPos field_pos,
                  ReplicaGroups* out);
bool ReadMeshList(WireReader& r, int wire_type, TextPos field_pos,
                  ReplicaGroups* out);
bool ReadSourceTarget(WireReader& r, int wire_type, SourceTargetPairs* out);
// `{{0,1},{1,2}}` (the send/recv frontend attribute's value).
bool ParsePairsText(WireReader& r, const std::string& text, TextPos pos,
                    SourceTargetPairs* out);
// Sets ReplicaGroups::text from the decoded value (as XLA prints it).
void DescribeGroups(ReplicaGroups* rg);

// "f32", "bf16", ... for a PrimitiveType number ("type<N>" if unknown).
std::string ElementTypeName(int64_t type);

}  // namespace topolint::hlo::proto

#endif  // TOPOLINT_CHECKER_HLO_HLO_PROTO_INTERNAL_H_
