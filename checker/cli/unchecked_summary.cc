#include "checker/cli/unchecked_summary.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "fmt/format.h"

namespace topolint::cli {

void UncheckedSummary::Add(const UnitSpec& spec) {
  for (const UncheckedInput& u : spec.unchecked) {
    switch (u.kind) {
      case UncheckedInput::Kind::kCacheInProgress:
        ++in_progress_;
        break;
      case UncheckedInput::Kind::kCacheIncomplete:
        ++incomplete_;
        break;
      case UncheckedInput::Kind::kCacheFailed:
        ++failed_;
        break;
      case UncheckedInput::Kind::kUnpaired:
        ++unpaired_;
        break;
      case UncheckedInput::Kind::kUnread:
        ++unread_;
        break;
      case UncheckedInput::Kind::kNotSearched:
        ++not_searched_;
        break;
    }
  }
}

std::string UncheckedSummary::Line() const {
  std::vector<std::string> parts;
  const size_t entries = in_progress_ + incomplete_ + failed_;
  if (entries > 0) {
    std::vector<std::string> states;
    if (in_progress_ > 0)
      states.push_back(fmt::format("{} in progress", in_progress_));
    if (incomplete_ > 0)
      states.push_back(fmt::format("{} incomplete", incomplete_));
    if (failed_ > 0) states.push_back(fmt::format("{} failed", failed_));
    parts.push_back(fmt::format("{} compile-cache entr{} skipped ({})", entries,
                                entries == 1 ? "y" : "ies",
                                absl::StrJoin(states, ", ")));
  }
  if (unpaired_ > 0) {
    parts.push_back(fmt::format(
        "{} director{} whose modules and NEFFs could not be paired (cross-file "
        "rules not run)",
        unpaired_, unpaired_ == 1 ? "y" : "ies"));
  }
  if (unread_ > 0) {
    parts.push_back(fmt::format("{} file{} of a known kind not read", unread_,
                                unread_ == 1 ? "" : "s"));
  }
  if (not_searched_ > 0) {
    parts.push_back(
        fmt::format("{} director{} not searched (what is below "
                    "{} not checked)",
                    not_searched_, not_searched_ == 1 ? "y" : "ies",
                    not_searched_ == 1 ? "it was" : "them was"));
  }
  if (parts.empty()) return "";
  return fmt::format("topolint: {}; see the unchecked-input findings or -v\n",
                     absl::StrJoin(parts, "; "));
}

}  // namespace topolint::cli
