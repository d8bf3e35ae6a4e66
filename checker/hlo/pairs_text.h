// The one reader of source-target pairs written inside a string: the value
// of the send/recv frontend attribute `_xla_send_recv_source_target_pairs`,
// `{{s,t},{s,t},...}`, which both front ends meet as a string (the text
// parser when it is quoted, the binary reader always). Integers, braces,
// commas, blanks, line breaks and comments.
#ifndef TOPOLINT_CHECKER_HLO_PAIRS_TEXT_H_
#define TOPOLINT_CHECKER_HLO_PAIRS_TEXT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/hlo/hlo_module.h"

namespace topolint::hlo {

// What is wrong, at which byte of the string.
struct PairsTextProblem {
  size_t offset = 0;
  std::string message;
};

// Appends the pairs of `text` (named `attr` in messages) to out->pairs and
// the offset of each pair's '{' in `text` to `pair_offsets`; at most
// kMaxExplicitIds ids in all.
std::optional<PairsTextProblem> ParsePairsText(
    std::string_view text, std::string_view attr, SourceTargetPairs* out,
    std::vector<size_t>* pair_offsets);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_PAIRS_TEXT_H_
