#include "rules/registry.h"

#include <iterator>

#include "rules/collective_checks.h"
#include "rules/families.h"

namespace topolint {
namespace {

// The severity letters of the rule table.
constexpr Severity E = Severity::kError;
constexpr Severity W = Severity::kWarning;
constexpr Severity N = Severity::kNote;

// The rule table of rules/rule_ids.h, one RuleInfo per row.
#define TOPOLINT_RULE_INFO_(name, text, severity, family, summary) \
  RuleInfo{name, severity, summary, family},
constexpr RuleInfo kRules[] = {TOPOLINT_RULE_TABLE(TOPOLINT_RULE_INFO_)};
#undef TOPOLINT_RULE_INFO_

constexpr CheckFamily kFamilies[] = {
    {"syntax", &CheckSyntax, nullptr},
    {"neff", &CheckNeff, nullptr},
    {"neff-archive", &CheckNeffArchive, nullptr},
    {"lnc", &CheckLnc, &MakeLncChecks},
    {"hlo", &CheckHlo, &MakeHloChecks},
    {"xref", &CheckXref, &MakeXrefChecks},
    {"config", &CheckConfig, nullptr},
    {"config-xref", &CheckConfigXref, &MakeConfigXrefChecks},
    {"inputs", &CheckInputs, nullptr},
};

// The family of a rule reported outside rules/ (checker/core).
constexpr std::string_view kCoreFamily = "core";

// An id is lowercase words joined by single hyphens (docs/reference/rules.md).
constexpr bool IsWellFormedId(std::string_view id) {
  if (id.empty() || id.front() == '-' || id.back() == '-') return false;
  for (size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool lower = c >= 'a' && c <= 'z';
    const bool digit = c >= '0' && c <= '9';
    if (c == '-' && id[i - 1] == '-') return false;
    if (!lower && !digit && c != '-') return false;
  }
  return true;
}

constexpr bool IsFamily(std::string_view name) {
  if (name == kCoreFamily) return true;
  for (const CheckFamily& f : kFamilies) {
    if (f.name == name) return true;
  }
  return false;
}

// The table's ids are well formed and unique, and each names a family that
// exists; each family reports at least one rule. (The table and kAllRuleIds
// are expanded from the same rows of rules/rule_ids.h, so they agree.)
constexpr bool TableIsConsistent() {
  for (size_t i = 0; i < std::size(kRules); ++i) {
    if (!IsWellFormedId(kRules[i].id) || !IsFamily(kRules[i].family)) {
      return false;
    }
    for (size_t j = 0; j < i; ++j) {
      if (kRules[j].id == kRules[i].id) return false;
    }
  }
  for (const CheckFamily& f : kFamilies) {
    bool reports = false;
    for (const RuleInfo& r : kRules) reports |= r.family == f.name;
    if (!reports) return false;
  }
  return std::size(kRules) == std::size(kAllRuleIds);
}
static_assert(TableIsConsistent(),
              "the rule table of rules/rule_ids.h must hold well-formed, "
              "unique ids whose family is in kFamilies (or \"core\"), and "
              "every family must report a rule");

}  // namespace

absl::Span<const RuleInfo> AllRules() { return kRules; }

const RuleInfo* FindRule(std::string_view id) {
  for (const RuleInfo& r : kRules) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

absl::Span<const CheckFamily> AllCheckFamilies() { return kFamilies; }

bool FamilyEnabled(std::string_view family, const Emitter& emit) {
  for (size_t i = 0; i < std::size(kRules); ++i) {
    if (kRules[i].family == family && emit.Enabled(kAllRuleIds[i])) {
      return true;
    }
  }
  return false;
}

}  // namespace topolint
