// One switch per fast path of the text front end, for tests: a bit of
// ParseOptions::disabled_fast_paths turns that fast path off, and its
// construct then always goes to the exact parser. The differential test
// (tests/hlo/text/fast_path_equivalence_test.cc) turns them off one at a
// time to name the fast path that disagrees with the exact parser. Each
// switch is checked where its fast path is chosen (a test of a lexer member per
// construct), never inside a scanning loop; parses that set no bit take
// every fast path, as before. The names are those of the fast-path map in
// docs/architecture.md (tests/hlo/text/fast_path_map_test.cc holds that).
// Internal to checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_FAST_PATH_SWITCH_H_
#define TOPOLINT_CHECKER_HLO_TEXT_FAST_PATH_SWITCH_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace topolint::hlo {

#define TOPOLINT_FAST_PATHS(X) \
  X(ScanSimpleHead)            \
  X(ScanSimpleParam)           \
  X(TryCheckPlainText)         \
  X(TrySkipLine)               \
  X(TrySkipPlainGroup)         \
  X(FastScan)                  \
  X(ReadSimpleShape)           \
  X(TryReadShape)              \
  X(TryParsePlainGroups)       \
  X(TryRecallGroups)           \
  X(TryParseSimplePairs)       \
  X(TryRecallPairs)            \
  X(TryFindShape)              \
  X(TryRecallShapeAt)          \
  X(TryParseSimpleIota)        \
  X(TryParseSimpleMetadata)

enum class FastPath : uint8_t {
#define TOPOLINT_FAST_PATH_ENUM(name) k##name,
  TOPOLINT_FAST_PATHS(TOPOLINT_FAST_PATH_ENUM)
#undef TOPOLINT_FAST_PATH_ENUM
};

// The fast paths' names, in FastPath order.
inline constexpr std::array kFastPathNames = {
#define TOPOLINT_FAST_PATH_NAME(name) std::string_view(#name),
    TOPOLINT_FAST_PATHS(TOPOLINT_FAST_PATH_NAME)
#undef TOPOLINT_FAST_PATH_NAME
};
static_assert(kFastPathNames.size() <= 64, "one bit each in a uint64_t");

// The bit of ParseOptions::disabled_fast_paths that turns `f` off.
constexpr uint64_t FastPathBit(FastPath f) {
  return uint64_t{1} << static_cast<unsigned>(f);
}
// Every fast path off: the exact parser alone, through any window (a small
// window alone does not ensure it: the window may hold more than its size
// after a lookahead).
inline constexpr uint64_t kAllFastPaths =
    (uint64_t{1} << kFastPathNames.size()) - 1;

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_FAST_PATH_SWITCH_H_
