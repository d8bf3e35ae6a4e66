// The top-level scan of the StableHLO reader: comments (`// -----` parts,
// `// topolint:` directives), `module` headers and their counts, function
// names, Shardy meshes, location aliases and result names; every other byte
// is skipped. A collective op is handed to Reader::Op (mlir_op.cc).
#include <cstdio>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "checker/hlo/mlir/mlir_internal.h"
#include "checker/hlo/mlir/mlir_reader.h"
#include "checker/hlo/open_error.h"
#include "checker/hlo/suppression_directive.h"
#include "checker/io/input_file.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace mlir {

Reader::Reader(InputWindow* window, Module* module, const ParseOptions& options)
    : window_(window), cur_(window), module_(module), options_(options) {}

void Reader::Error(TextPos pos, std::string message) {
  if (stopped_) return;
  if (in_sdy_op_) {
    // A Shardy op in a form this reader does not follow: said at the op,
    // and not a syntax error (the module may well be valid).
    SdyNotChecked(pos,
                  fmt::format("its text is not understood here: {}", message));
    return;
  }
  if (static_cast<int>(module_->syntax_errors.size()) >=
      options_.max_syntax_errors) {
    module_->syntax_errors.push_back(SyntaxError{
        pos, fmt::format("too many syntax errors ({}); the rest of the file "
                         "was not checked",
                         options_.max_syntax_errors)});
    stopped_ = true;
    return;
  }
  module_->syntax_errors.push_back(SyntaxError{pos, std::move(message)});
}

bool Reader::Fail(std::string message) {
  Error(cur_.Pos(), std::move(message));
  return false;
}

bool Reader::Expect(int c, const char* what) {
  cur_.SkipSpace();
  if (cur_.Eat(c)) return true;
  const int got = cur_.Peek();
  return Fail(got == kEnd
                  ? fmt::format("expected {}, found the end of the input", what)
                  : fmt::format("expected {}, found '{}'", what,
                                static_cast<char>(got)));
}

// The reader's top-level dispatch over MLIR line kinds, one case each.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
void Reader::Run() {
  bool line_blank = true;  // only blanks so far on this line
  while (!stopped_) {
    if (line_blank && cur_.AtLineStart() && SkipDullLine()) continue;
    const int c = cur_.Peek();
    if (c == kEnd) break;
    if (c == '\n') {
      line_blank = true;
      cur_.Advance();
      continue;
    }
    if (IsBlank(c)) {
      cur_.Advance();
      continue;
    }
    if (c == '/' && cur_.PeekAt(1) == '/') {
      if (line_blank) {
        TopLevelComment();
        line_blank = true;  // the comment took its line break
      } else {
        cur_.SkipLine();
        line_blank = true;
      }
      continue;
    }
    if (line_blank && pending_next_line_ > 0) {
      // The first code on a line: the target of pending next-line
      // directives.
      for (Suppression& s : module_->suppressions) {
        if (s.target_line == 0) s.target_line = cur_.line();
      }
      pending_next_line_ = 0;
    }
    line_blank = false;
    if (c == '"') {
      const TextPos pos = cur_.Pos();
      if (!cur_.ReadString(&scratch_, 64)) continue;
      CollectiveKind kind;
      if (CollectiveOfOpName(scratch_, &kind)) {
        cur_.SkipSpace();
        if (cur_.Peek() == '(') {
          const std::string name = scratch_;
          Op(kind, pos, name);
        }
      } else if (IsCustomCallName(scratch_)) {
        // Generic form: the target is a property, read with the others;
        // the op counts only when it is ragged_all_to_all, so only an op
        // whose line names that target is read (the printer writes an op
        // on one line; other custom calls are skipped by bytes).
        std::string_view line;
        cur_.SkipSpace();
        if (cur_.Peek() == '(' && cur_.LineView(size_t{64} << 10, &line) &&
            line.find(kRaggedAllToAllTarget) != std::string_view::npos) {
          const std::string name = scratch_;
          custom_call_ = true;
          call_target_.clear();
          Op(CollectiveKind::kRaggedAllToAll, pos, name);
          custom_call_ = false;
        }
      } else if (scratch_ == "interpreter.run_parallel") {
        RunParallel();
      } else if (scratch_ == "sdy.mesh") {
        SdyMeshDef(pos, /*generic=*/true);
      } else if (SdyOpKind sdy; SdyCollectiveOfOpName(scratch_, &sdy)) {
        const std::string name = scratch_;
        cur_.SkipSpace();
        if (cur_.Peek() == '(') SdyGeneric(sdy, pos, name);
      }
      result_name_.clear();
    } else if (c == '%') {
      ResultName();
    } else if (c == '#' && cur_.AtLineStart()) {
      cur_.SkipLine();  // an alias: CollectLocs read it
      line_blank = true;
    } else if (IsIdStart(c)) {
      const TextPos pos = cur_.Pos();
      cur_.ReadId(&scratch_);
      CollectiveKind kind;
      if (scratch_ == "module") {
        ModuleHeader(pos);
      } else if (scratch_ == "func.func") {
        FuncHeader();
      } else if (scratch_ == "sdy.mesh") {
        SdyMeshDef(pos, /*generic=*/false);
      } else if (scratch_ == "mhlo.sharding") {
        ShardingAttr(pos);
      } else if (scratch_ == "loc" && cur_.Peek() == '(') {
        SourceLoc ignored;
        ReadLoc(&ignored, 0);
      } else if (CollectiveOfOpName(scratch_, &kind)) {
        cur_.SkipSpace();
        if (cur_.Peek() == '(') {
          const std::string name = scratch_;
          Op(kind, pos, name);
        }
      } else if (IsCustomCallName(scratch_)) {
        PrettyCustomCall(pos);
      } else if (SdyOpKind sdy; SdyCollectiveOfOpName(scratch_, &sdy)) {
        const std::string name = scratch_;
        SdyOp(sdy, pos, name);
      }
      result_name_.clear();
    } else if (IsDigit(c)) {
      // A number or a dimension list (`2x4xf32`): not an identifier.
      while (IsIdByte(cur_.Peek())) cur_.Advance();
    } else {
      cur_.Advance();
    }
  }
  FlushDeferred();
  // The last part of a split file is named as the others were.
  if (parts_done_ > 0 && options_.on_module_split) NamePart();
  // Directives with no code after them silence their own line's next one.
  for (Suppression& s : module_->suppressions) {
    if (s.target_line == 0) s.target_line = s.pos.line + 1;
  }
}

void Reader::PrettyCustomCall(TextPos pos) {
  // `stablehlo.custom_call @ragged_all_to_all(%a, ...) {backend_config =
  // {replica_groups = ..., channel_id = 1 : i64}} : (...) -> ...`, what
  // jax.lax.ragged_all_to_all lowers to; any other target is no collective.
  const std::string name = scratch_;
  cur_.SkipSpace();
  if (!cur_.Eat('@')) return;
  std::string target;
  if (cur_.Peek() == '"') {
    if (!cur_.ReadString(&target, 256)) return;
  } else if (!cur_.ReadId(&target)) {
    return;
  }
  if (target != kRaggedAllToAllTarget) return;
  cur_.SkipSpace();
  if (cur_.Peek() != '(') return;
  custom_call_ = true;
  call_target_ = target;
  Op(CollectiveKind::kRaggedAllToAll, pos, name);
  custom_call_ = false;
}

void Reader::TopLevelComment() {
  const TextPos pos = cur_.Pos();
  const int64_t offset = cur_.Offset() + window_->skipped_prefix();
  std::string text;
  while (cur_.Peek() != kEnd && cur_.Peek() != '\n') {
    if (text.size() < 4096) text.push_back(static_cast<char>(cur_.Peek()));
    cur_.Advance();
  }
  cur_.Advance();  // the line break
  absl::string_view body = absl::string_view(text).substr(2);
  if (absl::StartsWith(body, " -----") || absl::StartsWith(body, "-----")) {
    Split();
    return;
  }
  absl::string_view directive = absl::StripLeadingAsciiWhitespace(body);
  if (!absl::ConsumePrefix(&directive, "topolint:")) return;
  SuppressionDirective d = ParseSuppressionDirective(
      std::string_view(directive.data(), directive.size()));
  if (!d.error.empty()) {
    Error(pos, d.error);
    return;
  }
  Suppression s;
  s.pos = pos;
  s.offset = offset;
  s.comment = text;
  while (!s.comment.empty() && s.comment.back() == '\r') s.comment.pop_back();
  s.rules = std::move(d.rules);
  s.target_line = d.next_line ? 0 : pos.line;  // 0: the next code line
  if (d.next_line) ++pending_next_line_;
  module_->suppressions.push_back(std::move(s));
}

void Reader::StartPart() {
  const std::string file = module_->file;
  for (Suppression& s : module_->suppressions) {
    if (s.target_line == 0) s.target_line = s.pos.line + 1;
  }
  pending_next_line_ = 0;
  ClearValueShardings();
  FlushDeferred();
  NamePart();
  options_.on_module_split(*module_);
  *module_ = Module();
  module_->file = file;
  module_->stablehlo = true;
  part_has_content_ = false;
  defer_off_ = false;
  partitions_from_mesh_ = false;
  meshes_.clear();
}

void Reader::NamePart() {
  // A part is a module of its own: one without a name is `part N` (1-based,
  // in file order), and one that repeats an earlier part's name is
  // `name (part N)`, so that explain and the messages that name a module
  // tell the parts of one file apart.
  ++parts_done_;
  if (module_->name.empty()) {
    module_->name = fmt::format("part {}", parts_done_);
  } else if (!part_names_.insert(module_->name).second) {
    module_->name = fmt::format("{} (part {})", module_->name, parts_done_);
  } else if (part_names_.size() > 4096) {
    part_names_.clear();  // bounded
  }
}

void Reader::Split() {
  ++part_index_;
  computation_.clear();
  result_name_.clear();
  ClearValueShardings();
  if (options_.on_module_split) {
    StartPart();
  } else {
    FlushDeferred();
  }
}

void Reader::ModuleHeader(TextPos pos) {
  cur_.SkipSpace();
  const int c = cur_.Peek();
  if (c != '@' && c != '{' && c != 'a') return;  // not the module op
  if (part_has_content_ && options_.on_module_split) {
    // Another module after collectives, without a `// -----` before it.
    StartPart();
  }
  if (module_->has_header) return;  // a module nested in the first
  module_->has_header = true;
  module_->header_pos = pos;
  if (cur_.Eat('@')) {
    if (cur_.Peek() == '"') {
      cur_.ReadString(&module_->name, 1024);
    } else {
      cur_.ReadId(&module_->name, 1024);
    }
    cur_.SkipSpace();
  }
  if (cur_.Peek() == 'a') {
    std::string word;
    cur_.ReadId(&word);
    if (word == "attributes") ModuleAttributes();
  }
}

void Reader::ModuleAttributes() {
  cur_.SkipSpace();
  if (!cur_.Eat('{')) return;
  const int64_t start = cur_.Offset();
  for (;;) {
    cur_.SkipSpace();
    if (cur_.Eat('}') || cur_.AtEnd()) return;
    if (cur_.Offset() - start > options_.max_instruction_bytes) return;
    const TextPos key_pos = cur_.Pos();
    std::string key;
    if (cur_.Peek() == '"') {
      if (!cur_.ReadString(&key)) return;
    } else if (!cur_.ReadId(&key)) {
      cur_.Advance();
      continue;
    }
    cur_.SkipSpace();
    if (cur_.Eat('=')) {
      cur_.SkipSpace();
      int64_t value = 0;
      const bool count =
          key == "mhlo.num_partitions" || key == "mhlo.num_replicas";
      if (count && cur_.ReadInt(&value)) {
        if (key == "mhlo.num_partitions") {
          module_->num_partitions = value;
          module_->num_partitions_pos = key_pos;
          partitions_from_mesh_ = false;
        } else {
          module_->replica_count = value;
          module_->replica_count_pos = key_pos;
        }
      }
      // The value, or what follows the number (`: i32`).
      if (!cur_.SkipValue(options_.max_instruction_bytes, kMaxNestingDepth)) {
        return;
      }
    }
    cur_.SkipSpace();
    cur_.Eat(',');
  }
}

void Reader::FuncHeader() {
  ClearValueShardings();  // SSA names are the function's own
  cur_.SkipSpace();
  std::string word;
  if (IsIdStart(cur_.Peek())) {
    cur_.ReadId(&word);  // public, private, nested
    cur_.SkipSpace();
  }
  if (!cur_.Eat('@')) return;
  if (cur_.Peek() == '"') {
    cur_.ReadString(&computation_, 1024);
  } else {
    cur_.ReadId(&computation_, 1024);
  }
  cur_.SkipSpace();
  if (cur_.Peek() == '(') FuncArgs();
}

void Reader::ResultName() {
  const TextPos pos = cur_.Pos();
  std::string name = "%";
  cur_.Advance();
  while (IsIdByte(cur_.Peek())) {
    if (name.size() < 1024) name.push_back(static_cast<char>(cur_.Peek()));
    cur_.Advance();
  }
  while (cur_.Peek() == ' ') cur_.Advance();
  if (cur_.Peek() == ':' && IsDigit(cur_.PeekAt(1))) {
    cur_.Advance();
    while (IsDigit(cur_.Peek())) cur_.Advance();
    while (cur_.Peek() == ' ') cur_.Advance();
  }
  if (cur_.Peek() == '=' && cur_.PeekAt(1) != '=') {
    cur_.Advance();
    result_name_ = std::move(name);
    result_pos_ = pos;
  } else if (cur_.Peek() != ',') {
    result_name_.clear();
  }
}

}  // namespace mlir

void ParseStableHlo(std::string_view text, const std::string& display_name,
                    const ParseOptions& options, Module* module) {
  *module = Module();
  module->file = display_name;
  module->stablehlo = true;
  Module unused;
  InputWindow aliases(text, options.window_bytes);
  mlir::Reader pre(&aliases, &unused, options);
  pre.CollectLocs();
  InputWindow window(text, options.window_bytes);
  mlir::Reader reader(&window, module, options);
  reader.AdoptLocs(pre);
  reader.Run();
}

absl::Status ParseStableHloFile(const std::string& path,
                                const std::string& display_name,
                                const ParseOptions& options, Module* module) {
  return ReadModuleFile(
      path, display_name, options, module, [&](InputWindow& window) {
        module->stablehlo = true;
        mlir::Reader reader(&window, module, options);
        // The location aliases first, from a second reading of the file (a
        // regular file: the dispatcher reads a pipe into memory).
        absl::StatusOr<std::FILE*> again = OpenInputFile(path);
        if (again.ok()) {
          {
            InputWindow aliases(*again, options.window_bytes);
            aliases.set_limit(options.max_file_bytes);
            Module unused;
            mlir::Reader collect(&aliases, &unused, options);
            collect.CollectLocs();
            reader.AdoptLocs(collect);
          }
          std::fclose(*again);
        }
        reader.Run();
      });
}

std::vector<Module> ParseStableHloModules(std::string_view text,
                                          const std::string& display_name,
                                          ParseOptions options) {
  std::vector<Module> out;
  options.on_module_split = [&out](Module& m) { out.push_back(std::move(m)); };
  Module last;
  ParseStableHlo(text, display_name, options, &last);
  out.push_back(std::move(last));
  return out;
}

}  // namespace topolint::hlo
