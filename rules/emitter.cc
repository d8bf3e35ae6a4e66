#include "rules/emitter.h"

#include <utility>

#include "fmt/format.h"
#include "rules/registry.h"

namespace topolint {

Emitter::Emitter(std::function<bool(std::string_view)> enabled,
                 std::function<Severity(std::string_view)> severity)
    : enabled_(std::move(enabled)), severity_(std::move(severity)) {}

void Emitter::Report(RuleId rule, Location loc, std::string message,
                     std::vector<Note> notes, std::string anchor,
                     std::optional<Fix> fix) {
  Add(rule, std::move(loc), std::move(message), std::move(notes),
      std::move(anchor),
      fix.has_value() ? std::make_shared<const Fix>(*std::move(fix)) : nullptr);
}

void Emitter::ReportAtLevel(RuleId rule, Severity level, Location loc,
                            std::string message, std::string anchor) {
  Add(rule, std::move(loc), std::move(message), {}, std::move(anchor), nullptr,
      &level);
}

void Emitter::Add(RuleId rule, Location loc, std::string message,
                  std::vector<Note> notes, std::string anchor,
                  std::shared_ptr<const Fix> fix, const Severity* level) {
  if (!enabled_(rule.str())) return;
  Finding f;
  f.rule = std::string(rule.str());
  f.severity = severity_(rule.str());
  if (level != nullptr) {
    const RuleInfo* info = FindRule(rule.str());
    const bool set =
        severity_set_ ? severity_set_(rule.str())
                      : info != nullptr && f.severity != info->default_severity;
    if (!set) f.severity = *level;
  }
  f.message = std::move(message);
  f.loc = std::move(loc);
  f.notes = std::move(notes);
  f.anchor = std::move(anchor);
  f.fix = std::move(fix);
  Keep(std::move(f));
}

void Emitter::ReportBuilt(Finding f) {
  if (!enabled_(f.rule)) return;
  f.severity = severity_(f.rule);
  Keep(std::move(f));
}

void Emitter::Keep(Finding f) {
  if (silenced_ && silenced_(f)) return;
  auto it = counts_.find(f.rule);
  if (it == counts_.end()) it = counts_.emplace(f.rule, RuleCount{}).first;
  RuleCount& count = it->second;
  if (max_findings_ > 0 && count.reported >= max_findings_) {
    if (count.dropped++ == 0) {
      count.first_dropped = std::move(f.loc);
      count.severity = f.severity;
    }
    return;
  }
  ++count.reported;
  findings_.push_back(std::move(f));
}

void Emitter::AddCapNotes() {
  for (auto& [rule, count] : counts_) {
    if (count.dropped == 0) continue;
    Finding f;
    f.rule = rule;
    f.severity = Severity::kNote;
    f.message = fmt::format(
        "{} more {} finding{} in this unit not shown (at most {} per rule "
        "and unit; --max-findings 0 shows all)",
        count.dropped, rule, count.dropped == 1 ? "" : "s", max_findings_);
    f.loc = count.first_dropped;
    f.hidden = count.dropped;
    f.hidden_severity = count.severity;
    f.anchor = "topolint-findings-cap";
    findings_.push_back(std::move(f));
    count.dropped = 0;
  }
}

}  // namespace topolint
