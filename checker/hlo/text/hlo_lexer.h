// Byte-level scanning of HLO text over an InputWindow: positions, trivia
// (whitespace and comments, including `// topolint:` directives), names,
// integers, strings, and fast brace/paren/string-aware skipping of the parts
// of an instruction nobody needs. Errors go straight into the Module.
// Internal to checker/hlo/text.
//
// Pointers into the window are only ever held in locals between two calls
// that may refill it; every public method keeps the cursor consistent.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_HLO_LEXER_H_
#define TOPOLINT_CHECKER_HLO_TEXT_HLO_LEXER_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/diag/location.h"
#include "checker/hlo/fast_path_check.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/input_window.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/text/byte_classes.h"
#include "checker/hlo/text/fast_path_switch.h"
#include "checker/hlo/text/hlo_check.h"

namespace topolint::hlo {

struct ShardingBraces;  // fast_scan.h

// Not copyable. `window` and `module` must outlive the lexer. `module` may be
// null: errors and directives are then dropped (used to re-parse captured
// shape text).
class HloLexer {
 public:
  HloLexer(InputWindow* window, Module* module, const ParseOptions& options);
  HloLexer(const HloLexer&) = delete;
  HloLexer& operator=(const HloLexer&) = delete;

  // ---- Position -----------------------------------------------------------
  int64_t Offset() const { return window_->base() + (p_ - window_->begin()); }
  TextPos Pos() const { return TextPos{line_, Offset() - line_start_ + 1}; }

  // ---- Raw access (fast paths) --------------------------------------------
  // The cursor and the end of the buffered bytes; *limit() == '\0' and
  // InputWindow::kSlackBytes readable bytes follow it. Valid until the next
  // call that may read more input.
  const char* cursor() const { return p_; }
  const char* limit() const { return end_; }
  // Moves the cursor forward to `q` (in [cursor(), limit()]) over bytes that
  // hold no newline.
  void AdvanceTo(const char* q) {
    TOPOLINT_DCHECK(q >= p_ && q <= end_);
    TOPOLINT_DCHECK(std::memchr(p_, '\n', static_cast<size_t>(q - p_)) ==
                    nullptr);
    p_ = q;
  }

  // ---- Bytes --------------------------------------------------------------
  // The byte at the cursor (0..255) or kEof.
  int Peek() {
    return p_ < end_ ? static_cast<unsigned char>(*p_) : PeekSlow();
  }
  // The byte k places ahead (k < 64), or kEof.
  int PeekAt(size_t k);
  // Consumes the peeked byte, which must not be '\n'.
  void Bump() {
    TOPOLINT_DCHECK(p_ < end_ && *p_ != '\n');
    ++p_;
  }
  // Consumes `c` (not '\n') when it is next.
  [[nodiscard]] bool Eat(char c) {
    if (Peek() != static_cast<unsigned char>(c)) return false;
    ++p_;
    return true;
  }

  // ---- Trivia -------------------------------------------------------------
  // Skips whitespace, newlines and comments, recording `// topolint:`
  // directives. False after an error (unterminated comment, binary data).
  [[nodiscard]] bool SkipTrivia() {
    const char* const start = p_;
    while (*p_ == ' ') ++p_;  // the NUL sentinel stops the loop
    const char c = *p_;
    if (!IsTriviaStart(c)) return true;
    if (c == '\n') {
      // The common line break between two instructions: a newline, the
      // next line's indentation, then code.
      const char* q = p_ + 1;
      while (*q == ' ') ++q;
      if (!IsTriviaStart(*q)) {
        NewlineAt(p_);
        p_ = q;
        trivia_line_start_ = Offset();
        trivia_end_ = trivia_line_start_;
        trivia_begin_ = trivia_end_ - (q - start);
        return true;
      }
    }
    return SkipTriviaSlow(p_ - start);
  }
  // Skips spaces and tabs only.
  void SkipBlanks();
  // Bytes at which SkipTrivia has work to do beyond spaces (the NUL may be
  // the end of the window): where neither this nor ' ' is, SkipTrivia
  // skips nothing.
  static bool IsTriviaStart(char c) {
    return c == '\n' || c == '/' || c == '\t' || c == '\r' || c == '\0' ||
           c == '\f' || c == '\v';
  }

  // ---- Tokens -------------------------------------------------------------
  // [A-Za-z_][A-Za-z0-9_.-]*; `*out` is replaced. Precondition:
  // IsIdentStart(Peek()).
  [[nodiscard]] bool ReadIdent(std::string* out);
  // Like ReadIdent, but returns a view that stays valid only until the next
  // call that may read more input (Peek, SkipTrivia, ...).
  // Inline when the identifier ends inside the window (attribute keys,
  // opcodes); ReadIdentViewSlow otherwise.
  [[nodiscard]] bool ReadIdentView(std::string_view* out) {
    const char* p = SkipIdentBytes(p_);  // NUL stops
    if (p < end_ && p - p_ <= kMaxTokenBytes) {
      *out = std::string_view(p_, static_cast<size_t>(p - p_));
      p_ = p;
      return true;
    }
    return ReadIdentViewSlow(out);
  }
  // True when the byte at the cursor is `c` (never reads more input).
  bool AtByte(char c) const { return *p_ == c; }
  // An instruction or computation name: optional '%' then an identifier.
  // `*out` holds the name as written (with '%'). Reports "expected <what>"
  // when there is none.
  [[nodiscard]] bool ReadName(std::string* out, std::string_view what);
  // -?[0-9]+ into *value; reports overflow of int64 and a missing integer
  // ("expected <what>"). Inline for a non-negative one of at most 18
  // digits that ends inside the window (so it cannot overflow or continue);
  // ReadIntSlow otherwise.
  [[nodiscard]] bool ReadInt(int64_t* value, std::string_view what) {
    const char* q = p_;
    int64_t acc = 0;
    while (IsDigit(*q) && q - p_ < 18) acc = acc * 10 + (*q++ - '0');
    if (q != p_ && q < end_ && !IsDigit(*q)) {
      *value = acc;
      p_ = q;
      return true;
    }
    return ReadIntSlow(value, what);
  }
  // True when an integer starts at the cursor.
  [[nodiscard]] bool AtInt();
  // A '"' or '\'' quoted string with C escapes, possibly spanning lines.
  // The unescaped content (at most `cap` bytes) goes to `*out` when non-null.
  [[nodiscard]] bool ReadString(std::string* out, size_t cap);

  // ---- Skipping -----------------------------------------------------------
  // At '(', '[' or '{': skips through the matching closer, string, comment
  // and nesting aware.
  [[nodiscard]] bool SkipGroup();
  // Skips an attribute value (or any run of text): stops before a ',',
  // a newline or an unmatched closer at nesting depth 0, or at end of file.
  [[nodiscard]] bool SkipValue();
  // Like SkipValue but also stops before a blank at depth 0 (for the
  // space-separated `metadata={k=v k=v}`).
  [[nodiscard]] bool SkipAtom();
  // Fast path for the rest of a line of an instruction body (from its
  // `(operands)` when `from_operands`, else from an attribute): when
  // everything up to the next newline (or unmatched closer) at nesting
  // depth 0 is simple (brackets, commas, plain double-quoted strings; no
  // comment, escape or line break inside brackets; within the window),
  // consumes it, sets *trailing_comma when its last non-blank byte is ','
  // and returns true. Otherwise consumes nothing and returns false, and the
  // caller uses the exact scanners; both paths accept the same texts.
  // Adds to *sharding_keys (when not null) each '{' at depth 0 after
  // `sharding=` and blanks (FastScan).
  [[nodiscard]] bool TrySkipLine(bool from_operands, bool* trailing_comma,
                                 ShardingBraces* sharding_keys = nullptr);
  // Fast path for SkipGroup at '(' / '[' / '{' when the group holds only
  // brackets, plain bytes and `/*...*/` comments on one line (the tuple
  // shapes XLA prints with `/*index=N*/`): no string, quote, escape, line
  // break or control byte, nesting within 32, within the window. False
  // (nothing consumed) otherwise; the exact path then decides.
  [[nodiscard]] bool TrySkipPlainGroup();

  // ---- Errors -------------------------------------------------------------
  // Records `message` at `pos` and returns false. After
  // options.max_syntax_errors errors one final error is recorded and the
  // lexer stops (stopped() is true).
  bool Error(TextPos pos, std::string message);
  // "expected <what>, found <next token>" at the cursor.
  bool Expected(std::string_view what);
  // A short description of what is at the cursor: "'foo'", "','",
  // "end of file", "a string".
  std::string DescribeNext();
  // True once parsing must stop (binary input or too many errors).
  bool stopped() const { return stopped_; }
  // Whether fast path `f` may engage (ParseOptions::disabled_fast_paths,
  // set by tests; none while an ExactOnly lives).
  bool FastPathOn(FastPath f) const {
    if (kCheckFastPaths && exact_only_) return false;
    return (options_.disabled_fast_paths & FastPathBit(f)) == 0;
  }
  // For the debug re-checks (checker/hlo/fast_path_check.h): while one
  // lives, every fast path is off, so that a dispatcher called again reads
  // with its exact parser alone. (Release builds never make one.)
  class ExactOnly {
   public:
    explicit ExactOnly(HloLexer& lx) : lx_(lx), was_(lx.exact_only_) {
      lx.exact_only_ = true;
    }
    ~ExactOnly() { lx_.exact_only_ = was_; }
    ExactOnly(const ExactOnly&) = delete;
    ExactOnly& operator=(const ExactOnly&) = delete;

   private:
    HloLexer& lx_;
    bool was_;
  };
  int error_count() const { return error_count_; }
  bool read_error() const { return window_->read_error(); }
  int64_t input_size() const { return window_->known_size(); }

  // ---- Marks (bounded lookahead) -----------------------------------------
  struct Mark {
    int64_t offset;
    int64_t line;
    int64_t line_start;
  };
  // Pins the window at the cursor until Restore() or Release() (LIFO).
  Mark SaveMark();
  void Restore(const Mark& mark);
  void Release();

  // For the debug re-checks (fast_path_check.h): where the cursor is, with
  // the line and trivia state, and a move back (or forward) to such a
  // place. A mark saved at or before the place must pin the window.
  struct State {
    int64_t offset;
    int64_t line;
    int64_t line_start;
    int64_t trivia_line_start;
    int64_t trivia_begin;
    int64_t trivia_end;
  };
  State Here() const {
    return State{Offset(),           line_,         line_start_,
                 trivia_line_start_, trivia_begin_, trivia_end_};
  }
  void MoveTo(const State& s) {
    TOPOLINT_DCHECK(s.offset >= window_->base());
    p_ = window_->begin() + (s.offset - window_->base());
    end_ = window_->end();
    TOPOLINT_DCHECK(p_ <= end_);
    line_ = s.line;
    line_start_ = s.line_start;
    trivia_line_start_ = s.trivia_line_start;
    trivia_begin_ = s.trivia_begin;
    trivia_end_ = s.trivia_end;
  }

  // ---- Captures -----------------------------------------------------------
  // Appends the bytes consumed between BeginCapture and EndCapture to `*out`
  // (at most `cap` bytes) without pinning the window. EndCapture returns
  // false when the text was longer than `cap`. At most two nest.
  void BeginCapture(std::string* out, size_t cap);
  [[nodiscard]] bool EndCapture();

  // ---- Statements ---------------------------------------------------------
  // Marks the start of an instruction / header; its length is checked
  // against options.max_instruction_bytes at newlines and by EndStatement.
  void BeginStatement() {
    stmt_start_ = Offset();
    stmt_pos_ = Pos();
  }
  // Reports a statement longer than the limit; parsing goes on after it
  // (the statement itself is complete), so this always returns true.
  // The statement ends at its last token: trivia skipped after it (line
  // breaks, comments, blanks before the next statement) does not count.
  bool EndStatement() {
    const int64_t at = Offset();
    const int64_t end = at == trivia_end_ ? trivia_begin_ : at;
    if (end - stmt_start_ > options_.max_instruction_bytes) {
      StatementTooLong();
    }
    return true;
  }
  TextPos statement_pos() const { return stmt_pos_; }

  // The first control byte (binary input) among the first `n` bytes, and
  // where it is; the cursor and line count stay as they are, and nothing is
  // reported.
  struct ControlByte {
    TextPos pos;
    int byte = 0;
  };
  std::optional<ControlByte> FindControlByte(size_t n);
  // "not HLO text: found control byte 0x..": the one wording of that error.
  static std::string NotTextMessage(int byte);

  // ---- Resynchronisation --------------------------------------------------
  // Skips the rest of the current line (no string or comment awareness).
  void SkipLine();
  // True when the cursor is where the last SkipTrivia that crossed a line
  // break stopped: at the first token of its line (known without looking
  // back, so it does not depend on what the window still holds).
  bool AtLineStart() const { return trivia_line_start_ == Offset(); }

 private:
  // Appends the `n` bytes at `data` to `*out` (when there is one) while it
  // holds fewer than `cap` bytes. Inline: strings are most of the bytes of a
  // real dump, and SkipQuoted calls this once per run of plain bytes.
  static void AppendCapped(std::string* out, const char* data, size_t n,
                           size_t cap) {
    if (out == nullptr || out->size() >= cap) return;
    out->append(data, std::min(n, cap - out->size()));
  }

  struct Open {
    char open;
    char closer;
    TextPos pos;
    // A '{' that ends its line (`to_apply={`, `calls=` + `{`): it may hold a
    // whole computation body, so a line inside it that looks like an
    // instruction does not mean a closer is missing.
    bool block = false;
  };
  struct Capture {
    int64_t start;
    std::string* out;
    size_t cap;
    size_t seen;
  };

  int PeekSlow();
  // `skipped`: the blanks the inline part already skipped.
  [[nodiscard]] bool SkipTriviaSlow(int64_t skipped);
  [[nodiscard]] bool ReadIdentViewSlow(std::string_view* out);
  [[nodiscard]] bool ReadIntSlow(int64_t* value, std::string_view what);
  [[nodiscard]] bool SkipTriviaLines(bool* crossed_newline);
  [[nodiscard]] bool Refill();
  void NewlineAt(const char* nl) {
    ++line_;
    line_start_ = window_->base() + (nl + 1 - window_->begin());
  }
  [[nodiscard]] bool Scan(const uint8_t* table, bool one_group,
                          bool stop_at_blank);
  // Debug builds: FastScan's stop `q` (the cursor not yet moved) against
  // Scan's byte loop (fast_path_check.h); returns `q` where the window now
  // holds it.
  const char* CheckFastScan(const char* q, const uint8_t* table,
                            bool one_group);
  bool NextLineStartsInstruction();
  // At '{' (p_): true when only blanks or a `//` comment follow it on its
  // line.
  bool BraceEndsLine();
  // At a newline (p_) right after `name=`: true when, after blank lines, a
  // '{' comes next.
  bool BlockFollowsOnNextLine();
  [[nodiscard]] bool SkipQuoted(std::string* out, size_t cap);
  [[nodiscard]] bool LineComment();
  [[nodiscard]] bool BlockComment();
  // `offset` and `comment`: Suppression::offset / comment.
  void Directive(std::string_view directive, TextPos pos, int64_t offset,
                 std::string comment);
  int64_t NextCodeLine();
  bool NotText(int byte);
  bool StatementTooLong();
  void FlushCaptures(int64_t keep_from);

  InputWindow* window_;
  Module* module_;
  ParseOptions options_;
  const char* p_;
  const char* end_;
  int64_t line_ = 1;
  int64_t line_start_ = 0;  // absolute offset of the current line's byte 0
  std::vector<Mark> marks_;
  std::vector<Capture> captures_;
  std::vector<Open> opens_;
  std::string ident_scratch_;
  int64_t trivia_line_start_ = -1;
  // Where the last SkipTrivia that skipped more than blanks began and
  // ended (absolute offsets), for EndStatement.
  int64_t trivia_begin_ = -1;
  int64_t trivia_end_ = -1;
  int64_t stmt_start_ = 0;
  TextPos stmt_pos_{1, 1};
  int error_count_ = 0;
  bool stopped_ = false;
  bool exact_only_ = false;  // (ExactOnly)
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_HLO_LEXER_H_
