// Family "inputs": the inputs, and the checks, that discovery left out
// (Unit::unchecked), reported so that every output format shows them
// (docs/rules/unchecked-input.md).
#include "rules/families.h"
#include "rules/rule_ids.h"

namespace topolint {
namespace {

// How an unchecked input is reported. A cache entry in one of the cache's
// normal states (still compiling, or not finished) is a note; a dropped
// check the user expects (a failed compilation, cross-file rules that could
// not pair the files, a file of a known kind that is not read, a directory
// the search could not enter) is a warning. The anchor, the finding's
// identity for baselines, is the kind of skip, so that an entry that goes
// from "in progress" to "failed" is a new finding, while the names a message
// lists may change.
struct Reporting {
  Severity level;
  const char* anchor;
};

Reporting ReportingOf(UncheckedInput::Kind kind) {
  switch (kind) {
    case UncheckedInput::Kind::kCacheInProgress:
      return {Severity::kNote, "cache-entry-in-progress"};
    case UncheckedInput::Kind::kCacheIncomplete:
      return {Severity::kNote, "cache-entry-incomplete"};
    case UncheckedInput::Kind::kCacheFailed:
      return {Severity::kWarning, "cache-entry-failed"};
    case UncheckedInput::Kind::kUnpaired:
      return {Severity::kWarning, "unpaired-modules"};
    case UncheckedInput::Kind::kNotSearched:
      return {Severity::kWarning, "not-searched"};
    case UncheckedInput::Kind::kUnread:
      break;
  }
  return {Severity::kWarning, "unread-file"};
}

}  // namespace

// new-rule.sh(inputs) stub: a rule scaffolded by scripts/new-rule.sh,
// called first by CheckInputs:
//   namespace {
//   void Check@Rule@(const Unit& unit, Emitter& emit);
//   }  // namespace

void CheckInputs(const Unit& unit, const CheckOptions& /*options*/,
                 Emitter& emit) {
  // new-rule.sh(inputs): Check@Rule@(unit, emit);
  for (const UncheckedInput& u : unit.unchecked) {
    const Reporting r = ReportingOf(u.kind);
    emit.ReportAtLevel(kUncheckedInput, r.level, Location(u.path), u.message,
                       r.anchor);
  }
  // Parts of a module the reader could not check (a Shardy op it does not
  // follow, a stack-frame table past its bound): a dropped check, a
  // warning, at the place in the module.
  for (const hlo::Module& m : unit.hlo_modules) {
    for (const hlo::UncheckedPart& u : m.unchecked) {
      emit.ReportAtLevel(kUncheckedInput, Severity::kWarning, At(m.file, u.pos),
                         u.message, u.anchor);
    }
  }
}

}  // namespace topolint
