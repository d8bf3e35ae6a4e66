// `topolint check --fix / --diff`: gather the fixes the rules are certain
// of, apply them (or print them as a diff), then check again and report
// what remains (docs/fixes.md).
//
// Nothing is written before everything that can make the run a usage error
// has been checked: the outputs are not inputs and can be created, the
// baseline reads, every file to fix reads. Then the files are written one by
// one; a failure is reported, the other files are still written, and the
// run ends with exit 2 naming the files already rewritten.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "checker/cli/commands.h"
#include "checker/cli/output_guard.h"
#include "checker/cli/streamed_units.h"
#include "checker/cli/unit_jobs.h"
#include "checker/diag/baseline.h"
#include "checker/diag/fix.h"
#include "checker/diag/render.h"
#include "checker/io/input_file.h"
#include "checker/io/output_file.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

// The fixes of a run, by file, each finding once (a config several units
// share reports its findings in each).
struct Gathered {
  std::map<std::string, std::vector<const Fix*>> by_file;
  std::vector<std::shared_ptr<const Fix>> keep;
  size_t withheld = 0;   // fixes that need --fix-from
  size_t baselined = 0;  // fixes of findings the baseline accepts
};

// Gathers the fixes; with a baseline, the findings it accepts keep theirs
// unapplied. As `check --baseline` does, n entries of a fingerprint accept
// the first n findings having it in report order (by file, line, column).
absl::Status Gather(const Options& options, StreamedUnits* source,
                    const std::optional<Baseline>& baseline, Gathered* g) {
  std::set<std::tuple<std::string, std::string, int64_t, int64_t, std::string>>
      seen;
  std::vector<std::shared_ptr<const Fix>> fixes;
  const SarifRoots roots = FindSarifRoots(options);
  // Findings whose fingerprint the baseline holds: (file, line, column,
  // index in `fixes` or npos).
  absl::flat_hash_map<
      std::string,
      std::vector<std::tuple<std::string, int64_t, int64_t, size_t>>>
      in_baseline;
  absl::Status st = StreamUnits(
      source, options.jobs,
      [&](UnitOutcome unit, const std::optional<std::string>&) {
        for (const Finding& f : unit.findings) {
          const bool with_fix = f.fix != nullptr && !f.fix->edits.empty();
          const std::string fingerprint =
              baseline ? RootedFingerprint(f, &roots) : std::string();
          const bool accepted =
              baseline && baseline->counts.contains(fingerprint);
          if (!with_fix && !accepted) continue;
          if (!seen.emplace(f.rule, f.loc.file, f.loc.line, f.loc.column,
                            f.message)
                   .second) {
            continue;
          }
          if (accepted) {
            in_baseline[fingerprint].emplace_back(
                f.loc.file, f.loc.line, f.loc.column,
                with_fix ? fixes.size() : std::string::npos);
          }
          if (with_fix) fixes.push_back(f.fix);
        }
        return absl::OkStatus();
      });
  if (!st.ok()) return st;
  std::vector<bool> accepted(fixes.size(), false);
  for (auto& [fingerprint, found] : in_baseline) {
    std::sort(found.begin(), found.end());
    const int64_t n = baseline->counts.at(fingerprint);
    for (size_t i = 0; i < found.size() && static_cast<int64_t>(i) < n; ++i) {
      const size_t index = std::get<3>(found[i]);
      if (index != std::string::npos) accepted[index] = true;
    }
  }
  for (size_t i = 0; i < fixes.size(); ++i) {
    const std::shared_ptr<const Fix>& fix = fixes[i];
    if (accepted[i]) {
      ++g->baselined;
      continue;
    }
    if (!fix->needs_fix_from.empty() &&
        fix->needs_fix_from != options.fix_from) {
      // Counted only where --fix-from would write (the others are
      // refused, by name, when it is given).
      if (WritableFix(*fix)) ++g->withheld;
      continue;
    }
    g->keep.push_back(fix);
    g->by_file[fix->edits.front().file].push_back(fix.get());
  }
  return absl::OkStatus();
}

// The files to fix: names that reach one file (a symlink, a hard link: the
// same device and inode) are one file, planned and written once under its
// first name.
struct FileGroup {
  std::string file;                  // the first name
  std::vector<std::string> aliases;  // the others
  std::vector<const Fix*> fixes;
};

std::vector<FileGroup> GroupByIdentity(
    const std::map<std::string, std::vector<const Fix*>>& by_file) {
  std::vector<FileGroup> groups;
  std::map<std::pair<uint64_t, uint64_t>, size_t> by_id;
  for (const auto& [file, fixes] : by_file) {
    FileId id;
    size_t at = groups.size();
    if (IdOfPath(file, &id)) {
      auto [it, added] = by_id.emplace(std::make_pair(id.dev, id.ino), at);
      at = it->second;
    }
    if (at == groups.size()) {
      groups.push_back({file, {}, {}});
    } else {
      groups[at].aliases.push_back(file);
    }
    FileGroup& g = groups[at];
    g.fixes.insert(g.fixes.end(), fixes.begin(), fixes.end());
  }
  return groups;
}

// Checks, before anything is written, what would otherwise fail the run
// with exit 2 after the fixes were written: an output that is an input,
// outputs that cannot be created, a baseline that does not read.
absl::Status CheckBeforeWriting(const Options& options, const JobPlan& plan,
                                std::optional<Baseline>* baseline) {
  if (absl::Status st = CheckOutputsAreNotInputs(options, plan); !st.ok()) {
    return st;
  }
  if (!options.baseline.empty()) {
    absl::StatusOr<Baseline> read = ReadBaselineFile(options.baseline);
    if (!read.ok()) return read.status();
    *baseline = *std::move(read);
  }
  // Created (a temporary beside each) and dropped again: what the report
  // of the check that follows would meet.
  for (const std::string* out : {&options.output, &options.write_baseline}) {
    if (out->empty()) continue;
    StagedOutput probe;
    if (absl::Status st = probe.Open(*out); !st.ok()) return st;
  }
  return absl::OkStatus();
}

// Writes the diff to -o (staged: written whole or not at all) or to
// standard output.
absl::Status WriteDiff(const Options& options, const std::string& diff) {
  if (options.output.empty()) {
    std::fwrite(diff.data(), 1, diff.size(), stdout);
    if (std::fflush(stdout) != 0) {
      return absl::DataLossError("standard output: write failed");
    }
    return absl::OkStatus();
  }
  StagedOutput out;
  if (absl::Status st = out.Open(options.output); !st.ok()) return st;
  if (absl::Status st = out.Write(diff); !st.ok()) return st;
  if (absl::Status st = out.Finish(); !st.ok()) return st;
  return out.Commit();
}

}  // namespace

int RunFix(const Options& options) {
  // The units are streamed (StreamedUnits refuses an output that is one of
  // their inputs as it hands them out); nothing is written before every
  // unit was checked.
  StreamedUnits source(options, [](SkippedPath) {});
  if (absl::Status st = source.Init(); !st.ok()) return Fail(st);
  std::optional<Baseline> baseline;
  if (absl::Status st = CheckBeforeWriting(options, JobPlan{}, &baseline);
      !st.ok()) {
    return Fail(st);
  }
  Gathered gathered;
  if (absl::Status st = Gather(options, &source, baseline, &gathered);
      !st.ok()) {
    return Fail(st);
  }
  const std::vector<InMemoryInput>& in_memory = source.in_memory();
  std::set<std::string> piped;
  for (const InMemoryInput& m : in_memory) piped.insert(m.name);
  // Every file is read and planned before the first is written: a file
  // that does not read is exit 2 with nothing written.
  std::vector<FileFixPlan> plans;
  for (const FileGroup& group : GroupByIdentity(gathered.by_file)) {
    if (piped.count(group.file) > 0) {
      for (const Fix* f : group.fixes) {
        Err(
            fmt::format("topolint: {}: {}: not fixable here: read from a "
                        "pipe\n",
                        group.file, f->title));
      }
      continue;
    }
    absl::StatusOr<FileFixPlan> fp =
        PlanFileFixes(group.file, group.fixes, group.aliases);
    if (!fp.ok()) return Fail(fp.status());
    for (const std::string& r : fp->refused) {
      Err(fmt::format("topolint: {}\n", r));
    }
    if (fp->edits.empty()) continue;
    if (!options.diff) {
      fp->before.clear();
      fp->before.shrink_to_fit();
    }
    plans.push_back(*std::move(fp));
  }
  auto count_fixed = [](const FileFixPlan& p) {
    return static_cast<size_t>(
        std::count(p.applied.begin(), p.applied.end(), true));
  };
  std::string withheld =
      gathered.withheld == 0
          ? ""
          : fmt::format("; {} more with --fix-from hlo", gathered.withheld);
  if (gathered.baselined > 0) {
    withheld +=
        fmt::format("; {} left as the baseline accepts {}", gathered.baselined,
                    gathered.baselined == 1 ? "it" : "them");
  }
  if (options.diff) {
    std::string diff;
    size_t fixed = 0;
    for (const FileFixPlan& p : plans) {
      diff += UnifiedDiff(p.file, p.before, p.edits);
      fixed += count_fixed(p);
    }
    if (absl::Status st = WriteDiff(options, diff); !st.ok()) return Fail(st);
    if (!options.quiet) {
      Err(fmt::format(
          "topolint: --fix would fix {} in {} (nothing written){}\n",
          Plural(fixed, "finding"), Plural(plans.size(), "file"), withheld));
    }
    return diff.empty() ? kExitClean : kExitFindings;
  }
  size_t fixed = 0;
  std::vector<std::string> rewritten, failed;
  for (const FileFixPlan& p : plans) {
    absl::Status st = WriteFixedFile(p);
    if (st.ok()) {
      fixed += count_fixed(p);
      rewritten.push_back(p.file);
    } else if (absl::IsFailedPrecondition(st)) {
      // Changed since it was read: refused, as an edit whose bytes moved.
      Err(fmt::format("topolint: {}\n", std::string(st.message())));
    } else {
      Fail(st);
      failed.push_back(p.file);
    }
  }
  if (!failed.empty()) {
    Err(fmt::format("topolint: error: {} not written ({}); {} rewritten{}{}\n",
                    Plural(failed.size(), "file"), absl::StrJoin(failed, ", "),
                    Plural(rewritten.size(), "file"),
                    rewritten.empty() ? "" : ": ",
                    absl::StrJoin(rewritten, ", ")));
    return kExitUsage;
  }
  Options again = options;
  again.fix = false;
  again.diff = false;
  // Inputs read from a pipe cannot be read twice: the check of what
  // remains takes them from this run's plan.
  const CheckSummary summary =
      RunCheckCounted(again, in_memory.empty() ? nullptr : &in_memory);
  PrintCheckSummary(again, summary, /*hint_fixes=*/false);
  if (summary.code != kExitUsage && !options.quiet) {
    Err(fmt::format("topolint: {} fixed, {} remaining{}\n", fixed,
                    summary.total(), withheld));
  }
  return summary.code;
}

}  // namespace topolint::cli
