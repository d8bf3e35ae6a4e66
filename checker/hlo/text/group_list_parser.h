// Parsers for the id-list attribute values of collectives: replica_groups
// in its three forms (explicit `{{0,1},{2,3}}`, iota `[G,S]<=[dims]T(perm)`,
// mesh `mesh['x'=2,'y'=2], device_ids=(...) {'x'}`), source_target_pairs,
// and plain integer lists. Iota and mesh values are validated here (product,
// permutation, axis names, sub-axes, limits) and reported as syntax errors
// at the offending part of the value. Internal to checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_GROUP_LIST_PARSER_H_
#define TOPOLINT_CHECKER_HLO_TEXT_GROUP_LIST_PARSER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "checker/diag/location.h"
#include "checker/hlo/group_checks.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/value_memo.h"

namespace topolint::hlo {

// The value of `replica_groups=`; the cursor is at its first byte. An
// explicit value is recalled from `memo` (ValueMemo::TryRecallGroups), else
// read by TryParsePlainGroups (and remembered), else by the exact group
// parser. `memo` may be null.
[[nodiscard]] bool ParseReplicaGroups(HloLexer& lx, ReplicaGroups* out,
                                      ValueMemo* memo);

// The common case of an explicit value, read straight from the window:
// `{{d,...},...}` with only digits, ',' and braces (no blanks, signs or line
// breaks), each id at most 18 digits, within kMaxExplicitIds. `*out` is
// reset, with its pos. False with nothing consumed (and out's lists empty)
// otherwise.
[[nodiscard]] bool TryParsePlainGroups(HloLexer& lx, ReplicaGroups* out);

// `[G,S]<=[d0,...]T(p0,...)`; the cursor is at '['.
// ParseIotaGroups (in fast_paths.h) resets *out and tries TryParseSimpleIota
// first.
[[nodiscard]] bool ParseIotaGroupsExact(HloLexer& lx, IotaSpec* out);

// `mesh[...]...{...}` after the word `mesh`; the cursor is at '['.
// `value_pos` is where the value starts (for whole-value errors).
[[nodiscard]] bool ParseMeshGroups(HloLexer& lx, TextPos value_pos,
                                   MeshSpec* out);

// One explicit replica group `{id,...}` (group `g` of the value, named in
// messages); the cursor is at '{'. Appends its ids (at most `max_count`) to
// the value's flat `ids` and where each was written to `layout`.
[[nodiscard]] bool ParseExplicitGroupExact(HloLexer& lx, size_t g,
                                           int64_t max_count,
                                           std::vector<int64_t>* ids,
                                           IdLayout* layout);
// A whole explicit value `{{id,...},...}`, group by group (each through
// ParseExplicitGroupExact); the cursor is at '{'.
// (ParseExplicitReplicaGroups in fast_paths.h tries TryRecallGroups and
// TryParsePlainGroups on the whole value first.)
[[nodiscard]] bool ParseExplicitGroups(HloLexer& lx, ReplicaGroups* out);

// `{{s,t},...}` for `attr` (named in messages); the cursor is at '{'.
// *out is already reset, present, with its pos. ParseSourceTargetPairs (in
// fast_paths.h) tries TryParseSimplePairs first.
[[nodiscard]] bool ParseSourceTargetPairsExact(HloLexer& lx,
                                               std::string_view attr,
                                               SourceTargetPairs* out);

// `open int (',' int)* close` (possibly empty); the cursor is at `open`.
// `what` names the list in messages ("the iota reshape dims"). `positions`
// may be null. At most `max_count` values.
[[nodiscard]] bool ParseIntList(HloLexer& lx, char open, char close,
                                std::string_view what,
                                std::vector<int64_t>* values,
                                std::vector<TextPos>* positions,
                                int64_t max_count = kMaxExplicitIds);
// The same, with the name built only when a message needs it (lists parsed
// once per replica group must not format a name for every group).
[[nodiscard]] bool ParseIntList(HloLexer& lx, char open, char close,
                                absl::FunctionRef<std::string()> what,
                                std::vector<int64_t>* values,
                                std::vector<TextPos>* positions,
                                int64_t max_count = kMaxExplicitIds);

// For the fast paths that read straight from a window (whose NUL sentinel
// ends every run): the plain decimal of at most 18 digits at `p` (so that it
// fits in int64 with room to spare) into *value; returns past it, or nullptr
// when there is none or it is longer (the exact parser then decides).
[[nodiscard]] const char* ReadPlainDecimal(const char* p, int64_t* value);

// `{{...},{...}}`: counts the inner lists (slice_sizes).
[[nodiscard]] bool CountInnerLists(HloLexer& lx, std::string_view what,
                                   int64_t* count);

// CheckPermutation (group_checks.h) of `perm`; on failure records its
// error at `perm_pos` or at the offending entry.
[[nodiscard]] bool CheckPermutationAt(HloLexer& lx, std::string_view what,
                                      const std::vector<int64_t>& perm,
                                      const std::vector<TextPos>& entry_pos,
                                      TextPos perm_pos, size_t rank);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_GROUP_LIST_PARSER_H_
