// HloLexer scanners: trivia, comments and `// topolint:` directives,
// strings, and the brace/paren/string-aware skipping that is the hot path for
// non-collective instructions.
#include <array>
#include <cstring>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "checker/hlo/hlo_lexer.h"
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

bool IsBadByte(int c) { return IsControlByte(c); }

using Table = std::array<uint8_t, 256>;

constexpr Table MakeTable(bool comma, bool blank, bool in_string) {
  Table t{};
  for (int c = 0; c < 256; ++c) {
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' &&
         c != '\v') ||
        c == 0x7f) {
      t[c] = kBad;
    }
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
  const __m128i del = _mm_set1_epi8(0x7f);
  const __m128i max_control = _mm_set1_epi8(0x1f);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, apostrophe)),
        _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, del)),
            // unsigned v <= 0x1f
            _mm_cmpeq_epi8(_mm_max_epu8(v, max_control), max_control)));
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (kStringTable[static_cast<unsigned char>(*p)] == 0) ++p;
  return p;
}

// Bracket kinds for the block scanner: 1..3 open ( [ {, 5..7 close ) ] },
// 8 comma.
constexpr std::array<uint8_t, 256> MakeBracketKinds() {
  std::array<uint8_t, 256> t{};
  t['('] = 1;
  t['['] = 2;
  t['{'] = 3;
  t[')'] = 5;
  t[']'] = 6;
  t['}'] = 7;
  t[','] = 8;
  return t;
}
constexpr std::array<uint8_t, 256> kBracketKinds = MakeBracketKinds();

#if defined(__SSE2__)
struct BlockMasks {
  uint64_t quote = 0;        // '"'
  uint64_t brackets = 0;     // ( ) [ ] { }
  uint64_t comma = 0;        // ,
  uint64_t space = 0;        // ' '
  uint64_t hazard_any = 0;   // backslash, control bytes (newline, NUL)
  uint64_t hazard_code = 0;  // '/' and '\'' (they matter outside strings)
};

inline uint64_t MoveMask(__m128i v) {
  return static_cast<uint32_t>(_mm_movemask_epi8(v));
}

inline BlockMasks Masks64(const char* p) {
  const __m128i max_control = _mm_set1_epi8(0x1f);
  const __m128i upper = _mm_set1_epi8(static_cast<char>(0xdf));
  const __m128i even = _mm_set1_epi8(static_cast<char>(0xfe));
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i lsquare = _mm_set1_epi8('[');
  const __m128i rsquare = _mm_set1_epi8(']');
  const __m128i lparen = _mm_set1_epi8('(');
  const __m128i comma = _mm_set1_epi8(',');
  const __m128i space = _mm_set1_epi8(' ');
  const __m128i del = _mm_set1_epi8(0x7f);
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i slash = _mm_set1_epi8('/');
  const __m128i apostrophe = _mm_set1_epi8('\'');
  BlockMasks m;
  for (int k = 0; k < 4; ++k) {
    const __m128i v =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i folded = _mm_and_si128(v, upper);  // '{' -> '[', '}' -> ']'
    const __m128i brackets = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(folded, lsquare),
                     _mm_cmpeq_epi8(folded, rsquare)),
        _mm_cmpeq_epi8(_mm_and_si128(v, even), lparen));
    const __m128i hazard_any = _mm_or_si128(
        _mm_cmpeq_epi8(_mm_max_epu8(v, max_control), max_control),
        _mm_or_si128(_mm_cmpeq_epi8(v, del), _mm_cmpeq_epi8(v, backslash)));
    const __m128i hazard_code =
        _mm_or_si128(_mm_cmpeq_epi8(v, slash), _mm_cmpeq_epi8(v, apostrophe));
    const int shift = 16 * k;
    m.quote |= MoveMask(_mm_cmpeq_epi8(v, quote)) << shift;
    m.brackets |= MoveMask(brackets) << shift;
    m.comma |= MoveMask(_mm_cmpeq_epi8(v, comma)) << shift;
    m.space |= MoveMask(_mm_cmpeq_epi8(v, space)) << shift;
    m.hazard_any |= MoveMask(hazard_any) << shift;
    m.hazard_code |= MoveMask(hazard_code) << shift;
  }
  return m;
}

// Bit i set when an odd number of bits at or below i are set in `x`.
inline uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}
#endif

// What FastScan does; see HloLexer::Scan and TrySkipLine.
enum class FastMode {
  kGroup,  // from an opener through its closer
  kValue,  // to a ',' / newline / unmatched closer at depth 0
  kLine,   // to a newline / unmatched closer at depth 0 (commas included)
  kBody,   // kLine from `(operands)`: only blanks between ')' and a ','
};

// The common case of Scan, 64 bytes at a time: text that holds only
// brackets, commas, ordinary bytes and double-quoted strings without
// escapes, on one line, nested at most 32 deep and correctly. Returns where
// the exact scanner would stop, or nullptr when anything else comes first
// (newline inside brackets, comment, escape, single quote, control byte,
// end of the window, a bracket mismatch): the exact scanner then redoes
// the work and decides. Reads up to 63 bytes past `end` (the window's
// slack; the NUL sentinel at `end` stops everything).
// Where the exact path ends a value or instruction at a blank at depth 0
// (see the kBlank case of HloLexer::Scan): `spaces` are the depth-0 blanks
// (bits of the block at `p`) to check, in order; `scan_start` bounds the
// look back. Returns the first blank where the text ends, or nullptr.
template <FastMode kMode>
const char* EndingBlank(const char* p, uint64_t spaces, const char* scan_start) {
  for (; spaces != 0; spaces &= spaces - 1) {
    const char* blank = p + __builtin_ctzll(spaces);
    const char* before = blank;  // the first blank of the run
    while (before > scan_start && before[-1] == ' ') --before;
    const char prev = before > scan_start ? before[-1] : '\0';
    const char* after = blank;
    while (*after == ' ') ++after;
    const char next = *after;
    if (prev == '=' || next == '{') continue;
    if (kMode == FastMode::kValue) return before;
    // kLine / kBody: the attribute loop goes on over `, ` and ` ,`, and a
    // blank before the end of the line ends nothing by itself.
    if (prev == ',' || next == ',' || next == '\n') continue;
    return before;
  }
  return nullptr;
}

// Bits [from, to) of a 64-bit block mask.
inline uint64_t BitRange(int from, int to) {
  const uint64_t upto = to >= 64 ? ~uint64_t{0} : (uint64_t{1} << to) - 1;
  const uint64_t below = from >= 64 ? ~uint64_t{0} : (uint64_t{1} << from) - 1;
  return upto & ~below;
}

// The common case of Scan, 64 bytes at a time: text that holds only
// brackets, commas, blanks, ordinary bytes and double-quoted strings
// without escapes, on one line, nested at most 32 deep and correctly.
// Returns where the exact scanner would stop, or nullptr when anything else
// comes first (newline inside brackets, comment, escape, single quote,
// control byte, end of the window, a bracket mismatch): the exact scanner
// then redoes the work and decides. Reads up to 63 bytes past `end` (the
// window's slack; the NUL sentinel at `end` stops everything).
template <FastMode kMode>
const char* FastScan(const char* const start, const char* end) {
#if defined(__SSE2__)
  uint64_t stack = 0;  // 2 bits per open bracket: 1 '(', 2 '[', 3 '{'
  int depth = 0;
  uint64_t in_string_carry = 0;
  bool in_operands = kMode == FastMode::kBody;
  // Start (bit index in the current block) of the text at depth 0 whose
  // blanks are still to check; -1 while inside brackets.
  int segment = kMode == FastMode::kLine || kMode == FastMode::kValue ? 0 : -1;
  for (const char* p = start; p < end; p += 64) {
    const BlockMasks m = Masks64(p);
    const uint64_t in_string = PrefixXor(m.quote) ^ in_string_carry;
    in_string_carry =
        static_cast<uint64_t>(static_cast<int64_t>(in_string) >> 63);
    const uint64_t hazard = m.hazard_any | (m.hazard_code & ~in_string);
    const uint64_t below_hazard =
        hazard == 0 ? ~uint64_t{0} : (hazard & (0 - hazard)) - 1;
    const uint64_t spaces = m.space & ~in_string & below_hazard;
    // Commas matter only where a value ends at one.
    const uint64_t structural =
        kMode == FastMode::kValue ? m.brackets | m.comma : m.brackets;
    for (uint64_t s = structural & ~in_string & below_hazard; s != 0;
         s &= s - 1) {
      const int i = __builtin_ctzll(s);
      const uint8_t kind = kBracketKinds[static_cast<unsigned char>(p[i])];
      if (kMode != FastMode::kGroup && depth == 0 && segment >= 0) {
        // Leaving a stretch at depth 0: its blanks may end the text first.
        if (const char* b = EndingBlank<kMode>(
                p, spaces & BitRange(segment, i), start)) {
          return b;
        }
        segment = -1;
      }
      if (kMode == FastMode::kValue && kind == 8) {
        if (depth == 0) return p + i;
        continue;
      }
      if (kind < 4) {
        if (depth == 32) return nullptr;
        stack = (stack << 2) | kind;
        ++depth;
        continue;
      }
      if (depth == 0) return p + i;  // closes an enclosing construct
      if ((stack & 3) != static_cast<uint64_t>(kind - 4)) return nullptr;
      stack >>= 2;
      if (--depth == 0) {
        if (kMode == FastMode::kGroup) return p + i + 1;
        if (kMode == FastMode::kBody && in_operands) {
          // After `(operands)` only blanks may come before ',' or the end
          // of the line, as in the exact path.
          in_operands = false;
          const char* q = p + i + 1;
          while (*q == ' ' || *q == '\t' || *q == '\r') ++q;
          if (*q == '\n') return q;
          if (*q != ',') return nullptr;
        }
        segment = i + 1;
      }
    }
    const int stop = hazard != 0 ? __builtin_ctzll(hazard) : 64;
    if (kMode != FastMode::kGroup && depth == 0 && segment >= 0) {
      if (const char* b = EndingBlank<kMode>(
              p, spaces & BitRange(segment, stop), start)) {
        return b;
      }
    }
    if (hazard != 0) {
      if (kMode != FastMode::kGroup && depth == 0 && !in_operands &&
          p + stop < end && p[stop] == '\n' &&
          ((in_string >> stop) & 1) == 0) {
        return p + stop;
      }
      return nullptr;
    }
    if (segment >= 0) segment = 0;  // the stretch goes on into the next block
  }
#else
  (void)start;
  (void)end;
#endif
  return nullptr;
}

char CloserOf(char open) {
  return open == '(' ? ')' : open == '[' ? ']' : '}';
}

void AppendCapped(std::string* out, const char* data, size_t n, size_t cap) {
  if (out == nullptr || out->size() >= cap) return;
  out->append(data, std::min(n, cap - out->size()));
}

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

// ---- Trivia ---------------------------------------------------------------

void HloLexer::SkipBlanks() {
  for (;;) {
    const char* p = p_;
    while (*p == ' ' || *p == '\t' || *p == '\r') ++p;  // NUL sentinel stops
    p_ = p;
    if (p < end_ || !Refill()) return;
  }
}

bool HloLexer::SkipTriviaSlow() {
  bool crossed_newline = false;
  const bool ok = SkipTriviaLines(&crossed_newline);
  if (crossed_newline) trivia_line_start_ = Offset();
  return ok;
}

bool HloLexer::SkipTriviaLines(bool* crossed_newline) {
  for (;;) {
    const char* p = p_;
    while (*p == ' ' || *p == '\t' || *p == '\r') ++p;  // NUL sentinel stops
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
  p_ += 2;  // "//", made contiguous by the caller's PeekAt(1)
  std::string text;
  for (;;) {
    const char* p = p_;
    while (*p != '\n' && !IsBadByte(static_cast<unsigned char>(*p))) ++p;
    AppendCapped(&text, p_, static_cast<size_t>(p - p_), 4096);
    p_ = p;
    if (*p == '\n') break;
    if (p < end_) return NotText(static_cast<unsigned char>(*p));
    if (!Refill()) break;
  }
  absl::string_view body = absl::StripLeadingAsciiWhitespace(text);
  if (absl::ConsumePrefix(&body, "topolint:")) {
    Directive(std::string_view(body.data(), body.size()), pos);
  }
  return true;
}

bool HloLexer::BlockComment() {
  const TextPos pos = Pos();
  p_ += 2;  // "/*"
  for (;;) {
    const char* p = p_;
    while (*p != '*' && *p != '\n' &&
           !IsBadByte(static_cast<unsigned char>(*p))) {
      ++p;
    }
    p_ = p;
    if (p == end_) {
      if (!Refill()) {
        return Error(pos, "unterminated comment: expected '*/' to close the "
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

void HloLexer::Directive(std::string_view directive, TextPos pos) {
  if (module_ == nullptr) return;
  absl::string_view text = absl::StripLeadingAsciiWhitespace(
      absl::string_view(directive.data(), directive.size()));
  bool next_line = false;
  if (absl::ConsumePrefix(&text, "disable-next-line=")) {
    next_line = true;
  } else if (!absl::ConsumePrefix(&text, "disable=")) {
    Error(pos, "malformed topolint directive: expected 'disable=RULE[,RULE]' "
               "or 'disable-next-line=RULE[,RULE]' after 'topolint:'");
    return;
  }
  // The rule list ends at the first blank that does not follow a comma.
  std::string list;
  for (absl::string_view word :
       absl::StrSplit(text, absl::ByAnyChar(" \t\r"), absl::SkipEmpty())) {
    if (!list.empty() && list.back() != ',' && word.front() != ',') break;
    list.append(word.data(), word.size());
  }
  Suppression s;
  s.pos = pos;
  for (absl::string_view rule : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    s.rules.emplace_back(rule);
  }
  if (s.rules.empty()) {
    Error(pos, "topolint directive names no rule: expected "
               "'disable=RULE[,RULE]' or 'disable-next-line=RULE[,RULE]'");
    return;
  }
  s.target_line = next_line ? NextCodeLine() : pos.line;
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
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
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

bool HloLexer::TrySkipLine(bool from_operands, bool* trailing_comma) {
  const char* q = from_operands ? FastScan<FastMode::kBody>(p_, end_)
                                : FastScan<FastMode::kLine>(p_, end_);
  if (q == nullptr) return false;
  const char* last = q;
  while (last > p_ &&
         (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\r')) {
    --last;
  }
  *trailing_comma = last > p_ && last[-1] == ',';
  p_ = q;
  return true;
}

bool HloLexer::TrySkipSimpleDims() {
  const char* p = p_ + 1;  // after '['
  while (IsDigit(static_cast<unsigned char>(*p)) || *p == ',') ++p;
  if (*p != ']') return false;
  ++p;
  if (*p == '{') {
    const char* q = p + 1;
    while (IsDigit(static_cast<unsigned char>(*q)) || *q == ',') ++q;
    if (*q != '}') return false;
    p = q + 1;
  } else {
    // A layout may still follow after blanks, a line break or a comment:
    // leave those cases to the exact path.
    const char* q = p;
    while (*q == ' ') ++q;
    if (*q == '{' || *q == '\n' || *q == '/' || *q == '\t' || *q == '\r' ||
        *q == '\0' || *q == '\f' || *q == '\v') {
      return false;
    }
  }
  p_ = p;
  return true;
}

bool HloLexer::Scan(const uint8_t* table, bool one_group, bool stop_at_blank) {
  // The hot loop of the parser. The cursor lives in `p` and the window
  // geometry in locals; both are written back before anything that may
  // refill or report, and reloaded after.
  if (!stop_at_blank) {
    if (const char* q = one_group ? FastScan<FastMode::kGroup>(p_, end_)
                                  : FastScan<FastMode::kValue>(p_, end_)) {
      p_ = q;
      return true;
    }
  }
  if (opens_.empty()) opens_.resize(kMaxNestingDepth);
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
        const int64_t offset = window_base + (p - begin);
        opens_[depth++] = Open{c, CloserOf(c), TextPos{line_, offset - line_start_ + 1}};
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
          p_ = p;
          return true;
        }
        p_ = p;
        if (NextLineStartsInstruction()) {
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
        // blank of a run is kept in the window (see Refill).
        const bool after_equals = p > window_->begin() && p[-1] == '=';
        size_t k = 1;
        while (PeekAt(k) == ' ' || PeekAt(k) == '\t' || PeekAt(k) == '\r') ++k;
        if (!after_equals && PeekAt(k) != '{') return true;
        reload();
        p += k;
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
          return Error(Pos(), "unexpected '/': expected '//' or '/*' to start "
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
