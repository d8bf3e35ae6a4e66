// `topolint check --fix / --diff`: gather the fixes the rules are certain
// of, apply them (or print them as a diff), then check again and report
// what remains (docs/fixes.md).
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <tuple>

#include "checker/cli/commands.h"
#include "checker/cli/unit_jobs.h"
#include "checker/diag/fix.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

void Err(const std::string& msg) { std::fputs(msg.c_str(), stderr); }

// The fixes of a run, by file, each finding once (a config several units
// share reports its findings in each).
struct Gathered {
  std::map<std::string, std::vector<const Fix*>> by_file;
  std::vector<std::shared_ptr<const Fix>> keep;
  std::set<std::tuple<std::string, std::string, int64_t, int64_t, std::string>>
      seen;
  size_t withheld = 0;  // fixes that need --fix-from
};

absl::Status Gather(const Options& options, const JobPlan& plan, Gathered* g) {
  std::vector<size_t> order(plan.jobs.size());
  std::iota(order.begin(), order.end(), 0);
  return StreamUnits(plan, order, options.jobs, [&](UnitOutcome unit) {
    for (const Finding& f : unit.findings) {
      if (f.fix == nullptr || f.fix->edits.empty()) continue;
      if (!g->seen
               .emplace(f.rule, f.loc.file, f.loc.line, f.loc.column, f.message)
               .second) {
        continue;
      }
      if (!f.fix->needs_fix_from.empty() &&
          f.fix->needs_fix_from != options.fix_from) {
        // Counted only where --fix-from would write (the others are
        // refused, by name, when it is given).
        if (WritableFix(*f.fix)) ++g->withheld;
        continue;
      }
      g->keep.push_back(f.fix);
      g->by_file[f.fix->edits.front().file].push_back(f.fix.get());
    }
    return absl::OkStatus();
  });
}

}  // namespace

int RunFix(const Options& options) {
  JobPlan plan;
  if (absl::Status st = PlanJobs(options, &plan); !st.ok()) {
    Err(fmt::format("topolint: error: {}\n", std::string(st.message())));
    return kExitUsage;
  }
  Gathered gathered;
  if (absl::Status st = Gather(options, plan, &gathered); !st.ok()) {
    Err(fmt::format("topolint: error: {}\n", std::string(st.message())));
    return kExitUsage;
  }
  std::set<std::string> piped;
  for (const InMemoryInput& m : plan.in_memory) piped.insert(m.name);
  size_t fixed = 0, files = 0;
  std::string diff;
  for (const auto& [file, fixes] : gathered.by_file) {
    if (piped.count(file) > 0) {
      for (const Fix* f : fixes) {
        Err(
            fmt::format("topolint: {}: {}: not fixable here: read from a "
                        "pipe\n",
                        file, f->title));
      }
      continue;
    }
    absl::StatusOr<FileFixPlan> fp = PlanFileFixes(file, fixes);
    if (!fp.ok()) {
      Err(fmt::format("topolint: error: {}\n",
                      std::string(fp.status().message())));
      return kExitUsage;
    }
    for (const std::string& r : fp->refused) {
      Err(fmt::format("topolint: {}\n", r));
    }
    if (fp->edits.empty()) continue;
    for (bool a : fp->applied) fixed += a ? 1 : 0;
    ++files;
    if (options.diff) {
      diff += UnifiedDiff(file, fp->before, fp->edits);
      continue;
    }
    if (absl::Status st = WriteFixedFile(*fp); !st.ok()) {
      Err(fmt::format("topolint: error: {}\n", std::string(st.message())));
      return kExitUsage;
    }
  }
  const std::string withheld =
      gathered.withheld == 0
          ? ""
          : fmt::format("; {} more with --fix-from hlo", gathered.withheld);
  if (options.diff) {
    std::fwrite(diff.data(), 1, diff.size(), stdout);
    std::fflush(stdout);
    if (!options.quiet) {
      Err(fmt::format(
          "topolint: --fix would fix {} finding{} in {} file{} (nothing "
          "written){}\n",
          fixed, fixed == 1 ? "" : "s", files, files == 1 ? "" : "s",
          withheld));
    }
    return diff.empty() ? kExitClean : kExitFindings;
  }
  Options again = options;
  again.fix = false;
  again.diff = false;
  size_t remaining = 0;
  const int code = RunCheckCounted(again, &remaining, /*hint_fixes=*/false);
  if (code != kExitUsage && !options.quiet) {
    Err(fmt::format("topolint: {} fixed, {} remaining{}\n", fixed, remaining,
                    withheld));
  }
  return code;
}

}  // namespace topolint::cli
