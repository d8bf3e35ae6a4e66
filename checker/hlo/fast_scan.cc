#include "checker/hlo/fast_scan.h"

#include <array>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace topolint::hlo {
namespace {

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


// The common case of Scan, 64 bytes at a time: text that holds only
// brackets, commas, ordinary bytes and double-quoted strings without
// escapes, on one line, nested at most 32 deep and correctly. Returns where
// the exact scanner would stop, or nullptr when anything else comes first
// (newline inside brackets, comment, escape, single quote, control byte,
// end of the window, a bracket mismatch): the exact scanner then redoes
// the work and decides. Reads up to 63 bytes past `end` (the window's
// slack; the NUL sentinel at `end` stops everything).
// Where the exact path ends a value or instruction at a blank at depth 0
// (see the kBlank case of HloLexer::Scan). `spaces` are the depth-0 blanks
// of the block at `p` to check; a run of blanks is decided once, at its
// first blank (runs continued from an earlier block were decided there), so
// the work stays linear however long the run. Sets *bail when the run
// reaches the end of the window (the exact path must look further).
// Returns the blank where the text ends, or nullptr.
template <FastMode kMode>
const char* EndingBlank(const char* p, uint64_t spaces, uint64_t all_spaces,
                        const char* scan_start, const char* end, bool* bail) {
  const uint64_t continued =
      p > scan_start && p[-1] == ' ' ? uint64_t{1} : uint64_t{0};
  for (uint64_t starts = spaces & ~((all_spaces << 1) | continued);
       starts != 0; starts &= starts - 1) {
    const char* blank = p + __builtin_ctzll(starts);
    const char prev = blank > scan_start ? blank[-1] : '\0';
    const char* after = blank;
    while (*after == ' ') ++after;  // the NUL sentinel stops it
    if (after >= end) {
      *bail = true;
      return nullptr;
    }
    const char next = *after;
    if (prev == '=' || next == '{') continue;
    // kLine / kBody: the attribute loop goes on over `, ` and ` ,`, and a
    // blank before the end of the line ends nothing by itself. (Stopping
    // early is always safe here: the caller goes on from the stop.)
    if (kMode != FastMode::kValue &&
        (prev == ',' || next == ',' || next == '\n')) {
      continue;
    }
    // `literal=f32[] 0.5`: the value goes on (see ContinuesValueAfterBlank).
    if (after + kValueWordLookahead >= end) {
      *bail = true;
      return nullptr;
    }
    if (ContinuesValueAfterBlank(after)) continue;
    return blank;
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
const char* FastScanImpl(const char* const start, const char* end) {
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
        bool bail = false;
        const char* b = EndingBlank<kMode>(
            p, spaces & BitRange(segment, i), m.space, start, end, &bail);
        if (bail) return nullptr;
        if (b != nullptr) return b;
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
      bool bail = false;
      const char* b = EndingBlank<kMode>(
          p, spaces & BitRange(segment, stop), m.space, start, end, &bail);
      if (bail) return nullptr;
      if (b != nullptr) return b;
    }
    if (hazard != 0) {
      if (kMode != FastMode::kGroup && depth == 0 && !in_operands &&
          p + stop < end && p[stop] == '\n' &&
          ((in_string >> stop) & 1) == 0) {
        // `name=` + newline may go on with a `{` body on the next line:
        // the exact scanner decides.
        if (p + stop == start || p[stop - 1] == '=') return nullptr;
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

}  // namespace

const char* FastScan(FastMode mode, const char* start, const char* end) {
  switch (mode) {
    case FastMode::kGroup:
      return FastScanImpl<FastMode::kGroup>(start, end);
    case FastMode::kValue:
      return FastScanImpl<FastMode::kValue>(start, end);
    case FastMode::kLine:
      return FastScanImpl<FastMode::kLine>(start, end);
    case FastMode::kBody:
      return FastScanImpl<FastMode::kBody>(start, end);
  }
  return nullptr;
}

}  // namespace topolint::hlo
