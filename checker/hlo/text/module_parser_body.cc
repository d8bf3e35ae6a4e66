// ModuleParser, inside a computation: instruction heads (ScanSimpleHead,
// else the exact ParseHead), the hand-off of a collective's body to
// collective_parser.cc and the skip of every other instruction.
#include <cstddef>
#include <optional>
#include <utility>

#include "checker/hlo/collective_emit.h"
#include "checker/hlo/collective_opcode.h"
#include "checker/hlo/text/collective_parser.h"
#include "checker/hlo/text/fast_path_checks.h"
#include "checker/hlo/text/fast_paths.h"
#include "checker/hlo/text/instruction_head.h"
#include "checker/hlo/text/module_parser.h"
#include "checker/hlo/text/shape_parser.h"
#include "fmt/format.h"

namespace topolint::hlo {

// ---- Computation bodies ---------------------------------------------------

bool ModuleParser::ParseBodyItem() {
  if (lx_.Peek() == '}') return CloseComputation();
  return ParseInstruction();
}

bool ModuleParser::CloseComputation() {
  lx_.BeginStatement();
  lx_.Bump();  // '}'
  EndComputation();
  if (!lx_.SkipTrivia()) return false;
  if (lx_.Peek() != ',') return true;
  // `}, execution_thread="name"`
  lx_.Bump();
  if (!lx_.SkipTrivia()) return false;
  if (!IsIdentStart(lx_.Peek())) {
    return lx_.Expected("an attribute such as 'execution_thread=' after '},'");
  }
  std::string key;
  if (!lx_.ReadIdent(&key) || !lx_.SkipTrivia()) return false;
  if (!lx_.Eat('=')) {
    return lx_.Expected(fmt::format("'=' after attribute '{}'", key));
  }
  return lx_.SkipTrivia() && lx_.SkipValue() && lx_.EndStatement();
}

bool ModuleParser::ReadInstructionName(std::string_view* name, bool* percent) {
  const int c = lx_.Peek();
  *percent = c == '%';
  if (*percent) {
    if (!IsIdentStart(lx_.PeekAt(1))) {
      return lx_.Expected("an instruction name after '%'");
    }
    lx_.Bump();
  } else if (!IsIdentStart(c)) {
    return lx_.Expected(fmt::format(
        "an instruction ('name = shape opcode(...)') or '}}' to close "
        "computation '{}'",
        computation_));
  }
  return lx_.ReadIdentView(name);
}

std::string ModuleParser::PendingName() const {
  std::string name = percent_ ? "%" : "";
  name.append(table_.PendingName());
  return name;
}

bool ModuleParser::ParseInstruction() {
  // Hot path: runs once per instruction of the module. Names and opcodes
  // are read as views into the window; the name is copied once, into the
  // shape table, where it stays pending (with the shape text after it)
  // until the instruction ends.
  lx_.BeginStatement();
  const TextPos pos = lx_.Pos();
  SimpleHead head;
  if (lx_.FastPathOn(FastPath::kScanSimpleHead) &&
      ScanSimpleHead(lx_.cursor(), &head)) {
    if (kCheckFastPaths) CheckSimpleHead(&head);
    return ParseSimpleInstruction(pos, head);
  }
  bool is_root = false;
  std::string_view word;
  if (!ReadInstructionName(&word, &percent_)) return false;
  if (!percent_ && word == kRoot) {
    is_root = true;
    if (!lx_.SkipTrivia() || !ReadInstructionName(&word, &percent_)) {
      return false;
    }
  } else if (!percent_ && word == kEntry) {
    return ReportUnclosed(pos) && lx_.SkipTrivia() &&
           lx_.ReadName(&name_, "a computation name after 'ENTRY'") &&
           ParseComputation(pos, name_, /*is_entry=*/true);
  }
  table_.Begin(word);  // copies the name; `word` is not used again
  if (!is_root) {
    lx_.SkipBlanks();
    if (lx_.Peek() == '{' || lx_.Peek() == '(') {
      name_ = PendingName();
      table_.Abort();
      return ReportUnclosed(pos) &&
             ParseComputation(pos, name_, /*is_entry=*/false);
    }
  }
  bool keep_shape = false;
  const bool ok = ParseInstructionRest(pos, is_root, &keep_shape);
  if (keep_shape) {
    table_.Commit();
  } else {
    table_.Abort();
  }
  return ok;
}

bool ModuleParser::ParseSimpleInstruction(TextPos pos, const SimpleHead& head) {
  // The head was scanned in place (ScanSimpleHead); the views in `head`
  // stay valid until the cursor next reads more input.
  percent_ = head.percent;
  table_.BeginWithShape(head.name, head.shape);
  lx_.AdvanceTo(head.open);
  const bool keep_shape = head.shape.size() <= kMaxShapeCapture;
  if (keep_shape && !ClassifyOpcode(head.opcode).has_value()) {
    // The hot path of the whole parser (most instructions of a module): a
    // non-collective instruction, at its '('. (The target is views into
    // the shape table, where the name and shape text stay until Commit.)
    const ShardingTarget target = Target(head.opcode, nullptr, true);
    const bool ok = SkipInstructionBody(lx_, &target) && lx_.EndStatement();
    table_.Commit();
    return ok;
  }
  const TextPos opcode_pos{
      pos.line, pos.column + static_cast<int64_t>(head.opcode_offset)};
  const bool ok = FinishInstruction(pos, head.is_root, keep_shape, opcode_pos,
                                    head.opcode, head.shape);
  if (keep_shape) {
    table_.Commit();
  } else {
    table_.Abort();
  }
  return ok;
}

bool ModuleParser::ParseInstructionRest(TextPos pos, bool is_root,
                                        bool* keep_shape) {
  if (!lx_.SkipTrivia()) return false;
  if (!lx_.Eat('=')) {
    return lx_.Expected(
        fmt::format("'=' after instruction name '{}'", PendingName()));
  }
  if (!lx_.SkipTrivia()) return false;
  TextPos opcode_pos;
  std::string_view opcode;
  if (!ParseHead(keep_shape, &opcode_pos, &opcode)) return false;
  return FinishInstruction(pos, is_root, *keep_shape, opcode_pos, opcode,
                           /*shape_in_window=*/{});
}

bool ModuleParser::FinishInstruction(TextPos pos, bool is_root, bool keep_shape,
                                     TextPos opcode_pos,
                                     std::string_view opcode,
                                     std::string_view shape_in_window) {
  const std::optional<CollectiveOpcode> op = ClassifyOpcode(opcode);
  if (!lx_.AtByte('(')) {
    opcode_.assign(opcode);
    opcode = opcode_;
    if (!lx_.SkipTrivia()) return false;
    if (lx_.Peek() != '(') {
      return lx_.Expected(fmt::format("'(' after opcode '{}'", opcode_));
    }
  }
  if (!op.has_value()) {
    const ShardingTarget target = Target(opcode, nullptr, keep_shape);
    return SkipInstructionBody(lx_, &target) && lx_.EndStatement();
  }
  // One object serves every collective of the module (cleared, not freed),
  // so that its strings and vectors are allocated once.
  Collective& c_op = op_;
  // The result and operand shapes keep their storage (strings, dims, tuple
  // elements) from one collective to the next: the readers write into it.
  // The last result shape's storage goes back where it came from: the slot
  // of the remembered shape it was recalled as (so that the next recall of
  // that shape, into the same storage, is mostly comparisons), else the
  // spare.
  (result_slot_ == ValueMemo::kNoEntry ? spare_result_
                                       : result_pool_[result_slot_]) =
      std::move(c_op.result_shape);
  result_slot_ = ValueMemo::kNoEntry;
  std::vector<Shape> operand_shapes = std::move(c_op.operand_shapes);
  c_op.Clear();
  c_op.operand_shapes = std::move(operand_shapes);
  // (Clear() emptied the strings: appended into, no replacement.)
  c_op.opcode.append(opcode);
  if (percent_) c_op.name.push_back('%');
  c_op.name.append(table_.PendingName());
  c_op.computation.append(computation_);
  SetCollectiveOpcode(*op, &c_op);
  c_op.pos = pos;
  c_op.opcode_pos = opcode_pos;
  c_op.is_root = is_root;
  if (keep_shape) {
    const size_t entry =
        lx_.FastPathOn(FastPath::kTryFindShape)
            ? memo_.TryFindShape(shape_in_window.empty() ? table_.PendingShape()
                                                         : shape_in_window)
            : ValueMemo::kNoEntry;
    if (entry != ValueMemo::kNoEntry) {
      c_op.result_shape = std::move(result_pool_[entry]);
      memo_.RecallShapeInto(entry, &c_op.result_shape);
      result_slot_ = entry;
      if (kCheckFastPaths) {
        CheckShapeText(
            "TryFindShape",
            shape_in_window.empty() ? table_.PendingShape() : shape_in_window,
            c_op.result_shape);
      }
    } else {
      c_op.result_shape = std::move(spare_result_);
      // (Nothing has read more input since the head: `shape_in_window` is
      // still in the window.)
      ParseResultShape(shape_in_window, lx_.limit(), table_.PendingShape(),
                       &memo_, &c_op.result_shape,
                       lx_.FastPathOn(FastPath::kReadSimpleShape));
    }
  }
  const ShardingTarget target =
      Target(opcode, keep_shape ? &c_op.result_shape : nullptr, false);
  if (!ParseCollectiveBody(lx_, table_, &memo_, &c_op, &target) ||
      !lx_.EndStatement()) {
    return false;
  }
  if (IsEmittedCollective(c_op)) EmitCollective(on_collective_, module_, c_op);
  return true;
}

void ModuleParser::CheckSimpleHead(SimpleHead* fast) {
  // The exact steps of ParseInstruction and ParseHead, without the table.
  const SimpleHead& head = *fast;
  const std::string name(head.name);
  const std::string shape(head.shape);
  const std::string opcode(head.opcode);
  const char* const start = lx_.cursor();
  const int64_t open = lx_.Offset() + (head.open - start);
  const HloLexer::Mark mark = lx_.SaveMark();
  const HloLexer::State here = lx_.Here();
  bool same = false;
  {
    const HloLexer::ExactOnly exact(lx_);
    std::string_view word;
    bool percent = false;
    bool root = false;
    bool ok = ReadInstructionName(&word, &percent);
    if (ok && !percent && word == kRoot) {
      root = true;
      ok = lx_.SkipTrivia() && ReadInstructionName(&word, &percent);
    }
    const std::string exact_name(ok ? word : std::string_view());
    ok = ok && lx_.SkipTrivia() && lx_.Eat('=') && lx_.SkipTrivia();
    std::string exact_shape;
    lx_.BeginCapture(&exact_shape, kMaxShapeCapture);
    if (ok && lx_.Peek() == '(') {
      ok = lx_.SkipGroup();
    } else if (ok) {
      ok = IsIdentStart(lx_.Peek()) && lx_.ReadIdentView(&word) &&
           lx_.Peek() == '[' && SkipArrayShapeRest(lx_);
    }
    ok = lx_.EndCapture() && ok;
    while (!exact_shape.empty() && exact_shape.back() == ' ') {
      exact_shape.pop_back();  // (SkipArrayShapeRest's trailing blanks)
    }
    ok = ok && lx_.SkipTrivia() && IsIdentStart(lx_.Peek()) &&
         lx_.ReadIdentView(&word);
    same = ok && word == opcode && root == head.is_root &&
           percent == head.percent && exact_name == name &&
           exact_shape == shape && lx_.Offset() == open;
  }
  if (!same) {
    FastPathInconsistency("ScanSimpleHead", mark.offset,
                          "the exact head parser reads another head");
  }
  lx_.MoveTo(here);
  lx_.Release();
  // The exact reading may have refilled the window: the views move with it.
  const ptrdiff_t moved = lx_.cursor() - start;
  const auto move = [moved](std::string_view v) {
    return std::string_view(v.data() + moved, v.size());
  };
  fast->name = move(fast->name);
  fast->shape = move(fast->shape);
  fast->opcode = move(fast->opcode);
  fast->open += moved;
}

bool ModuleParser::ReportUnclosed(TextPos pos) {
  // A new computation starts although this one was never closed: report it
  // and go on with the new computation.
  lx_.Error(pos, fmt::format("expected '}}' to close computation '{}' "
                             "(opened at {}:{}) before the next computation",
                             computation_, computation_pos_.line,
                             computation_pos_.column));
  EndComputation();
  return !lx_.stopped();
}

bool ModuleParser::ParseHead(bool* keep_shape, TextPos* opcode_pos,
                             std::string_view* opcode) {
  // The shape text is captured, then appended to the pending table entry
  // (after the name) when it is a shape.
  capture_.clear();
  lx_.BeginCapture(&capture_, kMaxShapeCapture);
  bool has_shape = false;
  const TextPos word_pos = lx_.Pos();
  std::string_view word;
  bool ok;
  const int c = lx_.Peek();
  if (c == '(') {
    has_shape = true;
    ok = lx_.SkipGroup();
  } else if (IsIdentStart(c)) {
    ok = lx_.ReadIdentView(&word);
    if (ok && !lx_.AtByte('[')) {
      word_.assign(word);  // may be the opcode of a shape-less instruction
      word = word_;
      ok = lx_.SkipTrivia();
    }
    if (ok && word_ == "b" && lx_.Peek() == '(') {
      // A buffer shape `b(f32[8]{0})` (no opcode is called `b`).
      has_shape = true;
      ok = lx_.SkipGroup();
    } else if (ok && lx_.Peek() == '[') {
      has_shape = true;
      ok = SkipArrayShapeRest(lx_);
    }
  } else {
    ok = lx_.Expected(
        fmt::format("a shape or an opcode after '{} ='", PendingName()));
  }
  const bool complete = lx_.EndCapture();
  *keep_shape = ok && has_shape && complete;
  if (!ok) return false;
  if (has_shape) table_.AppendPending(capture_);
  if (!has_shape) {
    // (The capture holds the opcode, not a shape.)
    opcode_.swap(word_);
    *opcode = opcode_;
    *opcode_pos = word_pos;
    return true;
  }
  if (!lx_.SkipTrivia()) return false;
  *opcode_pos = lx_.Pos();
  if (!IsIdentStart(lx_.Peek())) {
    return lx_.Expected(
        fmt::format("an opcode after the shape of '{}'", PendingName()));
  }
  return lx_.ReadIdentView(opcode);
}

}  // namespace topolint::hlo
