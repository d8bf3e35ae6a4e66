// The binary reader's second pass (hlo_proto_stream.h).
#include "checker/hlo/proto/hlo_proto_stream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checker/hlo/collective_emit.h"
#include "checker/hlo/collective_opcode.h"
#include "checker/hlo/proto/hlo_proto_mem_reader.h"

namespace topolint::hlo::proto {

// What InstructionStream does.
class InstructionWalk {
 public:
  InstructionWalk(WireReader& r, const Header& h, const ParseOptions& opts,
                  Module* m)
      : r_(r), h_(h), opts_(opts), m_(m) {
    s_.fast_paths = opts.binary_fast_path;
    shapes_.set_fast(opts.binary_fast_path);
    // id -> computation index, sorted (16 bytes per computation).
    for (size_t i = 0; i < h.computations.size(); ++i) {
      const ComputationInfo& c = h.computations[i];
      if (c.has_id) names_.emplace_back(c.id, static_cast<uint32_t>(i));
    }
    std::stable_sort(
        names_.begin(), names_.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
  }

  bool Run() {
    uint32_t field = 0;
    int wt = 0;
    size_t index = 0;
    while (r_.NextField("HloModuleProto", &field, &wt)) {
      bool ok;
      if (field == 3) {
        ok = Computation(wt, index++);
      } else {
        ok = r_.Skip("an HloModuleProto field", wt);
      }
      if (!ok) return false;
    }
    return !r_.failed();
  }

  // The instruction being read when an error struck (for its location).
  void NoteFailure() {
    if (in_instruction_ && !s_.c.name.empty()) {
      AddSpan(instruction_begin_,
              std::max(r_.error_offset(), instruction_begin_) + 1,
              "%" + s_.c.name);
    }
  }

 private:
  bool Computation(int wt, size_t index) {
    int saved = 0;
    if (!r_.Enter("HloModuleProto.computations (3)", wt, &saved)) return false;
    const ComputationInfo* info =
        index < h_.computations.size() ? &h_.computations[index] : nullptr;
    comp_name_.assign("%");
    if (info != nullptr) comp_name_.append(info->name);
    comp_index_ = info != nullptr ? static_cast<int32_t>(index) : -1;
    shapes_.Clear();
    uint32_t field = 0;
    int w = 0;
    for (;;) {
      if (opts_.binary_fast_path && !SkipHeldNonCollectives()) return false;
      if (!r_.NextField("HloComputationProto", &field, &w)) break;
      bool ok;
      if (field == 2) {
        ok = Instruction(w, info);
      } else {
        ok = r_.Skip("an HloComputationProto field", w);
      }
      if (!ok) return false;
    }
    return !r_.failed() && r_.Leave(saved);
  }

  // The fast path: an instruction held whole in the input buffer that is
  // not a collective is skipped by its length, its id and shape kept as
  // bytes (ScanInstruction). `p` holds `n` bytes from the instruction's
  // length prefix on, the first of them at byte `at` of the input. The
  // bytes it takes, or 0 when ReadInstruction must decode it.
  size_t ScanNonCollective(const uint8_t* p, size_t n, int64_t at) {
    size_t len = 0;
    size_t prefix = 0;
    if (!DecodeHeldLength(p, n, &prefix, &len) ||
        !ScanInstruction(p + prefix, len, &view_) ||
        ClassifyOpcode(view_.opcode).has_value() ||
        view_.shape.size() > kMaxKeptShapeBytes) {
      return 0;
    }
    if (view_.has_id) {
      shapes_.KeepRaw(view_.id, view_.has_shape, view_.shape,
                      at + static_cast<int64_t>(prefix) +
                          static_cast<int64_t>(view_.shape_offset));
    }
    return prefix + len;
  }

  // The instruction at the reader (its tag read), when ScanNonCollective
  // takes it. False, having read nothing, otherwise.
  bool SkipNonCollective() {
    const uint8_t* p = nullptr;
    size_t n = 0;
    if (!r_.PeekBuffer(&p, &n)) return false;
    const size_t used = ScanNonCollective(p, n, r_.offset());
    return used > 0 &&
           r_.SkipBytes("an HloInstructionProto", static_cast<int64_t>(used));
  }

  // The instructions (field 2, length-delimited: tag byte 0x12) that follow
  // in the input buffer and ScanNonCollective takes, skipped in one step.
  // The first it does not take (a collective, one cut by the buffer's end,
  // another field) is left to the caller's loop. False on a reader error.
  bool SkipHeldNonCollectives() {
    const uint8_t* p = nullptr;
    size_t n = 0;
    if (!r_.PeekBuffer(&p, &n)) return !r_.failed();
    const int64_t at = r_.offset();
    size_t i = 0;
    while (n - i > 1 && p[i] == 0x12) {
      const size_t used = ScanNonCollective(p + i + 1, n - i - 1,
                                            at + static_cast<int64_t>(i) + 1);
      if (used == 0) {
        // Declined (a collective, or one cut by the buffer's end):
        // Instruction need not scan it again.
        declined_at_ = at + static_cast<int64_t>(i) + 1;
        break;
      }
      i += 1 + used;
    }
    return i == 0 ||
           r_.SkipBytes("an HloInstructionProto", static_cast<int64_t>(i));
  }

  // The fast path for an instruction that SkipNonCollective declined (a
  // collective, mostly) held whole in the input buffer: its fields decoded
  // in place (MemReader) and the instruction skipped. False when
  // the full reader must read it (MemReader accepts only what WireReader
  // reads the same way): nothing is consumed then.
  bool ReadHeld() {
    const uint8_t* p = nullptr;
    size_t n = 0;
    size_t len = 0;
    size_t prefix = 0;
    if (r_.depth() >= kMaxMessageDepth || !r_.PeekBuffer(&p, &n) ||
        !DecodeHeldLength(p, n, &prefix, &len)) {
      return false;
    }
    MemReader m(p + prefix, len, r_.offset() + static_cast<int64_t>(prefix),
                r_.depth() + 1);
    return ReadInstruction(m, &s_) &&
           r_.SkipBytes("an HloInstructionProto",
                        static_cast<int64_t>(prefix + len));
  }

  bool Instruction(int wt, const ComputationInfo* info) {
    if (wt == kLen && opts_.binary_fast_path && r_.offset() != declined_at_ &&
        SkipNonCollective()) {
      return true;
    }
    instruction_begin_ = r_.offset();
    // The last collective's operand shapes keep their storage for the
    // next one's (Find decodes into it).
    for (Shape& shape : s_.c.operand_shapes) {
      if (spare_shapes_.size() >= kMaxSpareShapes) break;
      spare_shapes_.push_back(std::move(shape));
    }
    s_.Clear();
    bool held = false;
    if (wt == kLen && opts_.binary_fast_path) {
      held = ReadHeld();
      if (!held) s_.Clear();  // what ReadHeld left of one it declined
    }
    if (!held) {
      in_instruction_ = true;
      int saved = 0;
      if (!r_.Enter("HloComputationProto.instructions (2)", wt, &saved) ||
          !ReadInstruction(r_, &s_) || !r_.Leave(saved)) {
        return false;
      }
      in_instruction_ = false;
    }
    const int64_t end = r_.offset();
    Collective& c = s_.c;
    if (s_.has_id) {
      // A shape decoded in place is kept as its bytes, as the fast path
      // keeps those of other instructions (no decoded copy to hold).
      if (s_.shape_raw) {
        shapes_.KeepRaw(s_.id, true, s_.shape_bytes, s_.shape_at);
      } else {
        shapes_.KeepDecoded(s_.id, c.result_shape);
      }
    }
    const std::optional<CollectiveOpcode> op = ClassifyOpcode(c.opcode);
    if (!op.has_value()) return true;
    SetCollectiveOpcode(*op, &c);
    if (!IsEmittedCollective(c)) return true;
    c.name.insert(0, "%");
    c.computation.assign(comp_name_);
    c.pos = TextPos::AtByte(instruction_begin_);
    c.is_root = info != nullptr && info->has_root && s_.has_id &&
                info->root_id == s_.id;
    c.operand_count = static_cast<int64_t>(s_.operand_ids.size());
    for (int64_t id : s_.operand_ids) {
      if (spare_shapes_.empty()) {
        c.operand_shapes.emplace_back();
      } else {
        c.operand_shapes.push_back(std::move(spare_shapes_.back()));
        spare_shapes_.pop_back();
      }
      if (!shapes_.Find(r_, id, &c.operand_shapes.back())) return false;
    }
    // In-place collective-permute: XLA flattens its slice_sizes lists into
    // dynamic_slice_sizes, one value per dimension of the sliced operand.
    if (c.kind == CollectiveKind::kCollectivePermute &&
        s_.dynamic_slice_sizes > 0) {
      const Shape* in =
          c.operand_shapes.empty() ? nullptr : &c.operand_shapes.front();
      const int64_t rank =
          in != nullptr && in->known && !in->is_tuple && !in->dims.empty()
              ? static_cast<int64_t>(in->dims.size())
              : 1;
      c.slice_sizes_count = std::max<int64_t>(1, s_.dynamic_slice_sizes / rank);
    }
    if (!s_.called_ids.empty()) {
      const int64_t id = s_.called_ids.front();
      auto it = std::lower_bound(
          names_.begin(), names_.end(), id,
          [](const auto& e, int64_t v) { return e.first < v; });
      if (it != names_.end() && it->first == id) {
        c.to_apply.assign("%");
        c.to_apply.append(h_.computations[it->second].name);
      }
    }
    AddSpan(instruction_begin_, end, c.name);
    EmitCollective(opts_.on_collective, m_, c);
    return true;
  }

  // A span for naming findings, within kMaxOpSpans and the name budget.
  void AddSpan(int64_t begin, int64_t end, std::string_view op) {
    if (m_->binary_ops.size() >= kMaxOpSpans) return;
    m_->binary_ops.Add(begin, end, comp_index_, op_names_.Keep(op));
  }

  WireReader& r_;
  const Header& h_;
  const ParseOptions& opts_;
  Module* m_;
  std::vector<std::pair<int64_t, uint32_t>> names_;
  NameBudget op_names_;
  int32_t comp_index_ = -1;
  ShapeTable shapes_;
  InstructionView view_;
  std::string comp_name_;  // with its '%'
  // Shapes whose storage the next collective's operands reuse.
  static constexpr size_t kMaxSpareShapes = 64;
  std::vector<Shape> spare_shapes_;
  InstructionScratch s_;
  int64_t instruction_begin_ = 0;
  // Where SkipHeldNonCollectives last stopped at an instruction it held
  // whole and ScanNonCollective declined (-1: none).
  int64_t declined_at_ = -1;
  bool in_instruction_ = false;
};

InstructionStream::InstructionStream(WireReader& r, const Header& h,
                                     const ParseOptions& opts, Module* m)
    : walk_(std::make_unique<InstructionWalk>(r, h, opts, m)) {}
InstructionStream::~InstructionStream() = default;
bool InstructionStream::Run() { return walk_->Run(); }
void InstructionStream::NoteFailure() { walk_->NoteFailure(); }

}  // namespace topolint::hlo::proto
