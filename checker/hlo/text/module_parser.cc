#include "checker/hlo/text/module_parser.h"

#include <optional>
#include <utility>
#include <vector>

#include "checker/hlo/text/collective_parser.h"
#include "checker/hlo/text/fast_paths.h"
#include "checker/hlo/text/instruction_head.h"
#include "checker/hlo/text/shape_parser.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

// Longest shape text kept for one instruction (longer: shape unknown).
constexpr size_t kMaxShapeCapture = size_t{1} << 20;
// Bytes checked for binary content before parsing.
constexpr size_t kSniffBytes = 4096;
constexpr std::string_view kRoot = "ROOT";
constexpr std::string_view kEntry = "ENTRY";

bool IsSectionKeyword(std::string_view word) {
  return word == "FileNames" || word == "FunctionNames" ||
         word == "FileLocations" || word == "StackFrames";
}

}  // namespace

ModuleParser::ModuleParser(InputWindow* window, Module* module,
                           const ParseOptions& options)
    : lx_(window, module, options),
      module_(module),
      on_collective_(options.on_collective),
      table_(kMaxShapeTableBytes) {}

void ModuleParser::Run() {
  if (!lx_.CheckNotBinary(kSniffBytes)) return;
  // Known once the first bytes are read (a large file is mapped then).
  table_.set_input_bytes(lx_.input_size());
  if (!lx_.SkipTrivia()) return;
  if (lx_.Peek() == kEof) {
    lx_.Error(lx_.Pos(),
              "expected 'HloModule' or a computation, found end "
              "of file");
    return;
  }
  while (!lx_.stopped()) {
    if (!lx_.SkipTrivia()) {
      if (!lx_.stopped()) Resync();
      continue;
    }
    if (lx_.Peek() == kEof) {
      // (Not when an error was just reported at end of file: same cause.)
      const bool just_reported =
          !module_->syntax_errors.empty() &&
          module_->syntax_errors.back().pos.line == lx_.Pos().line &&
          module_->syntax_errors.back().pos.column == lx_.Pos().column;
      if (state_ == State::kBody && !just_reported) {
        lx_.Error(lx_.Pos(),
                  fmt::format("expected '}}' to close computation '{}' "
                              "(opened at {}:{}), found end of file",
                              computation_, computation_pos_.line,
                              computation_pos_.column));
        EndComputation();
      }
      break;
    }
    // One defect, one finding: top-level items that fail one after another
    // (computation headers without bodies, each "found" the next header)
    // echo the first error, so theirs are dropped while resynchronising.
    // Instruction lines are independent: each failing one is reported.
    const bool top = state_ == State::kTop;
    const size_t errors_before = module_->syntax_errors.size();
    const bool ok = top ? ParseTopItem() : ParseBodyItem();
    if (ok) {
      resyncing_ = false;
      continue;
    }
    if (top && resyncing_ && !lx_.stopped()) {
      module_->syntax_errors.resize(errors_before);
    }
    resyncing_ = top;
    if (!lx_.stopped()) Resync();
  }
  if (!lx_.stopped() && module_->computation_count == 0 &&
      module_->syntax_errors.empty()) {
    lx_.Error(lx_.Pos(),
              "expected a computation (such as 'ENTRY main "
              "{ ... }') after the HloModule header, found end "
              "of file");
  }
}

// ---- Top level ------------------------------------------------------------

bool ModuleParser::ParseTopItem() {
  const TextPos pos = lx_.Pos();
  lx_.BeginStatement();
  const int c = lx_.Peek();
  if (c == '%') {
    if (!lx_.ReadName(&name_, "a computation name")) return false;
    return ParseComputation(pos, name_, /*is_entry=*/false);
  }
  if (!IsIdentStart(c)) {
    return lx_.Expected(anything_parsed_ ? "a computation"
                                         : "'HloModule' or a computation");
  }
  if (!lx_.ReadIdent(&word_)) return false;
  if (word_ == "HloModule") {
    if (module_->has_header || anything_parsed_) {
      return lx_.Error(pos,
                       "unexpected second 'HloModule' header: expected "
                       "one module per file");
    }
    return ParseHeader(pos);
  }
  if (word_ == "ENTRY") {
    if (!lx_.SkipTrivia() ||
        !lx_.ReadName(&name_, "a computation name after 'ENTRY'")) {
      return false;
    }
    return ParseComputation(pos, name_, /*is_entry=*/true);
  }
  if (IsSectionKeyword(word_)) return SkipStackFrameSection();
  return ParseComputation(pos, word_, /*is_entry=*/false);
}

bool ModuleParser::ParseHeader(TextPos pos) {
  module_->has_header = true;
  module_->header_pos = pos;
  anything_parsed_ = true;
  if (!lx_.SkipTrivia()) return false;
  const TextPos name_pos = lx_.Pos();
  if (!lx_.ReadName(&module_->name, "a module name after 'HloModule'")) {
    return false;
  }
  if (module_->name == kEntry || module_->name == kRoot) {
    return lx_.Error(name_pos, fmt::format("expected a module name after "
                                           "'HloModule', found '{}'",
                                           module_->name));
  }
  // XLA's lexer reads `name:` as one name token, so `HloModule m:` (common
  // in hand-written tests) is the module `m`.
  if (lx_.AtByte(':')) lx_.Bump();
  std::string key;
  for (;;) {
    if (!lx_.SkipTrivia()) return false;
    if (lx_.Peek() != ',') break;
    lx_.Bump();
    if (!lx_.SkipTrivia()) return false;
    const TextPos key_pos = lx_.Pos();
    if (!IsIdentStart(lx_.Peek())) {
      return lx_.Expected("a header attribute name after ','");
    }
    if (!lx_.ReadIdent(&key) || !lx_.SkipTrivia()) return false;
    if (!lx_.Eat('=')) {
      return lx_.Expected(fmt::format("'=' after header attribute '{}'", key));
    }
    if (!lx_.SkipTrivia()) return false;
    if (key == "replica_count" || key == "num_partitions") {
      const bool replicas = key == "replica_count";
      std::optional<int64_t>& slot =
          replicas ? module_->replica_count : module_->num_partitions;
      if (slot.has_value()) {
        return lx_.Error(key_pos, fmt::format("header attribute '{}' is given "
                                              "twice; expected it at most "
                                              "once",
                                              key));
      }
      const TextPos value_pos = lx_.Pos();
      int64_t value = 0;
      if (!lx_.ReadInt(&value, fmt::format("an integer {}", key))) return false;
      if (value < 1) {
        return lx_.Error(value_pos, fmt::format("{} must be a positive "
                                                "integer, found {}",
                                                key, value));
      }
      slot = value;
      (replicas ? module_->replica_count_pos : module_->num_partitions_pos) =
          key_pos;
    } else if (!lx_.SkipValue()) {
      return false;
    }
    if (!ExpectValueEnd(lx_, key)) return false;
  }
  return lx_.EndStatement();
}

bool ModuleParser::SkipStackFrameSection() {
  anything_parsed_ = true;
  for (;;) {
    if (!lx_.SkipTrivia()) return false;
    if (!lx_.AtInt()) return true;
    int64_t id = 0;
    if (!lx_.ReadInt(&id, "a stack-frame entry id") || !lx_.SkipTrivia()) {
      return false;
    }
    const int c = lx_.Peek();
    bool ok;
    if (c == '"' || c == '\'') {
      ok = lx_.ReadString(nullptr, 0);
    } else if (c == '{') {
      ok = lx_.SkipGroup();
    } else {
      ok = lx_.Expected(
          fmt::format("a string or '{{...}}' after stack-frame entry {}", id));
    }
    if (!ok) return false;
  }
}

bool ModuleParser::ParseComputation(TextPos pos, std::string name,
                                    bool is_entry) {
  computation_ = name;
  computation_pos_ = pos;
  table_.Clear();
  if (!lx_.SkipTrivia()) return false;
  if (lx_.Peek() == '=') {
    return lx_.Error(pos, fmt::format("expected a computation ('name {{' or "
                                      "'ENTRY name {{'), found instruction "
                                      "'{}' outside any computation",
                                      name));
  }
  if (!anything_parsed_ && !is_entry && lx_.Peek() != '(' &&
      lx_.Peek() != '{') {
    // The very first word of the file is neither `HloModule` nor the name
    // of a computation: most likely not HLO at all.
    return lx_.Error(pos, fmt::format("expected 'HloModule' or a computation "
                                      "('name {{' or 'ENTRY name {{'), found "
                                      "'{}'",
                                      name.substr(0, 40)));
  }
  if (lx_.Peek() == '(' && !ParseSignature()) return false;
  if (!lx_.SkipTrivia()) return false;
  if (!lx_.Eat('{')) {
    return lx_.Expected(
        fmt::format("'{{' to start the body of computation '{}'", name));
  }
  if (!lx_.EndStatement()) return false;
  StartComputation(std::move(name), is_entry, pos);
  return true;
}

bool ModuleParser::ParseSignature() {
  lx_.Bump();  // '('
  if (!lx_.SkipTrivia()) return false;
  if (!lx_.Eat(')')) {
    for (;;) {
      if (!lx_.SkipTrivia()) return false;
      SimpleParam param;
      if (ScanSimpleParam(lx_.cursor(), &param)) {
        // `p0: f32[8]{0}` as XLA prints it, straight from the window.
        table_.BeginWithShape(param.name, param.shape);
        table_.Commit();
        lx_.AdvanceTo(param.end);
        if (lx_.Eat(',')) continue;
        lx_.Bump();  // ')'
        break;
      }
      if (!lx_.ReadName(&name_, "a parameter name") || !lx_.SkipTrivia()) {
        return false;
      }
      if (!lx_.Eat(':')) {
        return lx_.Expected(fmt::format("':' after parameter '{}'", name_));
      }
      if (!lx_.SkipTrivia()) return false;
      table_.Begin(name_);
      capture_.clear();
      lx_.BeginCapture(&capture_, kMaxShapeCapture);
      const bool ok = SkipSignatureShape();
      const bool complete = lx_.EndCapture();
      table_.AppendPending(capture_);
      if (ok && complete) {
        table_.Commit();
      } else {
        table_.Abort();
      }
      if (!ok || !lx_.SkipTrivia()) return false;
      if (lx_.Eat(',')) continue;
      if (lx_.Eat(')')) break;
      return lx_.Expected(
          fmt::format("',' or ')' in the parameter list of computation '{}'",
                      computation_));
    }
  }
  if (!lx_.SkipTrivia()) return false;
  if (!(lx_.Peek() == '-' && lx_.PeekAt(1) == '>')) {
    return lx_.Expected(
        fmt::format("'->' and the result shape after the "
                    "parameters of computation '{}'",
                    computation_));
  }
  lx_.Bump();
  lx_.Bump();
  if (!lx_.SkipTrivia()) return false;
  if (const char* end = ScanSimpleResultShape(lx_.cursor())) {
    lx_.AdvanceTo(end);
    return true;
  }
  return SkipSignatureShape();
}

bool ModuleParser::SkipSignatureShape() {
  const int c = lx_.Peek();
  if (c == '(') return SkipAnyGroup(lx_);
  if (!IsIdentStart(c)) return lx_.Expected("a shape");
  if (!lx_.ReadIdent(&word_) || !lx_.SkipTrivia()) return false;
  if (word_ == "b" && lx_.Peek() == '(') return lx_.SkipGroup();  // buffer
  if (lx_.Peek() != '[') {
    return lx_.Expected(fmt::format("'[' after element type '{}'", word_));
  }
  return SkipArrayShapeRest(lx_);
}

void ModuleParser::StartComputation(std::string name, bool is_entry,
                                    TextPos pos) {
  state_ = State::kBody;
  anything_parsed_ = true;
  ++module_->computation_count;
  if (is_entry) {
    module_->entry_computation = name;
    entry_seen_ = true;
  } else if (!entry_seen_) {
    module_->entry_computation = name;
  }
  computation_ = std::move(name);
  computation_pos_ = pos;
}

void ModuleParser::EndComputation() {
  state_ = State::kTop;
  table_.Clear();
}

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
  if (ScanSimpleHead(lx_.cursor(), &head, &head_memo_))
    return ParseSimpleInstruction(pos, head);
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
    // non-collective instruction, at its '('.
    const bool ok = SkipInstructionBody(lx_) && lx_.EndStatement();
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
    return SkipInstructionBody(lx_) && lx_.EndStatement();
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
  c_op.opcode.assign(opcode);
  c_op.name.assign(percent_ ? "%" : "");
  c_op.name.append(table_.PendingName());
  c_op.computation.assign(computation_);
  c_op.kind = op->kind;
  c_op.is_async_start = op->async_start;
  c_op.pos = pos;
  c_op.opcode_pos = opcode_pos;
  c_op.is_root = is_root;
  if (keep_shape) {
    const size_t entry = memo_.TryFindShape(
        shape_in_window.empty() ? table_.PendingShape() : shape_in_window);
    if (entry != ValueMemo::kNoEntry) {
      c_op.result_shape = std::move(result_pool_[entry]);
      memo_.RecallShapeInto(entry, &c_op.result_shape);
      result_slot_ = entry;
    } else {
      c_op.result_shape = std::move(spare_result_);
      // (Nothing has read more input since the head: `shape_in_window` is
      // still in the window.)
      ParseResultShape(shape_in_window, lx_.limit(), table_.PendingShape(),
                       &memo_, &c_op.result_shape);
    }
  }
  if (!ParseCollectiveBody(lx_, table_, &memo_, &c_op) || !lx_.EndStatement()) {
    return false;
  }
  const bool send_recv =
      op->kind == CollectiveKind::kSend || op->kind == CollectiveKind::kRecv;
  if (!send_recv || c_op.source_target_pairs.present) {
    if (on_collective_) {
      on_collective_(*module_, c_op);
    } else {
      module_->collectives.push_back(std::move(c_op));
    }
  }
  return true;
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

// ---- Error recovery -------------------------------------------------------

void ModuleParser::Resync() {
  // Resume at the next line that starts an instruction, a computation or
  // '}'. The current line counts too when the error is at its first token
  // (and this is not a second failure at the same place).
  if (!lx_.AtLineStart() || lx_.Offset() == last_resync_offset_) {
    lx_.SkipLine();
  }
  FindResyncPoint();
  last_resync_offset_ = lx_.Offset();
}

void ModuleParser::FindResyncPoint() {
  for (;;) {
    if (lx_.stopped()) return;
    lx_.SkipBlanks();
    const int c = lx_.Peek();
    if (c == kEof) return;
    if (c == '\n') {
      lx_.SkipLine();
      continue;
    }
    if (c == '/' && (lx_.PeekAt(1) == '/' || lx_.PeekAt(1) == '*')) {
      if (!lx_.SkipTrivia()) lx_.SkipLine();
      continue;
    }
    switch (ClassifyLine()) {
      case LineKind::kClose:
        if (state_ == State::kBody) return;
        break;
      case LineKind::kInstruction:
        if (state_ == State::kTop) {
          state_ = State::kBody;
          table_.Clear();
        }
        return;
      case LineKind::kComputation:
        if (state_ == State::kBody) EndComputation();
        return;
      case LineKind::kOther:
        break;
    }
    lx_.SkipLine();
  }
}

ModuleParser::LineKind ModuleParser::ClassifyLine() {
  const HloLexer::Mark mark = lx_.SaveMark();
  LineKind kind = LineKind::kOther;
  int c = lx_.Peek();
  if (c == '}') {
    kind = LineKind::kClose;
  } else if (c == '%' || IsIdentStart(c)) {
    if (c == '%') lx_.Bump();
    std::string word;
    for (c = lx_.Peek(); IsIdentChar(c) && word.size() < 256; c = lx_.Peek()) {
      word.push_back(static_cast<char>(c));
      lx_.Bump();
    }
    lx_.SkipBlanks();
    const int next = lx_.Peek();
    if (word == "ROOT") {
      kind = LineKind::kInstruction;
    } else if (word == "ENTRY" || IsSectionKeyword(word)) {
      kind = LineKind::kComputation;
    } else if (word.empty() || word == "HloModule") {
      kind = LineKind::kOther;
    } else if (next == '=') {
      kind = LineKind::kInstruction;
    } else if (next == '{' || next == '(') {
      kind = LineKind::kComputation;
    }
  }
  lx_.Restore(mark);
  return kind;
}

}  // namespace topolint::hlo
