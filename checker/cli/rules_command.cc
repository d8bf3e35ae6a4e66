// `topolint rules [RULE_ID] [--format text|json]`.
#include <cstdio>
#include <string>

#include "checker/cli/commands.h"
#include "checker/core/rule_docs.h"
#include "checker/core/rule_selection.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "rules/registry.h"

namespace topolint::cli {
namespace {

using Json = nlohmann::ordered_json;

// {id, severity, summary, docs} of one rule; with its documentation page
// (Markdown) when `with_doc`.
Json RuleJson(const RuleInfo& r, bool with_doc) {
  Json out;
  out["id"] = std::string(r.id);
  out["severity"] = SeverityName(r.default_severity);
  out["summary"] = std::string(r.summary);
  out["docs"] = fmt::format("docs/rules/{}.md", r.id);
  if (with_doc) out["documentation"] = std::string(RuleDoc(r.id));
  return out;
}

void Print(const std::string& text) { std::fputs(text.c_str(), stdout); }

}  // namespace

int RunRules(const Options& options) {
  if (options.format != Format::kText && options.format != Format::kJson) {
    std::fputs("topolint: error: rules writes --format text or json\n", stderr);
    return kExitUsage;
  }
  const bool json = options.format == Format::kJson;
  if (options.rule_id.empty()) {
    Json list = Json::array();
    for (const RuleInfo& r : AllRules()) {
      if (json) {
        list.push_back(RuleJson(r, /*with_doc=*/false));
      } else {
        Print(fmt::format("{:<32} {:<8} {}\n", r.id,
                          SeverityName(r.default_severity), r.summary));
      }
    }
    if (json) Print(list.dump(2) + "\n");
    return kExitClean;
  }
  const RuleInfo* rule = FindRule(options.rule_id);
  if (rule == nullptr) {
    std::fputs(fmt::format("topolint: error: unknown rule '{}'{} (see "
                           "`topolint rules`)\n",
                           options.rule_id, SuggestRule(options.rule_id))
                   .c_str(),
               stderr);
    return kExitUsage;
  }
  if (json) {
    Print(RuleJson(*rule, /*with_doc=*/true).dump(2) + "\n");
    return kExitClean;
  }
  std::string_view doc = RuleDoc(rule->id);
  if (doc.empty()) {
    Print(fmt::format("{} ({}): {}\n", rule->id,
                      SeverityName(rule->default_severity), rule->summary));
  } else {
    std::fwrite(doc.data(), 1, doc.size(), stdout);
  }
  return kExitClean;
}

}  // namespace topolint::cli
