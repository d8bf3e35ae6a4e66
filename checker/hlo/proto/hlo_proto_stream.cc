// The binary reader's second pass (ReadInstructions in
// hlo_proto_internal.h).
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checker/hlo/collective_emit.h"
#include "checker/hlo/collective_opcode.h"
#include "checker/hlo/fast_path_check.h"
#include "checker/hlo/proto/hlo_proto_internal.h"

namespace topolint::hlo::proto {
namespace {

// HloInstructionProto field numbers (hlo_proto_internal.h).
using namespace instruction_fields;  // NOLINT(google-build-using-namespace)

// What ReadInstructions does: frames the module's computations and their
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
      if (c.id) names_.emplace_back(*c.id, static_cast<uint32_t>(i));
    }
    std::stable_sort(
        names_.begin(), names_.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
  }

  bool Run() {
    size_t index = 0;
    return ReadFields(r_, "HloModuleProto", [&](uint32_t field, int wt) {
      return field == 3 ? Computation(wt, index++)
                        : r_.Skip("an HloModuleProto field", wt);
    });
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
    auto take = [&](const uint8_t* data, size_t size, int64_t begin,
                    int64_t at) { return Take(data, size, begin, at, info); };
    uint32_t field = 0;
    int w = 0;
    for (;;) {
      if (!TakeHeldInstructions(r_, take)) return false;
      if (!r_.NextField("HloComputationProto", &field, &w)) break;
      if (!(field == 2 ? Instruction(w, info)
                       : r_.Skip("an HloComputationProto field", w))) {
        return false;
      }
    }
    return !r_.failed() && r_.Leave(saved);
  }

  // The instruction at the reader (its tag read) that TakeHeldInstructions
  // left, cut by the input buffer's end: its bytes copied into `scratch_`
  // and decoded (Take); one longer than ParseOptions::max_instruction_bytes
  // is decoded as it streams by.
  bool Instruction(int wt, const ComputationInfo* info) {
    const int64_t begin = r_.offset();
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
      // Where a field the first stage kept (a view into `data`) starts in
      // the input (an empty one's bytes are never read).
      auto at_of = [&](std::string_view kept) {
        return kept.empty()
                   ? at
                   : at + (kept.data() - reinterpret_cast<const char*>(data));
      };
      if (view_.has_id) {
        shapes_.KeepRaw(view_.id, view_.has_shape, view_.shape,
                        at_of(view_.shape));
      }
      // (Parameters and constants carry most shardings.)
      if (view_.sharding.empty() && view_.domain_entry.empty() &&
          view_.domain_exit.empty()) {
        return true;
      }
      auto shape = [&] {
        return view_.has_shape
                   ? DecodeShape(
                         reinterpret_cast<const uint8_t*>(view_.shape.data()),
                         view_.shape.size(), at_of(view_.shape))
                   : Shape();
      };
      bool issue = false;
      if (!RecordShardings(view_.name, view_.opcode, shape, view_.sharding,
                           at_of(view_.sharding), view_.domain_entry,
                           at_of(view_.domain_entry), view_.domain_exit,
                           at_of(view_.domain_exit), &issue)) {
        return false;
      }
      if (issue) AddSpan(begin, at + static_cast<int64_t>(size), name_);
      return true;
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

  // An instruction's shardings, as either stage of the decoder keeps them
  // (bytes, and the offsets of their first bytes): its sharding (40),
  // checked against its result shape (`shape()`, asked only then), and a
  // kDomain's entry and exit shardings (54, 55; XLA reads them for no other
  // opcode), recorded as the text front end records `sharding={...}` and
  // `domain={...}`. `*issue`: they gave a finding, which names the
  // instruction (`name_`, with its '%') as a collective's does.
  template <typename ShapeFn>
  bool RecordShardings(std::string_view name, std::string_view opcode,
                       ShapeFn shape, std::string_view sharding,
                       int64_t sharding_at, std::string_view entry,
                       int64_t entry_at, std::string_view exit, int64_t exit_at,
                       bool* issue) {
    *issue = false;
    if (sharding.empty() && entry.empty() && exit.empty()) return true;
    const size_t issues = m_->sharding.issues.size();
    name_.assign("%");
    name_.append(name.substr(0, 256));
    const Shape unknown;
    const bool ok = (sharding.empty() ||
                     Record(sharding, sharding_at, shape(), kSharding)) &&
                    (opcode != "domain" ||
                     (Record(entry, entry_at, unknown, kDomainEntrySharding) &&
                      Record(exit, exit_at, unknown, kDomainExitSharding)));
    *issue = m_->sharding.issues.size() > issues;
    return ok;
  }

  // One OpSharding of the instruction `name_`, recorded; a malformed one
  // stops the reader there, as any malformed sub-message does.
  bool Record(std::string_view bytes, int64_t at, const Shape& shape,
              uint32_t field) {
    if (RecordProtoSharding(bytes, at, name_, shape, field, m_,
                            &sharding_error_, &sharding_error_at_)) {
      return true;
    }
    stop_at_ = sharding_error_at_;
    return r_.FailAt(sharding_error_at_, sharding_error_);
  }

  // The ShapeProto `bytes` (from byte `at`) decoded; unknown when they do
  // not decode.
  static Shape DecodeShape(const uint8_t* bytes, size_t size, int64_t at) {
    Shape shape;
    WireReader sub(bytes, size, at, 0);
    int64_t nodes = 0;
    if (!ReadShape(sub, 0, &nodes, &shape)) shape = Shape();
    return shape;
  }

  // The scratch made ready for the instruction whose length prefix is at
  // `begin`.
  void Prepare(int64_t begin) {
    instruction_begin_ = begin;
    s_.Clear();
  }

  // After ReadInstruction: the shape kept, and a collective completed
  // (operand shapes, called computation) and emitted. `end` is the
  // instruction's end; `data`, when not null, its bytes in memory, from
  // byte `at` of the input on.
  bool Finish(const ComputationInfo* info, int64_t end, const uint8_t* data,
              int64_t at) {
    in_instruction_ = false;
    Collective& c = s_.c;
    auto shape = [&] {
      if (c.result_shape.known) return c.result_shape;
      if (data == nullptr || s_.shape_end < 0) return Shape();
      return DecodeShape(data + (s_.shape_begin - at),
                         static_cast<size_t>(s_.shape_end - s_.shape_begin),
                         s_.shape_begin);
    };
    bool sharding_issue = false;
    if (!RecordShardings(c.name, c.opcode, shape, s_.sharding, s_.sharding_at,
                         s_.domain_entry, s_.domain_entry_at, s_.domain_exit,
                         s_.domain_exit_at, &sharding_issue)) {
      return false;
    }
    // An instruction that is no collective gets a span only for naming its
    // sharding's finding (a collective gets one below anyway).
    auto not_emitted = [&] {
      if (sharding_issue) AddSpan(instruction_begin_, end, name_);
      return true;
    };
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
    c.is_root = info != nullptr && s_.has_id && info->root_id == s_.id;
    c.operand_count = static_cast<int64_t>(s_.operand_ids.size());
    for (int64_t id : s_.operand_ids) {
      if (!shapes_.Find(r_, id, &c.operand_shapes.emplace_back())) {
        return false;
      }
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
    // A location given only as a stack frame (modern JAX): the innermost
    // frame's, from the module's stack_frame_index.
    if (c.source_file.empty() && s_.stack_frame_id > 0) {
      h_.stack_frames.Resolve(s_.stack_frame_id, &c);
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
  InstructionScratch s_;
  int64_t instruction_begin_ = 0;
  // Where reading stopped when an instruction read from memory failed (-1:
  // at the reader).
  int64_t stop_at_ = -1;
  bool in_instruction_ = false;
};

}  // namespace

int64_t ReadInstructions(WireReader& r, const Header& h,
                         const ParseOptions& opts, Module* m) {
  InstructionWalk walk(r, h, opts, m);
  if (r.SkipBytes("the HloModuleProto", h.module_begin)) {
    r.LimitTo(h.module_size);
    walk.Run();
  }
  if (r.failed()) walk.NoteFailure();
  return walk.offset();
}

}  // namespace topolint::hlo::proto
