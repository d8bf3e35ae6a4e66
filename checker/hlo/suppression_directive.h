// The text after "topolint:" in a suppression comment, read alike by the
// HLO text and StableHLO front ends (each places the result and any error
// at its own comment).
#ifndef TOPOLINT_CHECKER_HLO_SUPPRESSION_DIRECTIVE_H_
#define TOPOLINT_CHECKER_HLO_SUPPRESSION_DIRECTIVE_H_

#include <string>
#include <string_view>
#include <vector>

namespace topolint::hlo {

struct SuppressionDirective {
  bool next_line = false;          // disable-next-line= (else disable=)
  std::vector<std::string> rules;  // ids or globs as written
  std::string error;               // non-empty: what was expected
};

// `text`: what follows "topolint:". The rule list ends at the first blank
// that does not follow a comma.
SuppressionDirective ParseSuppressionDirective(std::string_view text);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_SUPPRESSION_DIRECTIVE_H_
