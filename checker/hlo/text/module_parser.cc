#include "checker/hlo/text/module_parser.h"

#include <optional>
#include <utility>
#include <vector>

#include "checker/hlo/sdy_meshes.h"
#include "checker/hlo/text/collective_parser.h"
#include "checker/hlo/text/fast_paths.h"
#include "checker/hlo/text/instruction_head.h"
#include "checker/hlo/text/shape_parser.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

// Bytes checked for binary content before parsing.
constexpr size_t kSniffBytes = 4096;

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
  const std::optional<HloLexer::ControlByte> control =
      lx_.FindControlByte(kSniffBytes);
  if (!control.has_value()) {
    Parse();
    return;
  }
  // A control byte in the first 4 KiB. Text that parses cleanly up to it
  // (a whole module with a NUL after it, say) is checked, and the byte is
  // reported where it is, as one further into the file is (the lexer stops
  // there). Anything else is binary data: the byte is its one finding, and
  // nothing before it is kept (neither the errors garbage before it gives,
  // nor a collective). The collectives are held back until that is known:
  // they lie in the first 4 KiB.
  const Module before = *module_;
  CollectiveSink sink = std::move(on_collective_);
  on_collective_ = nullptr;
  Parse();
  on_collective_ = std::move(sink);
  const std::vector<SyntaxError>& errors = module_->syntax_errors;
  const bool clean =
      errors.size() == 1 && errors[0].pos.line == control->pos.line &&
      errors[0].pos.column == control->pos.column &&
      errors[0].message == HloLexer::NotTextMessage(control->byte);
  if (!clean) {
    *module_ = before;
    SyntaxError e;
    e.pos = control->pos;
    e.message = HloLexer::NotTextMessage(control->byte);
    module_->syntax_errors.push_back(std::move(e));
    return;
  }
  if (on_collective_) {
    for (Collective& c : module_->collectives) on_collective_(*module_, c);
    module_->collectives.clear();
  }
}

void ModuleParser::Parse() {
  // Known for text in memory (-1 for a file, read in chunks).
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
    } else if (key == "frontend_attributes") {
      // Shardy's xla.sdy.meshes, for explain (checker/hlo/sdy_meshes.h).
      std::string value;
      lx_.BeginCapture(&value, size_t{1} << 16);
      const bool skipped = lx_.SkipValue();
      const bool whole = lx_.EndCapture();
      if (!skipped) return false;
      if (whole) ReadSdyMeshes(value, key_pos, module_);
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
      if (lx_.FastPathOn(FastPath::kScanSimpleParam) && ParamFromWindow()) {
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
  return SkipSignatureShape();
}

bool ModuleParser::ParamFromWindow() {
  SimpleParam param;
  std::string fast_name;  // (copies for the debug check)
  std::string fast_shape;
  return CheckedFastPath(
      lx_, "ScanSimpleParam",
      [&] {
        if (!ScanSimpleParam(lx_.cursor(), &param)) return false;
        // `p0: f32[8]{0}` as XLA prints it, straight from the window.
        table_.BeginWithShape(param.name, param.shape);
        table_.Commit();
        if (kCheckFastPaths) {
          fast_name.assign(param.name);
          fast_shape.assign(param.shape);
        }
        lx_.AdvanceTo(param.end);
        return true;
      },
      [&] { return ExactParamAgrees(fast_name, fast_shape); });
}

bool ModuleParser::ExactParamAgrees(std::string_view name,
                                    std::string_view shape) {
  // The exact steps of ParseSignature, without the shape table.
  const HloLexer::ExactOnly exact(lx_);
  std::string exact_name;
  std::string exact_shape;
  if (!lx_.ReadName(&exact_name, "a parameter name") || !lx_.SkipTrivia() ||
      !lx_.Eat(':') || !lx_.SkipTrivia()) {
    return false;
  }
  lx_.BeginCapture(&exact_shape, kMaxShapeCapture);
  const bool ok = SkipSignatureShape();
  return lx_.EndCapture() && ok && exact_name == name && exact_shape == shape;
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
