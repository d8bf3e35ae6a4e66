// Test-side reader of the instructions of an HLO text module that carry a
// sharding (`sharding={...}`, and `domain={kind="sharding", entry=...,
// exit=...}` on a domain), for the binary twins of text fixtures
// (hlo_proto_writer.h): the parsed module (hlo::Module) keeps only a
// summary of its shardings, so the writer needs each one with its
// instruction, computation, result shape and place in the file.
//
// The values are parsed by the checker's own sharding parser
// (checker/hlo/sharding/sharding_text.h) and shapes by its exact shape
// parser, so what the binary twin carries is what the text front end read.
// The instruction framing here is a small scanner of the statement grammar
// (computations, `[ROOT] name = shape opcode(operands), key=value, ...`),
// enough for well-formed modules: modules with syntax errors have no binary
// twin.
#ifndef TOPOLINT_TESTS_COMMON_HLO_TEXT_SHARDINGS_H_
#define TOPOLINT_TESTS_COMMON_HLO_TEXT_SHARDINGS_H_

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/sharding/sharding.h"
#include "checker/hlo/sharding/sharding_text.h"
#include "checker/hlo/text/shape_parser.h"

namespace topolint::testing {

struct TextShardedInstruction {
  std::string computation;  // without '%'
  std::string name;         // without '%'
  std::string opcode;
  hlo::Shape shape;  // unknown when its text does not parse
  std::optional<hlo::Sharding> sharding;  // `sharding=`
  // `domain=` (a domain instruction's entry and exit shardings).
  std::optional<hlo::Sharding> domain_entry, domain_exit;
  int64_t line = 0;  // 1-based line of the instruction's name
};

namespace text_shardings {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : t_(text) {}

  std::vector<TextShardedInstruction> Run() {
    for (;;) {
      SkipTrivia(/*newlines=*/true);
      if (Done()) break;
      const std::string_view word = Word();
      if (word == "HloModule") {
        SkipHeader();
      } else if (word == "FileNames" || word == "FunctionNames" ||
                 word == "FileLocations" || word == "StackFrames") {
        SkipStackFrameTable();
      } else if (!Computation()) {
        break;
      }
    }
    return std::move(out_);
  }

 private:
  bool Done() const { return i_ >= t_.size(); }
  char At(size_t k) const { return k < t_.size() ? t_[k] : '\0'; }

  static bool IsNameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' ||
           c == '-' || c == '.' || c == '%' || c == '$';
  }

  void Advance() {
    if (At(i_) == '\n') ++line_;
    ++i_;
  }

  // Blanks and comments; line breaks too when `newlines`.
  void SkipTrivia(bool newlines) {
    while (!Done()) {
      const char c = At(i_);
      if (c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n')) {
        Advance();
      } else if (c == '/' && At(i_ + 1) == '/') {
        while (!Done() && At(i_) != '\n') Advance();
      } else if (c == '/' && At(i_ + 1) == '*') {
        Advance();
        Advance();
        while (!Done() && !(At(i_) == '*' && At(i_ + 1) == '/')) Advance();
        if (!Done()) {
          Advance();
          Advance();
        }
      } else {
        return;
      }
    }
  }

  std::string_view Word() const {
    size_t k = i_;
    while (k < t_.size() && IsNameChar(t_[k])) ++k;
    return t_.substr(i_, k - i_);
  }

  std::string TakeWord() {
    const std::string w(Word());
    for (size_t k = 0; k < w.size(); ++k) Advance();
    return w;
  }

  void SkipString() {
    Advance();  // '"'
    while (!Done() && At(i_) != '"') {
      if (At(i_) == '\\') Advance();
      Advance();
    }
    if (!Done()) Advance();
  }

  // One bracketed group from its opener, nested groups, strings and
  // comments included.
  void SkipBalanced() {
    int depth = 0;
    while (!Done()) {
      const char c = At(i_);
      if (c == '"') {
        SkipString();
        continue;
      }
      if (c == '/' && (At(i_ + 1) == '/' || At(i_ + 1) == '*')) {
        SkipTrivia(false);
        continue;
      }
      Advance();
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (depth <= 0) return;
    }
  }

  // `HloModule name, key=value, ...` up to the end of its line, or of the
  // next when a line ends with ',' (a value's brackets may cross line
  // breaks too).
  void SkipHeader() {
    char last = 0;  // the last byte that is not blank
    while (!Done()) {
      const char c = At(i_);
      if (c == '\n' && last != ',') return;
      if (c == '"') {
        SkipString();
      } else if (c == '/' && (At(i_ + 1) == '/' || At(i_ + 1) == '*')) {
        SkipTrivia(false);
        continue;
      } else if (c == '(' || c == '[' || c == '{') {
        SkipBalanced();
      } else {
        Advance();
      }
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') last = c;
    }
  }

  // A stack frame table (`FileNames` and its `N "..."` rows, ...): up to
  // the first blank line.
  void SkipStackFrameTable() {
    while (!Done()) {
      while (!Done() && At(i_) != '\n') Advance();
      Advance();
      size_t k = i_;
      while (k < t_.size() &&
             (t_[k] == ' ' || t_[k] == '\t' || t_[k] == '\r')) {
        ++k;
      }
      if (k >= t_.size() || t_[k] == '\n') return;
    }
  }

  // `[ENTRY] name [(params) -> shape] {` then its instructions and `}`.
  bool Computation() {
    if (Word() == "ENTRY") {
      TakeWord();
      SkipTrivia(true);
    }
    std::string name = TakeWord();
    if (name.empty()) return false;
    if (name[0] == '%') name.erase(0, 1);
    // The body's '{' is the first one at this level not glued to a ']' (a
    // result shape's layout is).
    while (!Done()) {
      const char c = At(i_);
      if (c == '{' && i_ > 0 && t_[i_ - 1] != ']') break;
      if (c == '(' || c == '[' || c == '{') {
        SkipBalanced();
      } else if (c == '"') {
        SkipString();
      } else {
        Advance();
      }
    }
    if (Done()) return false;
    Advance();  // '{'
    for (;;) {
      SkipTrivia(true);
      if (Done()) return false;
      if (At(i_) == '}') {
        Advance();
        // `}, execution_thread="main"`: the computation's attributes.
        SkipTrivia(false);
        if (At(i_) == ',') SkipHeader();
        return true;
      }
      if (!Instruction(name)) return false;
    }
  }

  // `[ROOT] name = shape opcode(operands)[, key=value]...`.
  bool Instruction(const std::string& computation) {
    if (Word() == "ROOT") {
      TakeWord();
      SkipTrivia(true);
    }
    TextShardedInstruction ins;
    ins.computation = computation;
    ins.line = line_;
    ins.name = TakeWord();
    if (ins.name.empty()) return false;
    if (ins.name[0] == '%') ins.name.erase(0, 1);
    SkipTrivia(true);
    if (At(i_) != '=') return false;
    Advance();
    SkipTrivia(true);
    // The shape runs up to the opcode: a word glued to '(' at this level.
    const size_t shape_begin = i_;
    size_t shape_end = i_;
    while (!Done()) {
      const char c = At(i_);
      if (IsNameChar(c) && (i_ == shape_begin || !IsNameChar(t_[i_ - 1]))) {
        const std::string_view w = Word();
        if (At(i_ + w.size()) == '(') {
          ins.opcode = std::string(w);
          for (size_t k = 0; k < w.size(); ++k) Advance();
          break;
        }
      }
      if (c == '(' || c == '[' || c == '{') {
        SkipBalanced();
      } else if (c == '\n' || c == '}') {
        return false;
      } else {
        Advance();
      }
      if (c != ' ' && c != '\t') shape_end = i_;
    }
    if (ins.opcode.empty()) return false;
    (void)hlo::ParseShapeTextExact(
        t_.substr(shape_begin, shape_end - shape_begin), &ins.shape);
    SkipBalanced();  // the operands
    while (Attribute(&ins)) {
    }
    if (ins.sharding || ins.domain_entry) out_.push_back(std::move(ins));
    return true;
  }

  // `, key=value` (line breaks may come between them); false at the
  // instruction's end.
  bool Attribute(TextShardedInstruction* ins) {
    const size_t save = i_;
    const int64_t save_line = line_;
    SkipTrivia(true);
    if (At(i_) != ',') {
      i_ = save;
      line_ = save_line;
      return false;
    }
    Advance();
    SkipTrivia(true);
    const std::string key = TakeWord();
    SkipTrivia(false);
    if (At(i_) != '=') return false;
    Advance();
    SkipTrivia(false);
    const std::string_view rest = t_.substr(i_);
    size_t end = 0;
    if (key == "sharding") {
      const hlo::ShardingParse p = hlo::ParseShardingText(rest);
      if (p.ok()) {
        ins->sharding = *p.sharding;
        end = p.end;
      }
    } else if (key == "domain" && ins->opcode == "domain") {
      const hlo::DomainParse d = hlo::ParseDomainText(rest);
      if (d.ok()) {
        ins->domain_entry = *d.entry;
        ins->domain_exit = *d.exit;
        end = d.end;
      }
    }
    if (end > 0) {
      for (size_t k = 0; k < end; ++k) Advance();
      return true;
    }
    // Any other value: bracketed groups, strings and bare bytes up to the
    // next ',' or line break at this level, or a blank not followed by a
    // bracket (the mesh form `mesh['x'=2] {'x'}` holds one).
    while (!Done()) {
      const char c = At(i_);
      if (c == ' ' || c == '\t') {
        size_t k = i_;
        while (At(k) == ' ' || At(k) == '\t') ++k;
        if (At(k) != '{' && At(k) != '[') break;
      }
      if (c == ',' || c == '\n' || c == '\r' || c == '}' || c == ')') {
        break;
      }
      if (c == '(' || c == '[' || c == '{') {
        SkipBalanced();
      } else if (c == '"') {
        SkipString();
      } else {
        Advance();
      }
    }
    return true;
  }

  std::string_view t_;
  size_t i_ = 0;
  int64_t line_ = 1;
  std::vector<TextShardedInstruction> out_;
};

}  // namespace text_shardings

// The instructions of `text` that carry a sharding, in file order.
inline std::vector<TextShardedInstruction> ShardedInstructions(
    std::string_view text) {
  return text_shardings::Scanner(text).Run();
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_COMMON_HLO_TEXT_SHARDINGS_H_
