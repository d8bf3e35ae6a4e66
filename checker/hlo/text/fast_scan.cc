#include "checker/hlo/text/fast_scan.h"

#include <array>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The AVX2 variant is compiled with function target attributes and chosen
// at run time, so the binary still runs on any x86-64.
#if defined(__SSE2__) && defined(__x86_64__) && \
    (defined(__GNUC__) || defined(__clang__))
#define TOPOLINT_FAST_SCAN_AVX2 1
#include <immintrin.h>
#else
#define TOPOLINT_FAST_SCAN_AVX2 0
#endif

#include "checker/hlo/input_window.h"

namespace topolint::hlo {
namespace {

// FastScan loads whole 64-byte blocks, up to 63 bytes past the window's end.
static_assert(InputWindow::kSlackBytes >= 63,
              "FastScan reads up to 63 bytes past the window's end");

// The bytes of one 64-byte block that the scanner looks at, one bit each.
struct BlockMasks {
  uint64_t quote = 0;        // '"'
  uint64_t brackets = 0;     // ( ) [ ] { } (may also hold hazard_any bytes)
  uint64_t comma = 0;        // ',' (only computed where commas matter)
  uint64_t space = 0;        // ' '
  uint64_t hazard_any = 0;   // backslash, control bytes (newline, NUL), DEL
  uint64_t hazard_code = 0;  // '/' and '\'' (they matter outside strings)
};

// What a stretch of blanks at depth 0 decides: where the text ends (a
// blank), or that the scan must decline (`bail`: the answer depends on
// bytes past the window), or neither.
struct BlankStop {
  const char* stop = nullptr;
  bool bail = false;
};

// The part of EndingBlank past its common case: `blank` starts a run of
// blanks not after `=` (nor, for kLine / kBody, after `,`); `starts` are
// the run starts of its block after it.
template <FastMode kMode>
__attribute__((noinline)) BlankStop DecideBlanks(const char* p,
                                                 const char* blank,
                                                 uint64_t starts,
                                                 const char* scan_start,
                                                 const char* end) {
  for (;;) {
    const char* after = blank;
    while (*after == ' ') ++after;  // the NUL sentinel stops it
    if (after >= end) return {nullptr, true};
    const char next = *after;
    // The exact path skips tabs and CRs with the blanks before it decides.
    if (next == '\t' || next == '\r') return {nullptr, true};
    // `mesh[...] {...}`; and in kLine / kBody, the attribute loop goes on
    // over ` ,`, and a blank before the end of the line ends nothing by
    // itself. (Stopping early is always safe here: the caller goes on from
    // the stop.)
    const bool goes_on = next == '{' || (kMode != FastMode::kValue &&
                                         (next == ',' || next == '\n'));
    if (!goes_on) {
      // `literal=f32[] 0.5`: the value goes on (see
      // ContinuesValueAfterBlank).
      if (after + kValueWordLookahead >= end) return {nullptr, true};
      if (!ContinuesValueAfterBlank(after)) return {blank, false};
    }
    // The next run start that does not follow `=` (or `,`).
    for (;;) {
      if (starts == 0) return {};
      blank = p + __builtin_ctzll(starts);
      starts &= starts - 1;
      const char prev = blank > scan_start ? blank[-1] : '\0';
      if (prev != '=' && (kMode == FastMode::kValue || prev != ',')) break;
    }
  }
}

// Where the exact path ends a value or instruction at a blank at depth 0
// (see the kBlank case of HloLexer::Scan). `blanks` are the depth-0 blanks
// of the block at `p` to check; `all_spaces` all its spaces. A run of
// blanks is decided once, at its first blank (runs continued from an
// earlier block were decided there), so the work stays linear however long
// the run.
template <FastMode kMode>
inline BlankStop EndingBlank(const char* p, uint64_t blanks,
                             uint64_t all_spaces, const char* scan_start,
                             const char* end) {
  uint64_t starts = blanks & ~(all_spaces << 1);
  if ((starts & 1) != 0 && p > scan_start && p[-1] == ' ') starts &= ~1ull;
  while (starts != 0) {
    const char* blank = p + __builtin_ctzll(starts);
    starts &= starts - 1;
    const char prev = blank > scan_start ? blank[-1] : '\0';
    // A blank after `name=` ends nothing, and kLine / kBody go on over `, `
    // (the attribute loop): the common case, decided without looking past
    // the run. (Safe even when the run reaches the end of the window, which
    // the exact path must look past: only blanks come before that end, so
    // the scan declines there anyway.)
    if (prev == '=' || (kMode != FastMode::kValue && prev == ',')) continue;
    return DecideBlanks<kMode>(p, blank, starts, scan_start, end);
  }
  return {};
}

#if defined(__SSE2__)

// Masks and prefix XOR with SSE2 only (any x86-64).
struct Sse2 {
  static uint64_t MoveMask(__m128i v) {
    return static_cast<uint32_t>(_mm_movemask_epi8(v));
  }

  template <bool kComma>
  static BlockMasks Masks(const char* p) {
    const __m128i upper = _mm_set1_epi8(static_cast<char>(0xdf));
    const __m128i even = _mm_set1_epi8(static_cast<char>(0xfe));
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i lsquare = _mm_set1_epi8('[');
    const __m128i rsquare = _mm_set1_epi8(']');
    const __m128i lparen = _mm_set1_epi8('(');
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i space = _mm_set1_epi8(' ');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i slash = _mm_set1_epi8('/');
    const __m128i apostrophe = _mm_set1_epi8('\'');
    BlockMasks m;
    for (int k = 0; k < 4; ++k) {
      const __m128i v =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      const __m128i folded = _mm_and_si128(v, upper);  // '{' -> '[' ...
      const __m128i brackets =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(folded, lsquare),
                                    _mm_cmpeq_epi8(folded, rsquare)),
                       _mm_cmpeq_epi8(_mm_and_si128(v, even), lparen));
      const __m128i hazard_any =
          _mm_or_si128(LowBytes(v), _mm_cmpeq_epi8(v, backslash));
      const __m128i hazard_code =
          _mm_or_si128(_mm_cmpeq_epi8(v, slash), _mm_cmpeq_epi8(v, apostrophe));
      const int shift = 16 * k;
      m.quote |= MoveMask(_mm_cmpeq_epi8(v, quote)) << shift;
      m.brackets |= MoveMask(brackets) << shift;
      if (kComma) m.comma |= MoveMask(_mm_cmpeq_epi8(v, comma)) << shift;
      m.space |= MoveMask(_mm_cmpeq_epi8(v, space)) << shift;
      m.hazard_any |= MoveMask(hazard_any) << shift;
      m.hazard_code |= MoveMask(hazard_code) << shift;
    }
    return m;
  }

  // Bit i set when an odd number of bits at or below i are set in `x`.
  static uint64_t PrefixXor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
  }
};

#endif  // __SSE2__

#if TOPOLINT_FAST_SCAN_AVX2

// Masks with AVX2 (32 bytes per instruction, byte classes by table lookup)
// and prefix XOR by carry-less multiplication. Only called on CPUs that
// have AVX2, BMI1 and PCLMUL (see FastScan).
struct Avx2 {
  __attribute__((target("avx2"))) static uint64_t MoveMask64(__m256i lo,
                                                             __m256i hi) {
    return static_cast<uint32_t>(_mm256_movemask_epi8(lo)) |
           (uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(hi))} << 32);
  }

  // The bytes of `v` that `table` gives back (see Masks).
  __attribute__((target("avx2"))) static __m256i InTable(__m256i v,
                                                         __m256i table) {
    return _mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, v), v);
  }
  __attribute__((target("avx2"))) static __m256i Brackets(
      __m256i v, __m256i table, __m256i bit5) {  // bit5: 0x20 each
    return InTable(_mm256_or_si256(v, bit5), table);
  }
  __attribute__((target("avx2"))) static __m256i HazardAny(
      __m256i v, __m256i table, __m256i max_control) {
    return _mm256_or_si256(
        InTable(v, table),
        _mm256_cmpeq_epi8(_mm256_max_epu8(v, max_control), max_control));
  }

  // Backslash and DEL, for HazardAny.
  __attribute__((target("avx2"))) static __m256i AnyTable() {
    constexpr char kNo = static_cast<char>(0x80);  // matches no byte
    return _mm256_setr_epi8(kNo, kNo, kNo, kNo, kNo, kNo, kNo, kNo, kNo, kNo,
                            kNo, kNo, '\\', kNo, kNo, 0x7f,  //
                            kNo, kNo, kNo, kNo, kNo, kNo, kNo, kNo, kNo, kNo,
                            kNo, kNo, '\\', kNo, kNo, 0x7f);
  }

  template <bool kComma>
  __attribute__((target("avx2"))) static BlockMasks Masks(const char* p) {
    constexpr char kNo = static_cast<char>(0x80);  // matches no byte below
    // vpshufb looks up the low nibble of each byte (in each 128-bit lane)
    // and yields 0 for bytes >= 0x80; a byte is in a class when the lookup
    // gives the byte back.
    // Brackets, looked up by byte | 0x20: ( ) { } as themselves, [ ] as
    // { }. Backspace and tab become ( ) too, but they are hazards.
    const __m256i bracket_table = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, '(', ')', 0, '{', 0, '}', 0, 0,  //
        0, 0, 0, 0, 0, 0, 0, 0, '(', ')', 0, '{', 0, '}', 0, 0);
    const __m256i code_table =
        _mm256_setr_epi8(kNo, kNo, kNo, kNo, kNo, kNo, kNo, '\'', kNo, kNo, kNo,
                         kNo, kNo, kNo, kNo, '/',  //
                         kNo, kNo, kNo, kNo, kNo, kNo, kNo, '\'', kNo, kNo, kNo,
                         kNo, kNo, kNo, kNo, '/');
    const __m256i any_table = AnyTable();
    const __m256i max_control = _mm256_set1_epi8(0x1f);
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i space = _mm256_set1_epi8(' ');
    const __m256i comma = _mm256_set1_epi8(',');
    const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i v1 =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    BlockMasks m;
    m.quote =
        MoveMask64(_mm256_cmpeq_epi8(v0, quote), _mm256_cmpeq_epi8(v1, quote));
    m.brackets = MoveMask64(Brackets(v0, bracket_table, space),
                            Brackets(v1, bracket_table, space));
    if (kComma) {
      m.comma = MoveMask64(_mm256_cmpeq_epi8(v0, comma),
                           _mm256_cmpeq_epi8(v1, comma));
    }
    m.space =
        MoveMask64(_mm256_cmpeq_epi8(v0, space), _mm256_cmpeq_epi8(v1, space));
    m.hazard_any = MoveMask64(HazardAny(v0, any_table, max_control),
                              HazardAny(v1, any_table, max_control));
    m.hazard_code =
        MoveMask64(InTable(v0, code_table), InTable(v1, code_table));
    return m;
  }

  // Bit i set when an odd number of bits at or below i are set in `x`.
  __attribute__((target("pclmul"))) static uint64_t PrefixXor(uint64_t x) {
    const __m128i product = _mm_clmulepi64_si128(
        _mm_cvtsi64_si128(static_cast<int64_t>(x)), _mm_set1_epi8(-1), 0);
    return static_cast<uint64_t>(_mm_cvtsi128_si64(product));
  }
};

#endif  // TOPOLINT_FAST_SCAN_AVX2

// The common case of Scan, 64 bytes at a time: text that holds only
// brackets, commas, blanks, ordinary bytes and double-quoted strings
// without escapes, on one line, nested at most 32 deep and correctly.
// Returns where the exact scanner would stop, or nullptr when anything else
// comes first (newline inside brackets, comment, escape, single quote,
// control byte, end of the window, a bracket mismatch): the exact scanner
// then redoes the work and decides. Reads up to 63 bytes past `end` (the
// window's slack; the NUL sentinel at `end` stops everything). `Isa`
// supplies the block masks; this body is inlined into one function per
// instruction set so that they are.
template <FastMode kMode, class Isa>
// The block scanner's hot loop, inlined once per instruction set: its
// cases share the masks and the cursor in registers, as a lexer's do.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
__attribute__((always_inline)) inline const char* ScanBlocks(
    const char* const start, const char* end, ShardingBraces* sharding_keys) {
  constexpr bool kGroup = kMode == FastMode::kGroup;
  constexpr bool kValue = kMode == FastMode::kValue;
  constexpr bool kBody = kMode == FastMode::kBody;
  // The open brackets, 2 bits each (1 '(', 2 '[', 3 '{'), the innermost
  // lowest: 0 exactly at depth 0, and the top 2 bits are set at depth 32.
  uint64_t stack = 0;
  uint64_t in_string_carry = 0;
  // kBody: still in `(operands)`, where blanks at depth 0 end nothing.
  bool in_operands = kBody;
  for (const char* p = start; p < end; p += 64) {
    const BlockMasks m = Isa::template Masks<kValue>(p);
    const uint64_t in_string = Isa::PrefixXor(m.quote) ^ in_string_carry;
    in_string_carry =
        static_cast<uint64_t>(static_cast<int64_t>(in_string) >> 63);
    const uint64_t hazard = m.hazard_any | (m.hazard_code & ~in_string);
    // Outside strings and before the first hazard.
    const uint64_t live = ~in_string & (hazard - 1) & ~hazard;
    const uint64_t spaces = m.space & live;
    // The bits from where the current stretch at depth 0 began (kLine,
    // kValue, and kBody after its operands check its blanks).
    uint64_t stretch = ~uint64_t{0};
    // Commas matter only where a value ends at one.
    uint64_t s = (kValue ? m.brackets | m.comma : m.brackets) & live;
    while (s != 0) {
      if (stack == 0) {
        const int i = __builtin_ctzll(s);
        if (!kGroup && !in_operands) {
          // Leaving a stretch at depth 0: its blanks may end the text first.
          const uint64_t blanks = spaces & stretch & ((s & (0 - s)) - 1);
          if (blanks != 0) {
            const BlankStop b =
                EndingBlank<kMode>(p, blanks, m.space, start, end);
            if (b.bail) return nullptr;
            if (b.stop != nullptr) return b.stop;
          }
        }
        const uint8_t kind = kBracketKinds[static_cast<unsigned char>(p[i])];
        // A closer of an enclosing construct, or kValue's comma.
        if (kind > 4) return p + i;
        // `sharding={` at depth 0 (its own pass over every line cost 5%).
        if (!kGroup && !kValue && kind == 3 && sharding_keys != nullptr &&
            ShardingKeyBefore(start, p + i)) {
          sharding_keys->Add(p + i);
        }
        stack = kind;
        s &= s - 1;
      }
      // Inside brackets: only the stack changes until depth 0 again.
      while (s != 0) {
        const int i = __builtin_ctzll(s);
        s &= s - 1;
        const uint8_t kind = kBracketKinds[static_cast<unsigned char>(p[i])];
        if (kind < 4) {
          if ((stack >> 62) != 0) return nullptr;  // deeper than 32
          // When its closer comes next (the dims or layout of a shape, an
          // empty list), the pair leaves the stack as it was.
          if (s != 0 && kBracketKinds[static_cast<unsigned char>(
                            p[__builtin_ctzll(s)])] == (kind | 4)) {
            s &= s - 1;
            continue;
          }
          stack = (stack << 2) | kind;
          continue;
        }
        if (kValue && kind == 8) continue;
        if (((stack ^ kind) & 3) != 0) return nullptr;  // mismatch
        stack >>= 2;
        if (stack == 0) {
          if (kGroup) return p + i + 1;
          if (kBody && in_operands) {
            // After `(operands)` only blanks may come before ',' or the end
            // of the line, as in the exact path.
            in_operands = false;
            const char* q = p + i + 1;
            while (IsBlank(*q)) ++q;
            if (*q == '\n') return q;
            if (*q != ',') return nullptr;
          }
          stretch = (~uint64_t{0} << i) << 1;
          break;
        }
      }
    }
    if (!kGroup && stack == 0 && !in_operands) {
      const uint64_t blanks = spaces & stretch;
      if (blanks != 0) {
        const BlankStop b = EndingBlank<kMode>(p, blanks, m.space, start, end);
        if (b.bail) return nullptr;
        if (b.stop != nullptr) return b.stop;
      }
    }
    if (hazard != 0) {
      const int stop = __builtin_ctzll(hazard);
      if (!kGroup && stack == 0 && !in_operands && p + stop < end &&
          p[stop] == '\n' && ((in_string >> stop) & 1) == 0) {
        // `name=` + newline may go on with a `{` body on the next line:
        // the exact scanner decides.
        if (p + stop == start || p[stop - 1] == '=') return nullptr;
        return p + stop;
      }
      return nullptr;
    }
  }
  return nullptr;
}

#if defined(__SSE2__)
template <FastMode kMode>
const char* ScanSse2(const char* start, const char* end,
                     ShardingBraces* sharding_keys) {
  return ScanBlocks<kMode, Sse2>(start, end, sharding_keys);
}
#endif

#if TOPOLINT_FAST_SCAN_AVX2
template <FastMode kMode>
__attribute__((target("avx2,bmi,pclmul"))) const char* ScanAvx2(
    const char* start, const char* end, ShardingBraces* sharding_keys) {
  return ScanBlocks<kMode, Avx2>(start, end, sharding_keys);
}

// Whether this CPU (and OS) runs ScanAvx2; decided once.
bool UseAvx2() {
  static const bool avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("pclmul");
  }();
  return avx2;
}
#endif

}  // namespace

const char* FastScanSse2ForTest(FastMode mode, const char* start,
                                const char* end,
                                ShardingBraces* sharding_keys) {
#if defined(__SSE2__)
  switch (mode) {
    case FastMode::kGroup:
      return ScanSse2<FastMode::kGroup>(start, end, sharding_keys);
    case FastMode::kValue:
      return ScanSse2<FastMode::kValue>(start, end, sharding_keys);
    case FastMode::kLine:
      return ScanSse2<FastMode::kLine>(start, end, sharding_keys);
    case FastMode::kBody:
      return ScanSse2<FastMode::kBody>(start, end, sharding_keys);
  }
#else
  (void)mode;
  (void)start;
  (void)end;
  (void)sharding_keys;
#endif
  return nullptr;
}

FastScanIsa FastScanIsaInUse() {
  // What FastScan calls (see UseTheBestScanners).
#if TOPOLINT_FAST_SCAN_AVX2
  if (internal::kFastScanners[0] == &ScanAvx2<FastMode::kGroup> &&
      internal::kFastScanners[1] == &ScanAvx2<FastMode::kValue> &&
      internal::kFastScanners[2] == &ScanAvx2<FastMode::kLine> &&
      internal::kFastScanners[3] == &ScanAvx2<FastMode::kBody>) {
    return FastScanIsa::kAvx2;
  }
#endif
#if defined(__SSE2__)
  return FastScanIsa::kSse2;
#else
  return FastScanIsa::kNone;
#endif
}

namespace {

template <FastMode kMode>
const char* ScanFallback(const char* start, const char* end,
                         ShardingBraces* sharding_keys) {
  return FastScanSse2ForTest(kMode, start, end, sharding_keys);
}

// Puts the AVX2 scanners in place where the CPU runs them: before main,
// once (until then, the fallback answers, and the answers are the same).
bool UseTheBestScanners() {
#if TOPOLINT_FAST_SCAN_AVX2
  if (UseAvx2()) {
    internal::kFastScanners[0] = &ScanAvx2<FastMode::kGroup>;
    internal::kFastScanners[1] = &ScanAvx2<FastMode::kValue>;
    internal::kFastScanners[2] = &ScanAvx2<FastMode::kLine>;
    internal::kFastScanners[3] = &ScanAvx2<FastMode::kBody>;
    return true;
  }
#endif
  return false;
}

[[maybe_unused]] const bool kBestScanners = UseTheBestScanners();

}  // namespace

namespace internal {

FastScanFn kFastScanners[4] = {
    &ScanFallback<FastMode::kGroup>, &ScanFallback<FastMode::kValue>,
    &ScanFallback<FastMode::kLine>, &ScanFallback<FastMode::kBody>};

}  // namespace internal

}  // namespace topolint::hlo
