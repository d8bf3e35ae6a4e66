// HloLexer scanners: trivia (blanks, line breaks), comments and
// `// topolint:` directives, and the bounded lookahead at what the next line
// holds.
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "checker/hlo/suppression_directive.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "fmt/format.h"

namespace topolint::hlo {

// ---- Trivia ---------------------------------------------------------------

void HloLexer::SkipBlanks() {
  for (;;) {
    const char* p = p_;
    while (IsBlank(*p)) ++p;  // the NUL sentinel stops
    p_ = p;
    if (p < end_ || !Refill()) return;
  }
}

bool HloLexer::SkipTriviaSlow(int64_t skipped) {
  const int64_t begin = Offset() - skipped;
  bool crossed_newline = false;
  const bool ok = SkipTriviaLines(&crossed_newline);
  if (crossed_newline) trivia_line_start_ = Offset();
  trivia_begin_ = begin;
  trivia_end_ = Offset();
  return ok;
}

bool HloLexer::SkipTriviaLines(bool* crossed_newline) {
  for (;;) {
    const char* p = p_;
    while (IsBlank(*p)) ++p;  // the NUL sentinel stops
    p_ = p;
    if (p == end_) {
      if (!Refill()) return true;
      continue;
    }
    switch (*p) {
      case '\n':
        NewlineAt(p);
        p_ = p + 1;
        *crossed_newline = true;
        break;
      case '\f':
      case '\v':
        p_ = p + 1;
        break;
      case '/': {
        const int next = PeekAt(1);
        if (next == '/') {
          if (!LineComment()) return false;
        } else if (next == '*') {
          if (!BlockComment()) return false;
        } else {
          return true;
        }
        break;
      }
      default:
        return true;
    }
  }
}

bool HloLexer::LineComment() {
  const TextPos pos = Pos();
  // The file's byte offset of the "//" (the window leaves a byte order mark
  // out of its offsets; a lone CR it serves as '\n' is one byte still).
  const int64_t offset = Offset() + window_->skipped_prefix();
  p_ += 2;  // "//", made contiguous by the caller's PeekAt(1)
  // The comment is kept up to kMaxCommentBytes; a longer one cannot be
  // checked byte for byte by a fix, so it gets none (`length` says).
  constexpr size_t kMaxCommentBytes = 4096;
  std::string text;
  size_t length = 0;
  for (;;) {
    const char* p = p_;
    // As in XLA's lexer, a '\r' ends the comment too (old Mac line ends).
    while (*p != '\n' && *p != '\r' && !IsControlByte(*p)) {
      ++p;
    }
    AppendCapped(&text, p_, static_cast<size_t>(p - p_), kMaxCommentBytes);
    length += static_cast<size_t>(p - p_);
    p_ = p;
    if (*p == '\n' || *p == '\r') break;
    if (p < end_) return NotText(static_cast<unsigned char>(*p));
    if (!Refill()) break;
  }
  absl::string_view body = absl::StripLeadingAsciiWhitespace(text);
  if (absl::ConsumePrefix(&body, "topolint:")) {
    const bool whole = length == text.size();
    Directive(std::string_view(body.data(), body.size()), pos,
              whole ? offset : -1, whole ? "//" + text : std::string());
  }
  return true;
}

bool HloLexer::BlockComment() {
  const TextPos pos = Pos();
  p_ += 2;  // "/*"
  for (;;) {
    const char* p = p_;
    while (*p != '*' && *p != '\n' && !IsControlByte(*p)) {
      ++p;
    }
    p_ = p;
    if (p == end_) {
      if (!Refill()) {
        return Error(pos,
                     "unterminated comment: expected '*/' to close the "
                     "'/*' that starts here");
      }
      continue;
    }
    if (*p == '\n') {
      NewlineAt(p);
      p_ = p + 1;
    } else if (*p == '*') {
      if (PeekAt(1) == '/') {
        p_ += 2;
        return true;
      }
      ++p_;
    } else {
      return NotText(static_cast<unsigned char>(*p));
    }
  }
}

void HloLexer::Directive(std::string_view directive, TextPos pos,
                         int64_t offset, std::string comment) {
  // (A debug re-check reads comments a second time: recorded once.)
  if (module_ == nullptr || (kCheckFastPaths && exact_only_)) return;
  SuppressionDirective d = ParseSuppressionDirective(directive);
  if (!d.error.empty()) {
    Error(pos, d.error);
    return;
  }
  Suppression s;
  s.pos = pos;
  s.offset = offset;
  s.comment = std::move(comment);
  s.rules = std::move(d.rules);
  s.target_line = d.next_line ? NextCodeLine() : pos.line;
  module_->suppressions.push_back(std::move(s));
}

int64_t HloLexer::NextCodeLine() {
  // Bounded lookahead from the end of the comment over whitespace and
  // comments only. Nothing is recorded; the cursor is restored.
  const int64_t fallback = line_ + 1;
  int64_t found = fallback;
  const Mark mark = SaveMark();
  int64_t budget = int64_t{1} << 20;
  bool in_line_comment = false;
  bool in_block_comment = false;
  for (; budget > 0; --budget) {
    const int c = Peek();
    if (c == kEof) break;
    if (c == '\n') {
      NewlineAt(p_);
      ++p_;
      in_line_comment = false;
    } else if (in_line_comment) {
      ++p_;
    } else if (in_block_comment) {
      if (c == '*' && PeekAt(1) == '/') {
        ++p_;
        in_block_comment = false;
      }
      ++p_;
    } else if (IsSpace(c)) {  // (not '\n': handled above)
      ++p_;
    } else if (c == '/' && (PeekAt(1) == '/' || PeekAt(1) == '*')) {
      in_line_comment = PeekAt(1) == '/';
      in_block_comment = !in_line_comment;
      p_ += 2;
    } else {
      found = line_;
      break;
    }
  }
  Restore(mark);
  return found;
}

// ---- Line lookahead -------------------------------------------------------

bool HloLexer::NextLineStartsInstruction() {
  // Bounded lookahead past the '\n' at the cursor for
  // `[ROOT] [%]name = (` or `[ROOT] [%]name = type[`, or `ENTRY `.
  constexpr size_t kLimit = 256;
  size_t k = 1;
  auto blanks = [&] {
    while (k < kLimit && (PeekAt(k) == ' ' || PeekAt(k) == '\t')) ++k;
  };
  auto word = [&](std::string_view w) {
    for (size_t i = 0; i < w.size(); ++i) {
      if (PeekAt(k + i) != static_cast<unsigned char>(w[i])) return false;
    }
    const int after = PeekAt(k + w.size());
    return after == ' ' || after == '\t';
  };
  auto ident = [&] {
    if (!IsIdentStart(PeekAt(k))) return false;
    while (k < kLimit && IsIdentChar(PeekAt(k))) ++k;
    return k < kLimit;
  };
  blanks();
  if (word("ENTRY")) return true;
  if (word("ROOT")) {
    k += 4;
    blanks();
  }
  if (PeekAt(k) == '%') ++k;
  if (!ident()) return false;
  blanks();
  if (PeekAt(k) != '=') return false;
  ++k;
  blanks();
  if (PeekAt(k) == '(') return true;
  return ident() && PeekAt(k) == '[';
}

bool HloLexer::BlockFollowsOnNextLine() {
  constexpr size_t kLimit = 256;
  size_t k = 0;
  for (int c = PeekAt(k); k < kLimit; c = PeekAt(++k)) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return c == '{';
  }
  return false;
}

bool HloLexer::BraceEndsLine() {
  // Bounded lookahead; a longer run of blanks counts as "not at the end".
  constexpr size_t kLimit = 256;
  size_t k = 1;
  while (k < kLimit && IsBlank(PeekAt(k))) {
    ++k;
  }
  const int next = PeekAt(k);
  return next == '\n' || (next == '/' && PeekAt(k + 1) == '/');
}

}  // namespace topolint::hlo
