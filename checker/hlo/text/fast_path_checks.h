// The debug re-checks of the text front end's fast paths (RE2's
// "inconsistency" check, checker/hlo/fast_path_check.h): where a fast path
// accepted, the exact parser reads the same bytes again (HloLexer::ExactOnly
// keeps every fast path out of that second read) and a difference aborts
// with the fast path's name. Each check is linear in what it re-reads (ids
// are located with IdLayout::Cursor, never IdPos per id). Release builds
// compile them away: every caller tests kCheckFastPaths first. The map of
// which fast path is checked where is in docs/architecture.md.
// Internal to checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_FAST_PATH_CHECKS_H_
#define TOPOLINT_CHECKER_HLO_TEXT_FAST_PATH_CHECKS_H_

#include <string_view>
#include <vector>

#include "checker/diag/location.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/fast_scan.h"
#include "checker/hlo/text/hlo_lexer.h"

namespace topolint::hlo {

// Equalities for the checks (positions included).
bool SameShape(const Shape& a, const Shape& b);
bool SamePositions(const std::vector<TextPos>& a,
                   const std::vector<TextPos>& b);
// Two explicit lists: ids, groups, the '{' of each group and every id's
// position, in one pass.
bool SameExplicitGroups(const ReplicaGroups& a, const ReplicaGroups& b);

// `fast`, read from `text` by `fast_path`, against ParseShapeTextExact.
void CheckShapeText(std::string_view fast_path, std::string_view text,
                    const Shape& fast);

// After HloLexer::TrySkipLine skipped from `mark` (its piece starting with
// `(operands)` when `from_operands`) to the cursor: the exact scanners
// (SkipGroup / SkipValue and the attribute loop's ',') stop at the same
// byte, blanks aside; and when `with_sharding`, the '{' the block scanner
// reported after `sharding=` (`sharding_keys`, pointers into the line at
// `mark`) span every top-level `sharding=` + '{' of the line. The cursor is
// left where the fast path put it; `mark` is released.
void CheckSkippedLine(HloLexer& lx, const HloLexer::Mark& mark,
                      bool from_operands, bool with_sharding,
                      const ShardingBraces& sharding_keys);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_FAST_PATH_CHECKS_H_
