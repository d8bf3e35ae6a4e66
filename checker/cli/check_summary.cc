#include "checker/cli/check_summary.h"

#include <cstring>
#include <vector>

#include "absl/strings/str_join.h"
#include "checker/cli/commands.h"
#include "checker/core/worker_thread.h"
#include "fmt/format.h"

namespace topolint::cli {
std::string Plural(size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

namespace {

// The summary's line on fixes: how many findings `--fix` would fix
// (`--diff` shows the edits), and how many more with `--fix-from hlo`.
std::string FixableLine(size_t fixable, size_t from_hlo) {
  std::vector<std::string> parts;
  if (fixable > 0) {
    parts.push_back(
        fmt::format("{} fixable with --fix (--diff shows the edits)", fixable));
  }
  if (from_hlo > 0) {
    parts.push_back(fmt::format("{} {} with --fix --fix-from hlo", from_hlo,
                                fixable > 0 ? "more" : "fixable"));
  }
  return "topolint: " + absl::StrJoin(parts, "; ") + "\n";
}

// The counts line: "no findings (...)", or errors, warnings and notes.
void PrintCounts(const CheckSummary& s, bool hint_fixes) {
  const std::string files =
      fmt::format("{} checked, {} skipped", Plural(s.files, "file"), s.skipped);
  // (A run of skipped compile-cache entries alone has findings.)
  if (s.units == 0 && s.total() == 0) {
    Err(fmt::format(
        "topolint: warning: no HLO, def.json, .neff or component config "
        "files found ({})\n",
        files));
    return;
  }
  if (s.total() == 0) {
    Err(fmt::format("topolint: no findings ({}, {})\n", Plural(s.units, "unit"),
                    files));
    return;
  }
  std::string capped;
  if (s.hidden > 0) {
    capped = fmt::format(
        "; {} of {} shown: the rest is over the per-rule cap "
        "(--max-findings 0 shows all)",
        s.total() - s.hidden, s.total());
  }
  Err(fmt::format("topolint: {}, {}, {} ({}, {}){}\n",
                  Plural(s.errors, "error"), Plural(s.warnings, "warning"),
                  Plural(s.notes, "note"), Plural(s.units, "unit"), files,
                  capped));
  if (hint_fixes && (s.fixable > 0 || s.fixable_from_hlo > 0)) {
    Err(FixableLine(s.fixable, s.fixable_from_hlo));
  }
}

}  // namespace

void PrintCheckSummary(const Options& options, const CheckSummary& s,
                       bool hint_fixes) {
  if (!s.ended) return;
  if (options.statistics) {
    for (const auto& [rule, n] : s.per_rule) {
      Err(fmt::format("{:>6}  {}\n", n, rule));
    }
  }
  if (options.quiet) return;
  // The results are the same; only the time would say that -j was not
  // what it asked for.
  if (const WorkerRefusals refused = WorkerStartRefusals(); refused.count > 0) {
    Err(fmt::format(
        "topolint: warning: -j {}: {} refused ({}); the run used the "
        "threads it had\n",
        options.jobs, Plural(refused.count, "worker thread start"),
        std::strerror(refused.first_error)));
  }
  Err(s.unchecked_line);
  PrintCounts(s, hint_fixes);
  if (!options.baseline.empty()) {
    Err(fmt::format(
        "topolint: baseline hid {}; {} baseline {} no longer "
        "match{}\n",
        Plural(static_cast<size_t>(s.baselined), "finding"), s.stale,
        s.stale == 1 ? "entry" : "entries", s.stale == 1 ? "es" : ""));
  }
}

}  // namespace topolint::cli
