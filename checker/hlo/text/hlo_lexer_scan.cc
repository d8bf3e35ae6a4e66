// HloLexer scanners: strings, and the brace/paren/string-aware skipping
// that is the hot path for non-collective instructions (trivia, comments
// and directives: hlo_lexer_trivia.cc).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "checker/hlo/text/fast_scan.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "fmt/format.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace topolint::hlo {
namespace {

// Byte classes for the scanners. 0 means "ordinary: keep going".
enum : uint8_t {
  kOrdinary = 0,
  kNewline,
  kQuote,
  kSlash,
  kOpen,
  kClose,
  kComma,
  kBlank,
  kBackslash,
  kBad,
};

using Table = std::array<uint8_t, 256>;

constexpr Table MakeTable(bool comma, bool blank, bool in_string) {
  Table t{};
  for (int c = 0; c < 256; ++c) {
    if (IsControlByte(c)) t[c] = kBad;
  }
  t['\n'] = kNewline;
  t['"'] = kQuote;
  t['\''] = kQuote;
  if (in_string) {
    t['\\'] = kBackslash;
    return t;
  }
  t['/'] = kSlash;
  t['('] = t['['] = t['{'] = kOpen;
  t[')'] = t[']'] = t['}'] = kClose;
  if (comma) t[','] = kComma;
  if (blank) t[' '] = t['\t'] = t['\r'] = kBlank;
  return t;
}

constexpr Table kGroupTable = MakeTable(false, false, false);
constexpr Table kValueTable = MakeTable(true, true, false);
constexpr Table kAtomTable = MakeTable(true, true, false);
constexpr Table kStringTable = MakeTable(false, false, true);

// The first byte at or after `p` that kStringTable marks (quote,
// backslash, newline, control byte; the NUL sentinel at `end` is one).
// 16 bytes at a time where SSE2 is available: strings (op_name,
// source_file, backend_config) are most of the bytes of a real dump.
inline const char* SkipStringRun(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i apostrophe = _mm_set1_epi8('\'');
  const __m128i backslash = _mm_set1_epi8('\\');
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, apostrophe)),
        _mm_or_si128(_mm_cmpeq_epi8(v, backslash), LowBytes(v)));
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (kStringTable[static_cast<unsigned char>(*p)] == 0) ++p;
  return p;
}

char CloserOf(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

char Unescape(char c) {
  switch (c) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case '0':
      return '\0';
    default:
      return c;
  }
}

}  // namespace

// ---- Strings --------------------------------------------------------------

bool HloLexer::ReadString(std::string* out, size_t cap) {
  if (out != nullptr) out->clear();
  return SkipQuoted(out, cap);
}

bool HloLexer::SkipQuoted(std::string* out, size_t cap) {
  const TextPos start = Pos();
  const char quote = *p_;
  ++p_;
  for (;;) {
    const char* p = SkipStringRun(p_, end_);
    AppendCapped(out, p_, static_cast<size_t>(p - p_), cap);
    p_ = p;
    if (p == end_) {
      if (!Refill()) {
        return Error(start, fmt::format("unterminated string: expected a "
                                        "closing quote ({}) for the string "
                                        "that starts here",
                                        quote));
      }
      continue;
    }
    const char c = *p;
    switch (kStringTable[static_cast<unsigned char>(c)]) {
      case kOrdinary:  // tab, CR, ...: the block scan stops at every < 0x20
        AppendCapped(out, &c, 1, cap);
        ++p_;
        break;
      case kQuote:
        ++p_;
        if (c == quote) return true;
        AppendCapped(out, &c, 1, cap);
        break;
      case kNewline:
        NewlineAt(p);
        ++p_;
        AppendCapped(out, &c, 1, cap);
        break;
      case kBackslash: {
        const int next = PeekAt(1);
        if (next == kEof) {
          p_ = end_;
          continue;  // reports the unterminated string
        }
        if (next == '\n') NewlineAt(p_ + 1);
        const char unescaped = Unescape(static_cast<char>(next));
        AppendCapped(out, &unescaped, 1, cap);
        p_ += 2;
        break;
      }
      default:
        return NotText(static_cast<unsigned char>(c));
    }
  }
}

// ---- Skipping -------------------------------------------------------------

bool HloLexer::SkipGroup() {
  return Scan(kGroupTable.data(), /*one_group=*/true, /*stop_at_blank=*/false);
}

bool HloLexer::SkipValue() {
  return Scan(kValueTable.data(), /*one_group=*/false,
              /*stop_at_blank=*/false);
}

bool HloLexer::SkipAtom() {
  return Scan(kAtomTable.data(), /*one_group=*/false, /*stop_at_blank=*/true);
}

bool HloLexer::TrySkipLine(bool from_operands, bool* trailing_comma,
                           ShardingBraces* sharding_keys) {
  const char* q = FastScan(from_operands ? FastMode::kBody : FastMode::kLine,
                           p_, end_, sharding_keys);
  if (q == nullptr) return false;
  const char* last = q;
  while (last > p_ && IsBlank(last[-1])) --last;
  *trailing_comma = last > p_ && last[-1] == ',';
  p_ = q;
  return true;
}

namespace {

// TrySkipPlainGroup's byte classes: 0 plain, 1..3 open ( [ {, 5..7 close
// ) ] }, 8 '/', 9 anything that declines (quotes, backslash, control bytes
// including the line break and the window's NUL, DEL).
constexpr std::array<uint8_t, 256> MakePlainGroupClasses() {
  std::array<uint8_t, 256> t = kBracketKinds;  // brackets as FastScan's
  t[','] = 0;
  for (int c = 0; c < 256; ++c) {
    if (IsLowByte(c)) t[c] = 9;
  }
  t['"'] = 9;
  t['\''] = 9;
  t['\\'] = 9;
  t['/'] = 8;
  return t;
}
constexpr std::array<uint8_t, 256> kPlainGroupClasses = MakePlainGroupClasses();

}  // namespace

bool HloLexer::TrySkipPlainGroup() {
  uint64_t stack = 0;  // 2 bits per open bracket: 1 '(', 2 '[', 3 '{'
  int depth = 0;
  for (const char* p = p_;; ++p) {
    const uint8_t cls = kPlainGroupClasses[static_cast<unsigned char>(*p)];
    if (cls == 0) continue;
    if (cls < 4) {
      if (depth == 32) return false;
      stack = (stack << 2) | cls;
      ++depth;
      continue;
    }
    if (cls < 8) {
      if (depth == 0 || (stack & 3) != static_cast<uint64_t>(cls - 4)) {
        return false;  // the exact path reports the mismatch
      }
      stack >>= 2;
      if (--depth == 0) {
        p_ = p + 1;
        return true;
      }
      continue;
    }
    if (cls == 9 || p[1] != '*') return false;
    // `/* ... */` on this line; the window's NUL stops the search.
    const char* q = p + 2;
    while (!(q[0] == '*' && q[1] == '/')) {
      if (kPlainGroupClasses[static_cast<unsigned char>(*q)] == 9 &&
          *q != '"' && *q != '\'' && *q != '\\') {
        return false;  // a control byte: line break, window end, binary
      }
      ++q;
    }
    p = q + 1;  // the loop's ++p steps past the '/'
  }
}

const char* HloLexer::CheckFastScan(const char* q, const uint8_t* table,
                                    bool one_group) {
  // FastScan(kValue) may stop at a blank that the byte loop skips before
  // it decides the value ends there.
  const char* stop = q;
  while (*stop == ' ') ++stop;
  const int64_t at = Offset() + (q - p_);
  const int64_t after_blanks = Offset() + (stop - p_);
  const Mark mark = SaveMark();
  const State start = Here();
  {
    const ExactOnly exact(*this);
    const bool ok = Scan(table, one_group, /*stop_at_blank=*/false);
    if (!ok || (Offset() != at && Offset() != after_blanks)) {
      FastPathInconsistency("FastScan", mark.offset,
                            "the byte loop of HloLexer::Scan stops elsewhere");
    }
  }
  MoveTo(start);  // (the byte loop may have refilled the window: q moved)
  Release();
  return p_ + (at - start.offset);
}

// The lexer's hot loop: one pass over the bytes with a switch on their
// class. Split into calls it loses the registers it keeps the cursor in;
// it stays one function, as lexers' scanners do.
// NOLINTNEXTLINE(readability-function-size,readability-function-cognitive-complexity)
bool HloLexer::Scan(const uint8_t* table, bool one_group, bool stop_at_blank) {
  // The hot loop of the parser. The cursor lives in `p` and the window
  // geometry in locals; both are written back before anything that may
  // refill or report, and reloaded after.
  if (!stop_at_blank && FastPathOn(FastPath::kFastScan)) {
    if (const char* q = FastScan(
            one_group ? FastMode::kGroup : FastMode::kValue, p_, end_)) {
      p_ = kCheckFastPaths ? CheckFastScan(q, table, one_group) : q;
      return true;
    }
  }
  // Room for the usual depths; deeper nesting grows it (up to the limit).
  // All kMaxNestingDepth at once was 32 KB to allocate and zero per file.
  if (opens_.empty()) opens_.resize(64);
  int depth = 0;
  const char* p = p_;
  const char* begin = window_->begin();
  int64_t window_base = window_->base();
  auto reload = [&] {
    p = p_;
    begin = window_->begin();
    window_base = window_->base();
  };
  for (;;) {
    while (table[static_cast<unsigned char>(*p)] == kOrdinary) ++p;
    const char c = *p;
    switch (table[static_cast<unsigned char>(c)]) {
      case kOpen: {
        if (depth >= kMaxNestingDepth) {
          p_ = p;
          return Error(Pos(), fmt::format("brackets nest deeper than the "
                                          "limit of {}",
                                          kMaxNestingDepth));
        }
        if (static_cast<size_t>(depth) == opens_.size()) {
          opens_.resize(std::min<size_t>(
              2 * opens_.size(), static_cast<size_t>(kMaxNestingDepth)));
        }
        const int64_t offset = window_base + (p - begin);
        bool block = false;
        if (c == '{') {
          p_ = p;
          block = BraceEndsLine();
          reload();
        }
        opens_[depth++] = Open{c, CloserOf(c),
                               TextPos{line_, offset - line_start_ + 1}, block};
        ++p;
        break;
      }
      case kClose: {
        if (depth == 0) {  // belongs to an enclosing construct
          p_ = p;
          return true;
        }
        const Open& open = opens_[depth - 1];
        if (c != open.closer) {
          p_ = p;
          return Error(Pos(), fmt::format("unbalanced brackets: expected '{}' "
                                          "to close the '{}' opened at {}:{}, "
                                          "found '{}'",
                                          open.closer, open.open, open.pos.line,
                                          open.pos.column, c));
        }
        --depth;
        ++p;
        if (one_group && depth == 0) {
          p_ = p;
          return true;
        }
        break;
      }
      case kNewline:
        if (depth == 0) {
          // `calls=` + newline + `{ ... }`: XLA's canonical printer puts a
          // nested computation body on the lines after `name=`.
          const bool after_equals = p > begin && p[-1] == '=';
          p_ = p;
          if (!after_equals || !BlockFollowsOnNextLine()) return true;
          if (!SkipTrivia()) return false;
          reload();
          break;
        }
        p_ = p;
        if (!opens_[depth - 1].block && NextLineStartsInstruction()) {
          // Most likely a closer is missing: stop here, before the line, so
          // that recovery resumes at that instruction.
          const Open& open = opens_[depth - 1];
          return Error(open.pos,
                       fmt::format("unbalanced brackets: expected '{}' to "
                                   "close this '{}' before the instruction "
                                   "on line {}",
                                   open.closer, open.open, line_ + 1));
        }
        reload();
        ++line_;
        ++p;
        line_start_ = window_base + (p - begin);
        if (line_start_ - stmt_start_ > options_.max_instruction_bytes) {
          p_ = p;
          return StatementTooLong();
        }
        break;
      case kBlank: {  // kValueTable and kAtomTable
        if (depth > 0) {
          ++p;
          break;
        }
        p_ = p;
        if (stop_at_blank) return true;
        // A value ends at a blank at depth 0, except after `name=` and
        // before the '{' of `mesh[...] {...}`. The byte before the first
        // blank of a run is kept in the window (see Refill). The run is
        // consumed either way (callers skip blanks next), without pinning
        // the window however long it is.
        const bool after_equals = p > window_->begin() && p[-1] == '=';
        SkipBlanks();
        if (!after_equals && Peek() != '{') {
          char next[kValueWordLookahead + 1] = {};
          for (int k = 0; k < kValueWordLookahead; ++k) {
            const int b = PeekAt(static_cast<size_t>(k));
            if (b == kEof) break;
            next[k] = static_cast<char>(b);
          }
          if (!ContinuesValueAfterBlank(next)) return true;
        }
        reload();
        break;
      }
      case kComma:
        if (depth == 0) {
          p_ = p;
          return true;
        }
        ++p;
        break;
      case kQuote:
        p_ = p;
        if (!SkipQuoted(nullptr, 0)) return false;
        reload();
        break;
      case kSlash: {
        p_ = p;
        const int next = PeekAt(1);
        if (next == '/') {
          if (!LineComment()) return false;
        } else if (next == '*') {
          if (!BlockComment()) return false;
        } else {
          return Error(Pos(),
                       "unexpected '/': expected '//' or '/*' to start "
                       "a comment");
        }
        reload();
        break;
      }
      default:  // kBad, or the NUL sentinel at the end of the window
        p_ = p;
        if (p != end_) return NotText(static_cast<unsigned char>(c));
        if (!Refill()) {
          if (depth == 0) return true;  // a value may end at end of file
          const Open& open = opens_[depth - 1];
          return Error(open.pos,
                       fmt::format("unbalanced brackets: expected '{}' to "
                                   "close this '{}' before end of file",
                                   open.closer, open.open));
        }
        reload();
        break;
    }
  }
}

}  // namespace topolint::hlo
