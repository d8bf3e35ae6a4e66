#include "checker/hlo/suppression_directive.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"

namespace topolint::hlo {

SuppressionDirective ParseSuppressionDirective(std::string_view text) {
  SuppressionDirective d;
  absl::string_view rest = absl::StripLeadingAsciiWhitespace(
      absl::string_view(text.data(), text.size()));
  if (absl::ConsumePrefix(&rest, "disable-next-line=")) {
    d.next_line = true;
  } else if (!absl::ConsumePrefix(&rest, "disable=")) {
    d.error =
        "malformed topolint directive: expected 'disable=RULE[,RULE]' "
        "or 'disable-next-line=RULE[,RULE]' after 'topolint:'";
    return d;
  }
  std::string list;
  for (absl::string_view word :
       absl::StrSplit(rest, absl::ByAnyChar(" \t\r"), absl::SkipEmpty())) {
    if (!list.empty() && list.back() != ',' && word.front() != ',') break;
    list.append(word.data(), word.size());
  }
  for (absl::string_view rule : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    d.rules.emplace_back(rule);
  }
  if (d.rules.empty()) {
    d.error =
        "topolint directive names no rule: expected "
        "'disable=RULE[,RULE]' or 'disable-next-line=RULE[,RULE]'";
  }
  return d;
}

}  // namespace topolint::hlo
