#include "checker/core/suppression.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "rules/registry.h"

namespace topolint {
namespace {

bool Matches(const hlo::Suppression& s, const Finding& f) {
  if (f.rule == kUnusedSuppression.str()) return false;
  for (const std::string& glob : s.rules) {
    if (glob == "all" || GlobMatch(glob, f.rule)) return true;
  }
  return false;
}

// The fix of an unused suppression: removing the comment, when that is
// certain: every rule it names is known and selected (a comment naming a
// rule that --rules turned off may well be in use), and the module parsed
// without errors (a collective lost to a syntax error reports nothing).
// The edit carries the comment's byte offset and its whole text, which the
// engine finds there or refuses the fix; a comment the lexer did not keep
// whole (longer than it keeps) gets no fix.
std::shared_ptr<const Fix> RemovalFix(const hlo::Module& m,
                                      const hlo::Suppression& s,
                                      const RuleSelection& selection) {
  if (m.is_binary() || !m.syntax_errors.empty() || !s.pos.known() ||
      s.pos.is_byte() || s.offset < 0 || s.comment.empty()) {
    return nullptr;
  }
  for (const std::string& glob : s.rules) {
    bool any = false;
    for (const RuleInfo& r : AllRules()) {
      if (glob != "all" && !GlobMatch(glob, r.id)) continue;
      any = true;
      if (!selection.Enabled(r.id)) return nullptr;
    }
    if (!any) return nullptr;
  }
  Fix fix;
  fix.title = "remove the unused suppression comment";
  TextEdit e;
  e.kind = TextEdit::Kind::kRemoveLineComment;
  e.file = m.file;
  e.line = s.pos.line;
  e.column = s.pos.column;
  e.offset = s.offset;
  e.original = s.comment;
  fix.edits.push_back(std::move(e));
  return std::make_shared<const Fix>(std::move(fix));
}

std::tuple<std::string, int64_t, int64_t> KeyOf(const hlo::Module& m,
                                                const hlo::Suppression& s) {
  return {m.file, s.pos.line, s.pos.column};
}

}  // namespace

bool SuppressionIndex::Silences(const hlo::Module& module,
                                const Finding& finding,
                                UsedSuppressions* used) {
  if (finding.loc.file != module.file || finding.loc.line <= 0 ||
      module.suppressions.empty()) {
    return false;
  }
  Entry& e = by_file_[module.file];
  if (e.module != &module || e.indexed > module.suppressions.size()) {
    // Another module (or this one, moved) under the name: index it afresh.
    e = Entry{};
    e.module = &module;
  }
  for (; e.indexed < module.suppressions.size(); ++e.indexed) {
    e.by_line[module.suppressions[e.indexed].target_line].push_back(e.indexed);
  }
  auto it = e.by_line.find(finding.loc.line);
  if (it == e.by_line.end()) return false;
  for (size_t i : it->second) {
    const hlo::Suppression& s = module.suppressions[i];
    if (!Matches(s, finding)) continue;
    used->insert(KeyOf(module, s));
    return true;
  }
  return false;
}

void ApplySuppressions(const Unit& unit, const RuleSelection& selection,
                       std::vector<Finding>* findings, UsedSuppressions* used,
                       Emitter* emit) {
  for (const hlo::Module& m : unit.hlo_modules) {
    for (const hlo::Suppression& s : m.suppressions) {
      bool used_here = used->count(KeyOf(m, s)) > 0;
      auto silenced = [&](const Finding& f) {
        if (f.loc.file != m.file || f.loc.line != s.target_line) return false;
        if (!Matches(s, f)) return false;
        used_here = true;
        return true;
      };
      findings->erase(
          std::remove_if(findings->begin(), findings->end(), silenced),
          findings->end());
      if (used_here || !selection.Enabled(kUnusedSuppression)) continue;
      std::vector<std::string> unknown;
      for (const std::string& glob : s.rules) {
        if (glob == "all" || GlobMatchesAnyRule(glob)) continue;
        // "hlo-sytax (did you mean 'hlo-syntax'?)".
        const std::string hint = SuggestRule(glob);
        unknown.push_back(
            hint.empty() ? glob : fmt::format("{} ({})", glob, hint.substr(2)));
      }
      Finding f;
      f.rule = std::string(kUnusedSuppression.str());
      f.severity = selection.EffectiveSeverity(f.rule);
      f.loc = At(m.file, s.pos);
      f.anchor = "suppression:" + absl::StrJoin(s.rules, ",");
      f.fix = RemovalFix(m, s, selection);
      if (!unknown.empty()) {
        f.message = fmt::format(
            "suppression names no known rule ({}); see `topolint rules`",
            absl::StrJoin(unknown, ", "));
      } else {
        f.message = fmt::format(
            "suppression of {} silences nothing on line {}; remove it",
            absl::StrJoin(s.rules, ", "), s.target_line);
      }
      emit->ReportBuilt(std::move(f));
    }
  }
}

}  // namespace topolint
