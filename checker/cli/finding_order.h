// Puts the findings of units, handed over one unit at a time, into report
// order without holding the run's findings: sorted (FindingLess) and with
// the repeats of a config that several units check dropped, as if every
// finding had been sorted at once, except as said at FindingOrder.
#ifndef TOPOLINT_CHECKER_CLI_FINDING_ORDER_H_
#define TOPOLINT_CHECKER_CLI_FINDING_ORDER_H_

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "checker/cli/unit_jobs.h"
#include "checker/diag/finding.h"

namespace topolint::cli {

// Findings held back at most (~0.5 KiB each); past it the smallest are
// released even though a later unit might still sort before them.
inline constexpr size_t kMaxHeldFindings = 20000;

// Units are checked in the order of their keys: a unit's key is the
// smallest of its files that no other unit checks (else its smallest file).
// A unit reports findings only in its own files (and .neff members named
// after them, which sort after the archive), so once the units up to k are
// in, every held finding whose file sorts before unit k+1's key is final
// and is released. What stays held is what later units may still precede:
// normally a few units' findings.
//
// The exceptions, both documented in docs/integration.md, "Report order and
// streaming":
//  - A file that several units check (a component config inherited from a
//    parent directory): its findings are released with the first unit that
//    reports them; one that only a later unit reports (not a repeat) comes
//    with that unit, after findings that sort after it. Repeats (same rule,
//    place, message, severity and notes) are dropped at any distance, so
//    every finding in such a file is remembered (one string each; bounded
//    by the findings of the shared files, not of the run).
//  - More than kMaxHeldFindings held: the smallest are released early.
//
// Not thread-safe: the writer thread owns it.
class FindingOrder {
 public:
  // For units handed over by a stream (unit_sources.h), which gives each
  // unit's key, the files it shares with other units and its files not
  // counted before (AddShared, CountFiles).
  FindingOrder() = default;

  // `files` are listed by several units: repeats of their findings are
  // dropped. Call before the findings of a unit listing them are added.
  void AddShared(const std::vector<std::string>& files);
  void CountFiles(size_t n) { file_count_ += n; }

  // The next unit is done: `findings` are its findings, sorted, and
  // `frontier` the key of the unit after it (nullopt: none). Appends to
  // `*ready` the findings now final, in report order, repeats dropped.
  void Add(std::vector<Finding> findings,
           const std::optional<std::string>& frontier,
           std::vector<Finding>* ready);

  // No more units: appends everything still held.
  void Finish(std::vector<Finding>* ready);

  // Distinct files the units list, each once (a config inherited by many
  // units counts once): the summary's "N files checked" (CountFiles).
  size_t file_count() const { return file_count_; }

 private:
  void Release(size_t count, std::vector<Finding>* ready);

  size_t file_count_ = 0;
  std::set<std::string> shared_files_;
  std::vector<Finding> held_;  // sorted
  std::optional<Finding> last_;
  absl::flat_hash_set<std::string> released_shared_;
};

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_FINDING_ORDER_H_
