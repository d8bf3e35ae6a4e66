#include "rules/emitter.h"

#include <utility>

namespace topolint {

Emitter::Emitter(std::function<bool(std::string_view)> enabled,
                 std::function<Severity(std::string_view)> severity)
    : enabled_(std::move(enabled)), severity_(std::move(severity)) {}

void Emitter::Report(RuleId rule, Location loc, std::string message,
                     std::vector<Note> notes, std::string anchor) {
  if (!enabled_(rule.str())) return;
  Finding f;
  f.rule = std::string(rule.str());
  f.severity = severity_(rule.str());
  f.message = std::move(message);
  f.loc = std::move(loc);
  f.notes = std::move(notes);
  f.anchor = std::move(anchor);
  findings_.push_back(std::move(f));
}

}  // namespace topolint
