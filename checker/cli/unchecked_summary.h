// The one line of counts a check writes on stderr for what discovery left
// out (compile-cache entries skipped, modules and NEFFs not paired, files of
// a known kind not read, directories not searched). The detail is in the
// unchecked-input findings, which every output format carries, and in
// --verbose's list; a cache of 20,000 entries gets one line, not one per entry.
#ifndef TOPOLINT_CHECKER_CLI_UNCHECKED_SUMMARY_H_
#define TOPOLINT_CHECKER_CLI_UNCHECKED_SUMMARY_H_

#include <array>
#include <cstddef>
#include <string>

#include "checker/core/discovery.h"

namespace topolint::cli {

// Not thread-safe.
class UncheckedSummary {
 public:
  // Counts the unchecked-input records of one unit.
  void Add(const UnitSpec& spec);

  // "topolint: 3 compile-cache entries skipped (1 in progress, 1
  // incomplete, 1 failed); see the unchecked-input findings or -v\n", or ""
  // when nothing was left out.
  std::string Line() const;

 private:
  size_t Count(UncheckedInput::Kind kind) const {
    return counts_[static_cast<size_t>(kind)];
  }

  // By UncheckedInput::Kind (kNotSearched is the last).
  std::array<size_t,
             static_cast<size_t>(UncheckedInput::Kind::kNotSearched) + 1>
      counts_{};
};

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_UNCHECKED_SUMMARY_H_
