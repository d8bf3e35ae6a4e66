// The block scanner behind HloLexer's fast paths: 64 bytes at a time with
// SIMD bitmasks (brackets, quotes, blanks, hazards) and a prefix-XOR string
// mask, in the manner of simdjson: AVX2 where the CPU has it (chosen at run
// time), SSE2 otherwise. It only ever answers for the common case
// (one line, plain strings, no comments or escapes, nesting within 32) and
// otherwise declines, so that the exact byte scanners decide: both paths
// accept exactly the same texts, whatever the window. Internal to
// checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_FAST_SCAN_H_
#define TOPOLINT_CHECKER_HLO_TEXT_FAST_SCAN_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "checker/hlo/text/byte_classes.h"

namespace topolint::hlo {

// Bracket kinds shared by the fast scanners: 1..3 open ( [ {, 5..7 close
// ) ] }, 8 comma, 0 anything else. An open bracket's kind is its entry on a
// bracket stack; a closer's is that entry | 4.
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
inline constexpr std::array<uint8_t, 256> kBracketKinds = MakeBracketKinds();

// What FastScan skips; see HloLexer::Scan and HloLexer::TrySkipLine.
enum class FastMode {
  kGroup,  // from an opener through its closer
  kValue,  // to a ',' / blank / newline / unmatched closer at depth 0
  kLine,   // to a newline / unmatched closer at depth 0 (commas included)
  kBody,   // kLine from `(operands)`: only blanks between ')' and a ','
};

// The `sharding=` keys a kLine / kBody scan saw: the '{' at depth 0 (outside
// strings) of each `sharding=` + blanks + '{' (ShardingKeyBefore), first and
// last; both null when none. A key of another name that ends in
// `sharding=` (`foo_sharding={`) is one too: the reader of the keys
// (ScanSkippedLineForShardingsSlow) tells them apart.
struct ShardingBraces {
  const char* first = nullptr;
  const char* last = nullptr;

  bool any() const { return first != nullptr; }
  void Add(const char* brace) {
    if (first == nullptr) first = brace;
    last = brace;
  }
};

namespace internal {
// The scanner of each FastMode (indexed by it) for this CPU: the SSE2 ones
// until the AVX2 ones replace them during static initialisation, when the
// CPU has AVX2 (both give the same answers). Not to be written elsewhere.
using FastScanFn = const char* (*)(const char* start, const char* end,
                                   ShardingBraces* sharding_keys);
extern FastScanFn kFastScanners[4];
}  // namespace internal

// Where the exact scanner would stop, starting at `start` (inside a window
// ending at `end`, whose NUL sentinel and 64 bytes of slack follow), or
// nullptr when the text is not the simple case. kLine and kBody add to
// *sharding_keys (when not null) each '{' at depth 0 that follows
// `sharding=` and blanks (ShardingKeyBefore): the line then holds a
// sharding annotation to read (checker/hlo/text/sharding_attr.h; a
// `sharding=` whose value is not '{' is not one, on every path), found
// without a pass of its own. (Also when the scan then declines.) Never reads
// before `start` (only the byte before a blank or newline it has scanned) nor
// more than 63 bytes past `end`. Thread-safe. Inline: each caller's call goes
// straight to the scanner this CPU uses (one indirect call per caller, which
// keeps to the modes that caller uses).
[[nodiscard]] inline const char* FastScan(
    FastMode mode, const char* start, const char* end,
    ShardingBraces* sharding_keys = nullptr) {
  static_assert(static_cast<int>(FastMode::kGroup) == 0 &&
                    static_cast<int>(FastMode::kValue) == 1 &&
                    static_cast<int>(FastMode::kLine) == 2 &&
                    static_cast<int>(FastMode::kBody) == 3,
                "kFastScanners is indexed by FastMode");
  return internal::kFastScanners[static_cast<int>(mode)](start, end,
                                                         sharding_keys);
}

// For tests: the instruction set FastScan uses on this machine, and the SSE2
// implementation (the fallback) called directly, whatever the CPU has. The
// two implementations give the same answers. Without SSE2 (not x86), the
// fallback declines everything.
enum class FastScanIsa { kNone, kSse2, kAvx2 };
FastScanIsa FastScanIsaInUse();
const char* FastScanSse2ForTest(FastMode mode, const char* start,
                                const char* end,
                                ShardingBraces* sharding_keys = nullptr);

// Whether `sharding=` starts at `q` (which has 9 readable bytes: the
// window's NUL ends a comparison early).
inline bool ShardingKeyAt(const char* q) {
  uint64_t word;
  uint64_t key;
  std::memcpy(&word, q, sizeof(word));  // one load, one comparison
  std::memcpy(&key, "sharding", sizeof(key));
  return word == key && q[8] == '=';
}

// Whether the '{' at `brace` (not before `start`) follows `sharding=` and
// blanks within [start, brace): made at each '{' the block scanner meets
// at depth 0 (a few instructions: most such braces follow `name=` whose
// name does not end in 'g').
inline bool ShardingKeyBefore(const char* start, const char* brace) {
  constexpr long kKeyBytes = 9;  // `sharding=`
  const char* q = brace;
  while (q > start && q[-1] == ' ') --q;  // (rarely a step)
  return q - start >= kKeyBytes && q[-2] == 'g' && ShardingKeyAt(q - kKeyBytes);
}

// The bytes a value may continue with after a blank at nesting depth 0
// (the scalar of `literal=f32[] 0.5`, `literal=c64[] (1, 2)`,
// `literal=pred[] true`, `literal=f32[] -inf`): a number, '(', or one of the
// literal words XLA's lexer keeps out of names. Anything else (a name, '}',
// ',', a comment, a line end) ends the value there.
inline constexpr int kValueWordLookahead = 6;
inline bool ContinuesValueAfterBlank(const char* next) {
  const char c = next[0];
  if (IsDigit(c) || c == '-' || c == '+' || c == '.' || c == '(') {
    return true;
  }
  for (const char* word : {"true", "false", "inf", "nan"}) {
    int i = 0;
    while (word[i] != '\0' && next[i] == word[i]) ++i;
    if (word[i] != '\0') continue;
    if (!IsIdentChar(next[i])) return true;
  }
  return false;
}

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_FAST_SCAN_H_
