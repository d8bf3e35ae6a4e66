// Did-you-mean: the one edit distance of the project, and the nearest of a
// list of names to what the user typed. Every "did you mean" (flags,
// commands, rule ids and globs, .topolint.json and neuron_config keys,
// suppression comments) goes through here.
#ifndef TOPOLINT_CHECKER_DIAG_SPELLING_H_
#define TOPOLINT_CHECKER_DIAG_SPELLING_H_

#include <string>
#include <string_view>

#include "absl/types/span.h"

namespace topolint {

// Optimal-string-alignment edit distance between `a` and `b` (insertions,
// deletions, substitutions and adjacent transpositions, each one edit),
// giving up (returning `limit + 1`) once it exceeds `limit`. Cost is
// O(|a| * |b|) and bounded by the caller's strings.
int EditDistance(std::string_view a, std::string_view b, int limit);

// How many edits a name of `length` characters may be from what was meant
// and still be a plausible typo: a third of it, at least 1, at most 2
// (`--formt` is `--format`; `xy` is nobody's typo of `lnc`).
int TypoLimit(size_t length);

// The candidate nearest to `typed`, at most `limit` edits away; ties go to
// the alphabetically first. "" when none is that close (or `typed` is over
// 256 characters: nothing worth comparing).
std::string NearestSpelling(std::string_view typed,
                            absl::Span<const std::string_view> candidates,
                            int limit);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_SPELLING_H_
