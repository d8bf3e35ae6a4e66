// `topolint rules [RULE_ID]`.
#include <cstdio>
#include <string>

#include "checker/cli/commands.h"
#include "checker/core/rule_docs.h"
#include "fmt/format.h"
#include "rules/registry.h"

namespace topolint::cli {

int RunRules(const Options& options) {
  if (options.rule_id.empty()) {
    for (const RuleInfo& r : AllRules()) {
      std::fputs(fmt::format("{:<32} {:<8} {}\n", r.id,
                             SeverityName(r.default_severity), r.summary)
                     .c_str(),
                 stdout);
    }
    return kExitClean;
  }
  const RuleInfo* rule = FindRule(options.rule_id);
  if (rule == nullptr) {
    std::fputs(fmt::format("topolint: error: unknown rule '{}' (see "
                           "`topolint rules`)\n",
                           options.rule_id)
                   .c_str(),
               stderr);
    return kExitUsage;
  }
  std::string_view doc = RuleDoc(rule->id);
  if (doc.empty()) {
    std::fputs(fmt::format("{} ({}): {}\n", rule->id,
                           SeverityName(rule->default_severity), rule->summary)
                   .c_str(),
               stdout);
  } else {
    std::fwrite(doc.data(), 1, doc.size(), stdout);
  }
  return kExitClean;
}

}  // namespace topolint::cli
