// Baselines: a recorded set of accepted findings (`--write-baseline`) that
// later runs ignore (`--baseline`), so a project can adopt topolint without
// first fixing every existing finding.
#ifndef TOPOLINT_CHECKER_DIAG_BASELINE_H_
#define TOPOLINT_CHECKER_DIAG_BASELINE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "checker/diag/finding.h"

namespace topolint {

struct SarifRoots;

// One accepted finding. Only `fingerprint` (see RootedFingerprint() in
// render.h: rule, file and anchor, never the line) is matched; rule, file and
// message are there for people reading or reviewing the baseline file.
struct BaselineEntry {
  std::string rule;
  std::string file;
  std::string fingerprint;
  std::string message;
};

// What a loaded baseline keeps: only the fingerprints (with how often each
// was recorded), so that memory grows with the fingerprints, not with the
// messages of the file.
struct Baseline {
  absl::flat_hash_map<std::string, int64_t> counts;
  int64_t size = 0;  // entries read
};

// Nesting of arrays and objects a baseline may have (its own structure
// needs 3); deeper input is refused before anything recursive runs.
inline constexpr int kMaxBaselineDepth = 64;

// The result of ApplyBaseline.
struct BaselineResult {
  std::vector<Finding> kept;  // findings not in the baseline, in input order
  int64_t suppressed = 0;     // findings matched (and dropped)
  int64_t stale = 0;          // entries that matched no finding (fixed since)
};

// The baseline file for `findings`:
//   {"version": 1, "findings": [{"rule", "file", "fingerprint", "message"}]}
// Entries are sorted by file, rule, fingerprint and message, so that moving
// code around does not reorder the file. Ends with a newline.
std::string WriteBaseline(const std::vector<Finding>& findings);

// Writes a baseline file entry by entry, as findings come in report order
// (sorted by file; see docs/integration.md, "Report order and streaming"): the
// entries of one file are held until a finding of another file arrives, then
// sorted and written, so memory holds one file's entries (at most
// kMaxFindingsPerRule per rule and unit), not the run's. The bytes equal
// WriteBaseline's for the same findings when no file comes back after another
// one; a file that does (findings of a config shared by several units, reported
// with a later unit) gets a second group, which LoadBaseline reads the same.
// With `roots`, each entry's file and fingerprint are the root-relative
// ones every format prints (RootedFingerprint), so a baseline written from
// one directory applies from any other.
class BaselineWriter {
 public:
  explicit BaselineWriter(const SarifRoots* roots = nullptr) : roots_(roots) {}
  void Begin(std::string* out);
  void Add(const Finding& finding, std::string* out);
  void End(std::string* out);

 private:
  void Flush(std::string* out);

  const SarifRoots* roots_;
  std::vector<BaselineEntry> group_;  // entries of one file
  size_t written_ = 0;
};

// Parses a baseline file in one streaming pass (no document tree is built).
// On malformed input (not JSON, wrong version, wrong field types, missing
// fingerprint, nesting deeper than kMaxBaselineDepth) returns nullopt and
// sets `*error` to a one-line reason naming the offending field, e.g.
// "findings[2].fingerprint: expected a string". Never throws.
std::optional<Baseline> LoadBaseline(std::string_view text, std::string* error);

// LoadBaseline over the file at `path` as it is read, 64 KiB at a time: the
// text is never held, so memory grows with the distinct fingerprints only.
// Files and kinds are checked as ReadInputFile does (FIFOs and devices are
// refused); more than kMaxBaselineBytes is ResourceExhausted, malformed
// content InvalidArgument "PATH: <reason>".
absl::StatusOr<Baseline> ReadBaselineFile(const std::string& path);

// Drops the findings the baseline accepts. Matching is by fingerprint with
// multiset semantics: n entries with a fingerprint suppress at most n
// findings having it (the first n in input order), so a new copy of an
// accepted problem is still reported.
BaselineResult ApplyBaseline(std::vector<Finding> findings,
                             const Baseline& baseline,
                             const SarifRoots* roots = nullptr);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_BASELINE_H_
