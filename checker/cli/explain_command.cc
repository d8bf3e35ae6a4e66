// `topolint explain`: plan and load units as `check` does, then print what
// the rank model makes of each (checker/explain).
#include "checker/cli/commands.h"
#include "checker/cli/output_guard.h"
#include "checker/cli/report_sink.h"
#include "checker/cli/unit_jobs.h"
#include "checker/explain/explain.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

// Writes `report` to standard output or, staged, to -o (the writer of
// check's report: a temporary renamed into place once all was written; a
// device written in place). Every write is checked: exit 2 on failure.
int WriteExplanation(const Options& options, std::string report) {
  ReportSink sink;
  absl::Status st = sink.Open(options.output);
  if (st.ok()) st = sink.Write(&report);
  if (st.ok()) st = sink.Finish();
  if (st.ok()) st = sink.Commit();
  return st.ok() ? kExitClean : Fail(st);
}

// --format html / svg: the pictures, with each unit's findings (the rules
// run as `check` runs them).
int WritePicture(const Options& options, const JobPlan& plan,
                 const std::vector<Unit>& units,
                 const std::vector<explain::UnitExplanation>& explained) {
  if (options.format == Format::kSvg && explained.size() != 1) {
    Err(fmt::format(
        "topolint: error: --format svg draws one unit, and this run has {}; "
        "name one unit (a directory, or --hlo/--neff/--neuron-config), or "
        "use --format html for all of them\n",
        explained.size()));
    return kExitUsage;
  }
  std::vector<std::vector<Finding>> findings;
  for (size_t i = 0; i < units.size(); ++i) {
    findings.push_back(
        CheckUnit(units[i], plan.jobs[i].check, plan.jobs[i].selection));
  }
  return WriteExplanation(
      options, options.format == Format::kSvg
                   ? explain::RenderExplainSvg(explained[0], findings[0])
                   : explain::RenderExplainHtml(explained, findings));
}

}  // namespace

int RunExplainCommand(const Options& options) {
  if (options.format != Format::kText && options.format != Format::kJson &&
      options.format != Format::kHtml && options.format != Format::kSvg) {
    Err("topolint: error: explain writes --format text, json, html or "
        "svg\n");
    return kExitUsage;
  }
  JobPlan plan;
  if (absl::Status st = PlanJobs(options, &plan); !st.ok()) {
    return Fail(st);
  }
  const bool picture =
      options.format == Format::kHtml || options.format == Format::kSvg;
  // Before anything is loaded: -o must not be an input, whatever the
  // format.
  if (absl::Status st = CheckOutputsAreNotInputs(options, plan); !st.ok()) {
    return Fail(st);
  }
  if (!options.quiet) {
    for (const std::string& w : plan.warnings) {
      Err(fmt::format("topolint: warning: {}\n", w));
    }
  }
  std::vector<Unit> units;
  if (absl::Status st = LoadUnits(plan, options.jobs, &units); !st.ok()) {
    return Fail(st);
  }
  if (units.empty()) {
    Err("topolint: error: no HLO, def.json, .neff or component config files "
        "found\n");
    return kExitUsage;
  }
  std::vector<explain::UnitExplanation> explained;
  for (size_t i = 0; i < units.size(); ++i) {
    explain::ExplainSettings settings;
    settings.check = plan.jobs[i].check;
    settings.core = options.core;
    explained.push_back(explain::ExplainUnit(units[i], settings));
  }
  if (picture) return WritePicture(options, plan, units, explained);
  return WriteExplanation(options, options.format == Format::kJson
                                       ? explain::RenderExplainJson(explained)
                                       : explain::RenderExplainText(explained));
}

}  // namespace topolint::cli
