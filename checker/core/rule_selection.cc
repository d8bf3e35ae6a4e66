#include "checker/core/rule_selection.h"

#include <fnmatch.h>

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "checker/core/path_glob.h"
#include "checker/diag/spelling.h"
#include "checker/io/repo_paths.h"
#include "fmt/format.h"
#include "rules/registry.h"

namespace topolint {

bool GlobMatch(std::string_view glob, std::string_view text) {
  return fnmatch(std::string(glob).c_str(), std::string(text).c_str(), 0) == 0;
}

std::string SuggestRule(std::string_view typed) {
  std::vector<std::string_view> ids;
  for (const RuleInfo& r : AllRules()) ids.push_back(r.id);
  // Rule ids are long and hyphenated: a third of what was typed, at least 2.
  const int limit = static_cast<int>(std::max<size_t>(2, typed.size() / 3));
  const std::string best = NearestSpelling(typed, ids, limit);
  return best.empty() ? "" : fmt::format("; did you mean '{}'?", best);
}

bool GlobMatchesAnyRule(std::string_view glob) {
  for (const RuleInfo& r : AllRules()) {
    if (GlobMatch(glob, r.id)) return true;
  }
  return false;
}

absl::Status RuleSelection::ApplyGlobs(std::string_view globs) {
  for (absl::string_view raw :
       absl::StrSplit(absl::string_view(globs.data(), globs.size()), ',')) {
    absl::string_view entry = absl::StripAsciiWhitespace(raw);
    if (entry.empty()) continue;  // tolerate trailing commas
    bool enable = true;
    if (absl::ConsumePrefix(&entry, "-")) enable = false;
    if (entry.empty()) {
      return absl::InvalidArgumentError("empty rule glob after '-'");
    }
    if (!GlobMatchesAnyRule(std::string_view(entry.data(), entry.size()))) {
      return absl::InvalidArgumentError(fmt::format(
          "rule glob '{}' matches no rule{} (see `topolint "
          "rules`)",
          std::string(entry),
          SuggestRule(std::string_view(entry.data(), entry.size()))));
    }
    globs_.emplace_back(std::string(entry), enable);
  }
  return absl::OkStatus();
}

absl::Status RuleSelection::SetSeverity(std::string_view rule,
                                        std::string_view level) {
  if (FindRule(rule) == nullptr) {
    return absl::InvalidArgumentError(fmt::format(
        "unknown rule '{}' in severity overrides{}", rule, SuggestRule(rule)));
  }
  Severity s{};
  if (level != "off" && !ParseSeverity(level, &s)) {
    return absl::InvalidArgumentError(fmt::format(
        "severity of '{}' is '{}'; expected error, warning, note or off", rule,
        level));
  }
  severity_[std::string(rule)] =
      level == "off" ? std::nullopt : std::optional<Severity>(s);
  return absl::OkStatus();
}

bool RuleSelection::Enabled(std::string_view rule) const {
  bool on = true;
  for (const auto& [glob, enable] : globs_) {
    if (GlobMatch(glob, rule)) on = enable;
  }
  if (!on) return false;
  auto it = severity_.find(rule);
  return it == severity_.end() || it->second.has_value();
}

Severity RuleSelection::EffectiveSeverity(std::string_view rule) const {
  auto it = severity_.find(rule);
  if (it != severity_.end() && it->second) return *it->second;
  const RuleInfo* info = FindRule(rule);
  return info ? info->default_severity : Severity::kError;
}

bool RuleSelection::SeveritySet(std::string_view rule) const {
  auto it = severity_.find(rule);
  return it != severity_.end() && it->second.has_value();
}

void RuleSelection::AddFileIgnore(std::string file_glob,
                                  std::vector<std::string> rules) {
  ignores_.emplace_back(std::move(file_glob), std::move(rules));
}

bool RuleSelection::IgnoredInFile(std::string_view rule,
                                  std::string_view file) const {
  if (ignores_.empty()) return false;
  const std::string_view base = BaseName(file);
  // A NEFF member ("x.neff:sg00/def.json") also matches through the archive
  // (a directory named "run.neff:1" is no archive: SplitNeffMember).
  std::string_view archive = file;
  SplitNeffMember(file, &archive, nullptr);
  // A glob is written relative to wherever the user thinks of the tree
  // from, so it may match any trailing part of the path ("legacy/*"
  // matches "/abs/proj/legacy/x.hlo"). In a path glob `*` stops at '/',
  // and a `**` component spans directories (path_glob.h).
  auto matches_path = [](const std::string& glob, std::string_view path) {
    if (GlobPathMatch(glob, path)) return true;
    for (size_t i = path.find('/'); i != std::string_view::npos;
         i = path.find('/', i + 1)) {
      if (GlobPathMatch(glob, path.substr(i + 1))) return true;
    }
    return false;
  };
  for (const auto& [glob, rules] : ignores_) {
    if (!matches_path(glob, file) && !GlobPathMatch(glob, base) &&
        !matches_path(glob, archive)) {
      continue;
    }
    for (const std::string& r : rules) {
      if (GlobMatch(r, rule)) return true;
    }
  }
  return false;
}

}  // namespace topolint
