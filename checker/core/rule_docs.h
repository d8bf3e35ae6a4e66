// The docs pages of docs/rules/, embedded at build time.
#ifndef TOPOLINT_CHECKER_CORE_RULE_DOCS_H_
#define TOPOLINT_CHECKER_CORE_RULE_DOCS_H_

#include <string>
#include <string_view>

namespace topolint {

// The Markdown of docs/rules/<id>.md, or empty when there is no page.
std::string_view RuleDoc(std::string_view id);

// The text of one `## <heading>` section of a rule's page (trimmed), or "".
std::string RuleDocSection(std::string_view id, std::string_view heading);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_RULE_DOCS_H_
