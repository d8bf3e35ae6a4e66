#include "checker/cli/unchecked_summary.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "fmt/format.h"

namespace topolint::cli {

void UncheckedSummary::Add(const UnitSpec& spec) {
  for (const UncheckedInput& u : spec.unchecked) {
    ++counts_[static_cast<size_t>(u.kind)];
  }
}

std::string UncheckedSummary::Line() const {
  using Kind = UncheckedInput::Kind;
  const size_t in_progress = Count(Kind::kCacheInProgress);
  const size_t incomplete = Count(Kind::kCacheIncomplete);
  const size_t failed = Count(Kind::kCacheFailed);
  const size_t unpaired = Count(Kind::kUnpaired);
  const size_t unread = Count(Kind::kUnread);
  const size_t not_searched = Count(Kind::kNotSearched);
  std::vector<std::string> parts;
  const size_t entries = in_progress + incomplete + failed;
  if (entries > 0) {
    std::vector<std::string> states;
    if (in_progress > 0)
      states.push_back(fmt::format("{} in progress", in_progress));
    if (incomplete > 0)
      states.push_back(fmt::format("{} incomplete", incomplete));
    if (failed > 0) states.push_back(fmt::format("{} failed", failed));
    parts.push_back(fmt::format("{} compile-cache entr{} skipped ({})", entries,
                                entries == 1 ? "y" : "ies",
                                absl::StrJoin(states, ", ")));
  }
  if (unpaired > 0) {
    parts.push_back(fmt::format(
        "{} director{} whose modules and NEFFs could not be paired (cross-file "
        "rules not run)",
        unpaired, unpaired == 1 ? "y" : "ies"));
  }
  if (unread > 0) {
    parts.push_back(fmt::format("{} file{} of a known kind not read", unread,
                                unread == 1 ? "" : "s"));
  }
  if (not_searched > 0) {
    parts.push_back(
        fmt::format("{} director{} not searched (what is below "
                    "{} not checked)",
                    not_searched, not_searched == 1 ? "y" : "ies",
                    not_searched == 1 ? "it was" : "them was"));
  }
  if (parts.empty()) return "";
  return fmt::format("topolint: {}; see the unchecked-input findings or -v\n",
                     absl::StrJoin(parts, "; "));
}

}  // namespace topolint::cli
