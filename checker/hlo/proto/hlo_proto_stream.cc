// The binary reader's second pass (hlo_proto_stream.h).
#include "checker/hlo/proto/hlo_proto_stream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checker/hlo/collective_emit.h"
#include "checker/hlo/collective_opcode.h"
#include "checker/hlo/fast_path_check.h"

namespace topolint::hlo::proto {

using instruction_fields::kDomainEntrySharding;
using instruction_fields::kDomainExitSharding;
using instruction_fields::kSharding;

// What InstructionStream does: frames the module's computations and their
// instructions, and gives each instruction's bytes, held in the input
// buffer or copied into scratch_, to the decoder (Take).
class InstructionWalk {
 public:
  InstructionWalk(WireReader& r, const Header& h, const ParseOptions& opts,
                  Module* m)
      : r_(r), h_(h), opts_(opts), m_(m) {
    s_.fast_paths = opts.binary_fast_path;
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

  int64_t offset() const { return stop_at_ >= 0 ? stop_at_ : r_.offset(); }

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
      if (opts_.binary_fast_path && !TakeHeldInstructions(info)) return false;
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

  // The instructions (field 2, length-delimited: tag byte 0x12) that follow
  // held whole in the input buffer, each decoded (Take), then all skipped
  // in one step. The first one not held whole, or another field, is left
  // to the caller's loop. False on error.
  bool TakeHeldInstructions(const ComputationInfo* info) {
    const uint8_t* p = nullptr;
    size_t n = 0;
    if (r_.depth() >= kMaxMessageDepth || !r_.PeekBuffer(&p, &n)) {
      return !r_.failed();
    }
    const int64_t at = r_.offset();
    size_t i = 0;
    size_t prefix = 0;
    size_t len = 0;
    while (n - i > 1 && p[i] == 0x12 &&
           DecodeHeldLength(p + i + 1, n - i - 1, &prefix, &len)) {
      const int64_t begin = at + static_cast<int64_t>(i) + 1;
      if (!Take(p + i + 1 + prefix, len, begin,
                begin + static_cast<int64_t>(prefix), info)) {
        return false;
      }
      i += 1 + prefix + len;
    }
    return i == 0 ||
           r_.SkipBytes("an HloInstructionProto", static_cast<int64_t>(i));
  }

  // The instruction at the reader (its tag read): its bytes, held whole in
  // the input buffer or copied into `scratch_`, decoded (Take); one longer
  // than ParseOptions::max_instruction_bytes is decoded as it streams by.
  bool Instruction(int wt, const ComputationInfo* info) {
    const int64_t begin = r_.offset();
    const uint8_t* p = nullptr;
    size_t n = 0;
    size_t prefix = 0;
    size_t len = 0;
    if (wt == kLen && r_.depth() < kMaxMessageDepth && r_.PeekBuffer(&p, &n) &&
        DecodeHeldLength(p, n, &prefix, &len)) {
      return Take(p + prefix, len, begin, begin + static_cast<int64_t>(prefix),
                  info) &&
             r_.SkipBytes("an HloInstructionProto",
                          static_cast<int64_t>(prefix + len));
    }
    Prepare(begin);
    in_instruction_ = true;
    int saved = 0;
    if (!r_.Enter("HloComputationProto.instructions (2)", wt, &saved)) {
      return false;
    }
    const int64_t at = r_.offset();
    if (r_.bytes_left() <= opts_.max_instruction_bytes) {
      return r_.ReadRemaining("an HloInstructionProto", SIZE_MAX, &scratch_) &&
             r_.Leave(saved) &&
             Take(reinterpret_cast<const uint8_t*>(scratch_.data()),
                  scratch_.size(), begin, at, info);
    }
    if (!ReadInstruction(r_, &s_) || !r_.Leave(saved)) return false;
    return Finish(info, r_.offset(), nullptr, 0);
  }

  // One instruction's `size` bytes at `data`, which start at byte `at` of
  // the input (its length prefix at `begin`): the decoder's first stage
  // (ScanInstruction) keeps a plain one's id and shape; a collective, and
  // whatever the first stage declines, is decoded (ReadInstruction).
  bool Take(const uint8_t* data, size_t size, int64_t begin, int64_t at,
            const ComputationInfo* info) {
    if (opts_.binary_fast_path && ScanInstruction(data, size, &view_) &&
        !ClassifyOpcode(view_.opcode).has_value() &&
        view_.shape.size() <= kMaxKeptShapeBytes) {
      if (kCheckFastPaths) CheckScanned(data, size, at);
      if (view_.has_id) {
        shapes_.KeepRaw(view_.id, view_.has_shape, view_.shape,
                        at + static_cast<int64_t>(view_.shape_offset));
      }
      return (view_.sharding.empty() && view_.domain_entry.empty() &&
              view_.domain_exit.empty()) ||
             ScannedShardings(begin, at, size);
    }
    Prepare(begin);
    in_instruction_ = true;
    WireReader m(data, size, at, r_.depth() + 1, r_.end_hint(), r_.max_bytes());
    if (!ReadInstruction(m, &s_)) {
      stop_at_ = m.offset();
      return r_.FailAt(m.error_offset(), m.error());
    }
    const int64_t end = at + static_cast<int64_t>(size);
    if (Finish(info, end, data, at)) return true;
    stop_at_ = end;
    return false;
  }

  // RE2's inconsistency check (fast_path_check.h) of the first stage: what
  // it kept is what ReadInstruction reads, when that reads the instruction
  // at all (the first stage does not look inside the messages of an
  // instruction it skips).
  void CheckScanned(const uint8_t* data, size_t size, int64_t at) {
    InstructionScratch s;
    WireReader m(data, size, at, r_.depth() + 1, r_.end_hint(), r_.max_bytes());
    if (!ReadInstruction(m, &s)) return;
    if (s.c.opcode != view_.opcode || s.has_id != view_.has_id ||
        (s.has_id && s.id != view_.id) || s.sharding != view_.sharding ||
        s.domain_entry != view_.domain_entry ||
        s.domain_exit != view_.domain_exit) {
      FastPathInconsistency("ScanInstruction", at,
                            "opcode, id or sharding differ");
    }
  }

  // The shardings of an instruction the first stage kept (its bytes at
  // `at`, its length prefix at `begin`). A sharding finding names the
  // instruction, as a collective's does: it gets a span then.
  bool ScannedShardings(int64_t begin, int64_t at, size_t size) {
    const size_t issues = m_->sharding.issues.size();
    if (!(view_.sharding.empty() || ScannedSharding(at)) ||
        !ScannedDomain(at)) {
      return false;
    }
    if (m_->sharding.issues.size() > issues) {
      AddSpan(begin, at + static_cast<int64_t>(size), name_);
    }
    return true;
  }

  // The sharding of an instruction the first stage kept (parameters and
  // constants carry most): its shape decoded from the bytes kept, then
  // recorded as the text front end records `sharding={...}`.
  bool ScannedSharding(int64_t at) {
    Shape shape;
    if (view_.has_shape) {
      WireReader sub(reinterpret_cast<const uint8_t*>(view_.shape.data()),
                     view_.shape.size(),
                     at + static_cast<int64_t>(view_.shape_offset), 0);
      int64_t nodes = 0;
      if (!ReadShape(sub, 0, &nodes, &shape)) shape = Shape();
    }
    name_.assign("%");
    name_.append(view_.name.substr(0, 256));
    return Recorded(RecordProtoSharding(
        view_.sharding, at + static_cast<int64_t>(view_.sharding_offset), name_,
        shape, kSharding, m_, &sharding_error_, &sharding_error_at_));
  }

  // A domain's entry and exit shardings (54, 55), kept by the first stage:
  // recorded as the text front end records `domain={...}`, on a kDomain
  // only (XLA reads them for no other opcode).
  bool ScannedDomain(int64_t at) {
    if ((view_.domain_entry.empty() && view_.domain_exit.empty()) ||
        view_.opcode != "domain") {
      return true;
    }
    name_.assign("%");
    name_.append(view_.name.substr(0, 256));
    return Domain(view_.domain_entry,
                  at + static_cast<int64_t>(view_.domain_entry_offset),
                  view_.domain_exit,
                  at + static_cast<int64_t>(view_.domain_exit_offset));
  }

  // `name_` holds the domain's name.
  bool Domain(std::string_view entry, int64_t entry_at, std::string_view exit,
              int64_t exit_at) {
    const Shape unknown;
    return Recorded(RecordProtoSharding(
               entry, entry_at, name_, unknown, kDomainEntrySharding, m_,
               &sharding_error_, &sharding_error_at_)) &&
           Recorded(RecordProtoSharding(exit, exit_at, name_, unknown,
                                        kDomainExitSharding, m_,
                                        &sharding_error_, &sharding_error_at_));
  }

  // A malformed OpSharding stops the reader there, as any malformed
  // sub-message does.
  bool Recorded(bool ok) {
    if (ok) return true;
    stop_at_ = sharding_error_at_;
    return r_.FailAt(sharding_error_at_, sharding_error_);
  }

  // The sharding of an instruction ReadInstruction read (`data`: its bytes
  // from byte `at` on, when in memory).
  bool ReadSharding(const uint8_t* data, int64_t at) {
    Shape shape;
    const Collective& c = s_.c;
    if (c.result_shape.known) {
      shape = c.result_shape;
    } else if (data != nullptr && s_.shape_end >= 0) {
      WireReader sub(data + (s_.shape_begin - at),
                     static_cast<size_t>(s_.shape_end - s_.shape_begin),
                     s_.shape_begin, 0);
      int64_t nodes = 0;
      if (!ReadShape(sub, 0, &nodes, &shape)) shape = Shape();
    }
    name_.assign("%");
    name_.append(std::string_view(c.name).substr(0, 256));
    return Recorded(RecordProtoSharding(s_.sharding, s_.sharding_at, name_,
                                        shape, kSharding, m_, &sharding_error_,
                                        &sharding_error_at_));
  }

  // The domain shardings of an instruction ReadInstruction read.
  bool ReadDomain() {
    if (s_.c.opcode != "domain") return true;
    name_.assign("%");
    name_.append(std::string_view(s_.c.name).substr(0, 256));
    return Domain(s_.domain_entry, s_.domain_entry_at, s_.domain_exit,
                  s_.domain_exit_at);
  }

  // The scratch made ready for the instruction whose length prefix is at
  // `begin`.
  void Prepare(int64_t begin) {
    instruction_begin_ = begin;
    // The last collective's operand shapes keep their storage for the
    // next one's (Find decodes into it).
    for (Shape& shape : s_.c.operand_shapes) {
      if (spare_shapes_.size() >= kMaxSpareShapes) break;
      spare_shapes_.push_back(std::move(shape));
    }
    s_.Clear();
  }

  // After ReadInstruction: the shape kept, and a collective completed
  // (operand shapes, called computation) and emitted. `end` is the
  // instruction's end; `data`, when not null, its bytes in memory, from
  // byte `at` of the input on.
  bool Finish(const ComputationInfo* info, int64_t end, const uint8_t* data,
              int64_t at) {
    in_instruction_ = false;
    const size_t issues = m_->sharding.issues.size();
    if (!s_.sharding.empty() && !ReadSharding(data, at)) return false;
    if ((!s_.domain_entry.empty() || !s_.domain_exit.empty()) &&
        !ReadDomain()) {
      return false;
    }
    // An instruction that is no collective gets a span only for naming its
    // sharding's finding (a collective gets one below anyway).
    const bool sharding_issue = m_->sharding.issues.size() > issues;
    auto not_emitted = [&] {
      if (sharding_issue) AddSpan(instruction_begin_, end, name_);
      return true;
    };
    Collective& c = s_.c;
    const int64_t shape_size = s_.shape_end - s_.shape_begin;
    if (s_.has_id && data != nullptr && s_.shape_end >= 0 &&
        shape_size <= static_cast<int64_t>(kMaxKeptShapeBytes)) {
      // Kept as bytes, as the first stage keeps a non-collective's.
      shapes_.KeepRaw(s_.id, true,
                      std::string_view(reinterpret_cast<const char*>(
                                           data + (s_.shape_begin - at)),
                                       static_cast<size_t>(shape_size)),
                      s_.shape_begin);
    } else if (s_.has_id) {
      shapes_.KeepDecoded(s_.id, c.result_shape);
    }
    const std::optional<CollectiveOpcode> op = ClassifyOpcode(c.opcode);
    if (!op.has_value()) return not_emitted();
    SetCollectiveOpcode(*op, &c);
    if (!IsEmittedCollective(c)) return not_emitted();
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
  std::string scratch_;         // an instruction cut by the input buffer's end
  std::string comp_name_;       // with its '%'
  std::string name_;            // a sharding's instruction, with its '%'
  std::string sharding_error_;  // a malformed OpSharding's message
  int64_t sharding_error_at_ = 0;
  // Shapes whose storage the next collective's operands reuse.
  static constexpr size_t kMaxSpareShapes = 64;
  std::vector<Shape> spare_shapes_;
  InstructionScratch s_;
  int64_t instruction_begin_ = 0;
  // Where reading stopped when an instruction read from memory failed (-1:
  // at the reader).
  int64_t stop_at_ = -1;
  bool in_instruction_ = false;
};

InstructionStream::InstructionStream(WireReader& r, const Header& h,
                                     const ParseOptions& opts, Module* m)
    : walk_(std::make_unique<InstructionWalk>(r, h, opts, m)) {}
InstructionStream::~InstructionStream() = default;
bool InstructionStream::Run() { return walk_->Run(); }
void InstructionStream::NoteFailure() { walk_->NoteFailure(); }
int64_t InstructionStream::offset() const { return walk_->offset(); }

}  // namespace topolint::hlo::proto
