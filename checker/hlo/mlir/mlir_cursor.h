// A byte cursor over an InputWindow for the StableHLO front end: one byte
// at a time, with its line and column, refilling the window as it goes and
// never keeping a byte behind the current one (so the window stays bounded
// whatever the input). The lexing helpers the reader needs (trivia, names,
// quoted strings, integers, balanced skips) are here too. Internal to
// checker/hlo/mlir.
#ifndef TOPOLINT_CHECKER_HLO_MLIR_MLIR_CURSOR_H_
#define TOPOLINT_CHECKER_HLO_MLIR_MLIR_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "checker/diag/location.h"
#include "checker/hlo/input_window.h"

namespace topolint::hlo::mlir {

inline constexpr int kEnd = -1;

// [A-Za-z_]: a bare identifier's first byte.
inline bool IsIdStart(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
// [A-Za-z0-9_.$-]: MLIR's bare-id and suffix-id bytes.
inline bool IsIdByte(int c) {
  return IsIdStart(c) || (c >= '0' && c <= '9') || c == '.' || c == '$' ||
         c == '-';
}
inline bool IsDigit(int c) { return c >= '0' && c <= '9'; }
inline bool IsBlank(int c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
         c == '\v';
}

class Cursor {
 public:
  explicit Cursor(InputWindow* window);
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  // The current byte, or kEnd.
  int Peek() {
    if (p_ == end_ && !Fill()) return kEnd;
    return static_cast<unsigned char>(*p_);
  }
  // The byte `k` ahead of the current one (k small), or kEnd. Inline
  // while the byte is in the window (most calls: a few bytes ahead of an
  // op's start); PeekAtRefill moves the window otherwise.
  int PeekAt(size_t k) {
    if (static_cast<size_t>(end_ - p_) > k) {
      return static_cast<unsigned char>(p_[k]);
    }
    return PeekAtRefill(k);
  }
  void Advance() {
    if (p_ == end_ && !Fill()) return;
    if (*p_ == '\n') {
      ++line_;
      line_start_ = Offset() + 1;
    }
    ++p_;
  }
  bool AtEnd() { return Peek() == kEnd; }
  // Consumes `c` when it is next.
  bool Eat(int c) {
    if (Peek() != c) return false;
    Advance();
    return true;
  }

  int64_t Offset() const { return window_->base() + (p_ - window_->begin()); }
  int64_t line() const { return line_; }
  // True when only blanks precede the cursor on its line.
  bool AtLineStart() const { return line_start_ == Offset(); }
  TextPos Pos() const {
    TextPos pos;
    pos.line = line_;
    pos.column = Offset() - line_start_ + 1;
    return pos;
  }

  // Blanks, line breaks and `//` comments (without looking at them).
  void SkipSpace();
  // A bare identifier ([A-Za-z_][A-Za-z0-9_.$-]*) into `out`, at most `cap`
  // bytes kept (the rest is consumed); false when none starts here.
  bool ReadId(std::string* out, size_t cap = 256);
  // A quoted string at '"' (escapes kept undecoded), `cap` bytes kept;
  // false at an unterminated one.
  bool ReadString(std::string* out, size_t cap = 256);
  // An optionally signed decimal or 0x hexadecimal integer; false (nothing
  // consumed past the sign) when none is here or it overflows.
  bool ReadInt(int64_t* out);
  // Consumes up to and including the line break (or the end).
  void SkipLine();
  // The same, a window at a time (memchr): for passes that look at line
  // starts only.
  void SkipLineFast();
  // The rest of the current line (without its '\n'), whole in the window,
  // when it is at most `max` bytes; false for a longer one. The view is
  // valid until the cursor moves.
  bool LineView(size_t max, std::string_view* out);
  // At an opener ( [ { <, consumes through its matching closer, skipping
  // strings and comments; `->` does not close a `<`. False at the end of
  // the input, past `max_bytes`, or nested deeper than `max_depth`.
  bool SkipBalanced(int64_t max_bytes, int max_depth);
  // Skips one attribute value up to (not including) the ',' or closer that
  // ends it at depth 0, skipping strings and comments.
  bool SkipValue(int64_t max_bytes, int max_depth);

 private:
  // Skips what starts with `c`, no bracket: a string, a `//` comment, an
  // arrow `->`, or the byte. False on a string cut by the end.
  bool SkipOne(int c, std::string* scratch);
  int PeekAtRefill(size_t k);
  bool Fill();

  InputWindow* window_;
  const char* p_;
  const char* end_;
  int64_t line_ = 1;
  int64_t line_start_ = 0;  // absolute offset of the current line's byte 0
};

}  // namespace topolint::hlo::mlir

#endif  // TOPOLINT_CHECKER_HLO_MLIR_MLIR_CURSOR_H_
