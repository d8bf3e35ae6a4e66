// The one table of byte classes of the HLO front end: every scanner, exact
// or fast, asks these predicates (or the SSE2 masks below, which answer the
// same questions 16 bytes at a time) instead of spelling a class out again.
// Internal to checker/hlo/text.
//
//   class          bytes                         used for
//   ident start    [A-Za-z_]                     names, keys, opcodes, types
//   ident          [A-Za-z0-9_.-]                the rest of an identifier
//   digit          [0-9]                         integers, dimensions
//   blank          ' ' '\t' '\r'                 within a line
//   space          blank, '\n' '\f' '\v'         trivia
//   control        < 0x20 except space; 0x7f     never in HLO text (binary)
//   low            < 0x20, or 0x7f               where the block scanners
//                                                stop (line breaks, tabs,
//                                                control bytes, the NUL
//                                                sentinel)
#ifndef TOPOLINT_CHECKER_HLO_TEXT_BYTE_CLASSES_H_
#define TOPOLINT_CHECKER_HLO_TEXT_BYTE_CLASSES_H_

#include <array>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace topolint::hlo {

// What Peek() returns at the end of the input.
inline constexpr int kEof = -1;

enum ByteClass : uint8_t {
  kClassIdentStart = 1 << 0,
  kClassIdent = 1 << 1,
  kClassDigit = 1 << 2,
  kClassBlank = 1 << 3,
  kClassSpace = 1 << 4,
  kClassControl = 1 << 5,
  kClassLow = 1 << 6,
};

constexpr uint8_t ClassOf(int c) {
  uint8_t k = 0;
  const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  const bool digit = c >= '0' && c <= '9';
  if (alpha || c == '_') k |= kClassIdentStart;
  if (alpha || digit || c == '_' || c == '.' || c == '-') k |= kClassIdent;
  if (digit) k |= kClassDigit;
  const bool blank = c == ' ' || c == '\t' || c == '\r';
  if (blank) k |= kClassBlank;
  if (blank || c == '\n' || c == '\f' || c == '\v') k |= kClassSpace;
  if ((c < 0x20 && !(blank || c == '\n' || c == '\f' || c == '\v')) ||
      c == 0x7f) {
    k |= kClassControl;
  }
  if (c < 0x20 || c == 0x7f) k |= kClassLow;
  return k;
}

// Indexed by byte + 1, so that kEof (-1) has an entry (in no class).
constexpr std::array<uint8_t, 257> MakeByteClasses() {
  std::array<uint8_t, 257> t{};
  for (int c = 0; c < 256; ++c) t[c + 1] = ClassOf(c);
  return t;
}
inline constexpr std::array<uint8_t, 257> kByteClasses = MakeByteClasses();

// `c` is a byte (0..255, as from Peek() or an unsigned char) or kEof.
constexpr bool HasClass(int c, uint8_t cls) {
  return (kByteClasses[c + 1] & cls) != 0;
}
// The same for a raw `char` read from a buffer.
constexpr bool HasClass(char c, uint8_t cls) {
  return HasClass(static_cast<int>(static_cast<unsigned char>(c)), cls);
}

template <typename C>
constexpr bool IsIdentStart(C c) {
  return HasClass(c, kClassIdentStart);
}
template <typename C>
constexpr bool IsIdentChar(C c) {
  return HasClass(c, kClassIdent);
}
template <typename C>
constexpr bool IsDigit(C c) {
  return HasClass(c, kClassDigit);
}
template <typename C>
constexpr bool IsBlank(C c) {
  return HasClass(c, kClassBlank);
}
template <typename C>
constexpr bool IsSpace(C c) {
  return HasClass(c, kClassSpace);
}
// Bytes that never occur in HLO text; meeting one stops parsing with "not
// HLO text".
template <typename C>
constexpr bool IsControlByte(C c) {
  return HasClass(c, kClassControl);
}
template <typename C>
constexpr bool IsLowByte(C c) {
  return HasClass(c, kClassLow);
}

#if defined(__SSE2__)
// 0xff in each lane of `v` whose byte is in the class "low" (< 0x20 or
// 0x7f, unsigned).
inline __m128i LowBytes(__m128i v) {
  const __m128i max_control = _mm_set1_epi8(0x1f);
  return _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(v, max_control), max_control),
                      _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
}
// 0xff in each lane of `v` whose byte is in the class "control" (a low
// byte but tab, line feed, vertical tab, form feed, carriage return).
inline __m128i ControlBytes(__m128i v) {
  const __m128i space = _mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))),
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\v'))),
                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\f'))));
  return _mm_andnot_si128(space, LowBytes(v));
}
// 0xff in each lane whose byte is in [lo, lo + span] (unsigned).
inline __m128i BytesInRange(__m128i v, char lo, int span) {
  const __m128i t = _mm_sub_epi8(v, _mm_set1_epi8(lo));
  return _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(static_cast<char>(span))),
                        t);
}
// 0xff in each lane whose byte is an identifier byte [A-Za-z0-9_.-].
inline __m128i IdentBytes(__m128i v) {
  const __m128i alpha =
      BytesInRange(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 25);
  const __m128i other =
      _mm_or_si128(_mm_or_si128(BytesInRange(v, '0', 9),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('_'))),
                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('-'))));
  return _mm_or_si128(alpha, other);
}
#endif

// Past the run of identifier bytes [A-Za-z0-9_.-] at `p`, 16 bytes at a
// time: the run must end (at a NUL sentinel at the latest) with at least 15
// readable bytes after that end, as in an InputWindow (kSlackBytes).
inline const char* SkipIdentBytes(const char* p) {
#if defined(__SSE2__)
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const unsigned stop =
        ~static_cast<unsigned>(_mm_movemask_epi8(IdentBytes(v))) & 0xffffu;
    if (stop != 0) return p + __builtin_ctz(stop);
    p += 16;
  }
#else
  while (IsIdentChar(*p)) ++p;
  return p;
#endif
}

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_BYTE_CLASSES_H_
