// `topolint check`: plan units, then load, check and report them as a stream.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "checker/cli/check_summary.h"
#include "checker/cli/commands.h"
#include "checker/cli/finding_order.h"
#include "checker/cli/output_guard.h"
#include "checker/cli/report_sink.h"
#include "checker/cli/streamed_units.h"
#include "checker/cli/unchecked_summary.h"
#include "checker/cli/unit_jobs.h"
#include "checker/core/rule_docs.h"
#include "checker/diag/baseline.h"
#include "checker/diag/fix.h"
#include "checker/diag/render.h"
#include "checker/diag/source_snippet.h"
#include "fmt/format.h"
#include "rules/registry.h"

namespace topolint::cli {
namespace {

// An environment variable that is set to something (no-color.org and
// force-color.org: an empty value counts as unset).
bool EnvSet(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0';
}

// Standard output is a terminal other than TERM=dumb.
bool StdoutIsTerminal() {
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string(term) == "dumb") return false;
  return isatty(fileno(stdout)) != 0;
}

// --color, then NO_COLOR, then FORCE_COLOR, then StdoutIsTerminal. -o FILE
// is coloured only by --color always.
bool UseColor(const Options& o) {
  if (o.color == ColorMode::kAlways) return true;
  if (o.color == ColorMode::kNever || !o.output.empty()) return false;
  if (EnvSet("NO_COLOR")) return false;
  if (EnvSet("FORCE_COLOR")) return true;
  return StdoutIsTerminal();
}

// OSC 8 hyperlinks on rule ids: only on the terminal itself, never into
// -o FILE or a pipe, whatever --color says.
bool UseHyperlinks(const Options& o) {
  return o.output.empty() && o.color != ColorMode::kNever && StdoutIsTerminal();
}

// Every registered rule, its page and helpUri (`docs_url`, else
// kDefaultDocsUrl, + "/<id>.md").
std::vector<RuleDescriptor> Descriptors(const std::string& docs_url) {
  std::vector<RuleDescriptor> out;
  for (const RuleInfo& r : AllRules()) {
    RuleDescriptor d;
    d.id = std::string(r.id);
    d.default_severity = r.default_severity;
    d.summary = std::string(r.summary);
    d.description = RuleDocSection(r.id, "What it checks");
    if (d.description.empty()) d.description = d.summary;
    d.page = std::string(RuleDoc(r.id));
    d.help_uri = RuleDocsUrl(docs_url, r.id);
    out.push_back(std::move(d));
  }
  return out;
}

// What the summary and --statistics count (into `counts`), kept as
// findings stream by: every finding found, those the per-rule cap left out
// included (a cap note carries their number, and is itself no finding).
struct Tally {
  CheckSummary* counts;
  size_t shown_errors = 0;      // error findings shown
  std::set<std::string> piped;  // inputs read from a pipe

  void Count(const Finding& f) {
    if (f.hidden > 0) {
      const size_t n = static_cast<size_t>(f.hidden);
      counts->hidden += n;
      counts->per_rule[f.rule] += n;
      Add(f.hidden_severity, n);
      return;
    }
    ++counts->per_rule[f.rule];
    Add(f.severity, 1);
    if (f.severity == Severity::kError) ++shown_errors;
    // Shown findings whose fix `--fix` applies, and those it applies only
    // with `--fix-from hlo` (none into a binary, compressed, archived or
    // piped input, which --fix refuses).
    if (Fixable(f)) {
      ++(f.fix->needs_fix_from.empty() ? counts->fixable
                                       : counts->fixable_from_hlo);
    }
  }
  bool Fixable(const Finding& f) const {
    if (f.fix == nullptr || !WritableFix(*f.fix)) return false;
    for (const TextEdit& e : f.fix->edits) {
      if (piped.count(e.file) > 0) return false;
    }
    return true;
  }
  void Add(Severity severity, size_t n) {
    static constexpr size_t CheckSummary::*kCount[] = {
        &CheckSummary::notes, &CheckSummary::warnings, &CheckSummary::errors};
    counts->*BySeverity(kCount, severity) += n;
  }
};

// The streamed part of a check: each batch of findings in report order goes
// to --write-baseline (before the baseline hides any), through the
// baseline, into the tally and to the report.
class CheckReport {
 public:
  CheckReport(const Options& options, std::optional<Baseline> baseline,
              const std::vector<InMemoryInput>& in_memory, CheckSummary* counts)
      : options_(options), tally_{counts, 0, {}} {
    if (baseline) remaining_ = std::move(baseline->counts);
    for (const InMemoryInput& m : in_memory) {
      tally_.piped.insert(m.name);
      // A streamed standard input shows the source lines of its first
      // bytes (whole lines only); findings beyond them show none.
      sources_.AddInMemory(
          m.name,
          m.stream_fd < 0 ? m.text : m.text.substr(0, m.text.rfind('\n') + 1));
    }
    // Every format names a finding's file the same way: relative to the
    // repository root (issue 47).
    roots_ = FindSarifRoots(options);
    switch (options.format) {
      case Format::kHtml:  // explain only (refused by ParseOptions)
      case Format::kSvg:
      case Format::kText: {
        TextStyle style;
        style.color = UseColor(options);
        style.links = style.color && UseHyperlinks(options);
        style.docs_url = options.docs_url;
        report_ = MakeTextReport(&sources_, style, &roots_);
        break;
      }
      case Format::kJson:
        report_ = MakeJsonReport(&roots_);
        break;
      case Format::kSarif:
        rules_ = Descriptors(options.docs_url);
        report_ = MakeSarifReport(&rules_, TOPOLINT_VERSION, &roots_);
        break;
      case Format::kGithub:
        report_ = MakeGithubReport(&roots_);
        break;
      case Format::kJunit:
        report_ = MakeJunitReport(&roots_);
        break;
      case Format::kGitlab:
        report_ = MakeGitlabReport(&roots_);
        break;
      case Format::kConcise:
        report_ = MakeConciseReport(&roots_);
        break;
    }
  }

  // Opens the outputs (staged files are created now, committed at the end)
  // and writes the report's beginning.
  absl::Status Begin() {
    if (absl::Status st = out_.Open(options_.output); !st.ok()) return st;
    if (!options_.write_baseline.empty()) {
      if (absl::Status st = baseline_out_.Open(options_.write_baseline);
          !st.ok()) {
        return st;
      }
      baseline_writer_.Begin(&baseline_text_);
    }
    report_->Begin(&text_);
    return Flush();
  }

  // The texts of a unit's .neff members, for source lines, until their
  // findings are out.
  void AddMemberTexts(std::vector<std::pair<std::string, std::string>> texts) {
    for (auto& [name, text] : texts) {
      sources_.AddInMemory(name, std::move(text));
      members_.insert(name);
    }
  }

  // Writes `ready` (report order). Member texts of files before `frontier`
  // (all when nullopt) are dropped: no finding can name them any more.
  absl::Status Add(std::vector<Finding>* ready,
                   const std::optional<std::string>& frontier) {
    std::vector<Finding> kept;
    kept.reserve(ready->size());
    for (Finding& f : *ready) {
      if (!options_.write_baseline.empty()) {
        baseline_writer_.Add(f, &baseline_text_);
      }
      // An empty baseline matches nothing: no fingerprint is computed.
      if (!remaining_.empty()) {
        auto it = remaining_.find(RootedFingerprint(f, &roots_));
        if (it != remaining_.end() && it->second > 0) {
          --it->second;
          ++baselined_;
          continue;
        }
      }
      tally_.Count(f);
      kept.push_back(std::move(f));
    }
    ready->clear();
    report_->Add(kept, &text_);
    while (!members_.empty() && (!frontier || *members_.begin() < *frontier)) {
      sources_.RemoveInMemory(*members_.begin());
      members_.erase(members_.begin());
    }
    return Flush();
  }

  // Ends the report and the baseline file and commits the staged outputs
  // (the baseline first, as one set: any failure commits nothing).
  absl::Status End() {
    report_->End(&text_);
    if (!options_.write_baseline.empty()) {
      baseline_writer_.End(&baseline_text_);
    }
    if (absl::Status st = Flush(); !st.ok()) return st;
    if (absl::Status st = out_.Finish(); !st.ok()) return st;
    if (!options_.write_baseline.empty()) {
      if (absl::Status st = baseline_out_.Finish(); !st.ok()) return st;
      if (absl::Status st = baseline_out_.Commit(); !st.ok()) return st;
    }
    return out_.Commit();
  }

  const Tally& tally() const { return tally_; }
  int64_t baselined() const { return baselined_; }
  // Baseline entries that matched no finding.
  int64_t stale() const {
    int64_t n = 0;
    for (const auto& [fingerprint, count] : remaining_) n += count;
    return n;
  }

 private:
  absl::Status Flush() {
    if (absl::Status st = out_.Write(&text_); !st.ok()) return st;
    if (options_.write_baseline.empty()) return absl::OkStatus();
    return baseline_out_.Write(&baseline_text_);
  }

  const Options& options_;
  absl::flat_hash_map<std::string, int64_t> remaining_;  // --baseline's
  int64_t baselined_ = 0;
  SourceCache sources_;
  std::set<std::string> members_;
  std::vector<RuleDescriptor> rules_;
  SarifRoots roots_;
  std::unique_ptr<ReportWriter> report_;
  BaselineWriter baseline_writer_{&roots_};
  ReportSink out_, baseline_out_;
  std::string text_, baseline_text_;
  Tally tally_;
};

}  // namespace

void Err(const std::string& msg) {
  std::fputs(SanitizeLinesForTerminal(msg).c_str(), stderr);
}

int Fail(const absl::Status& st) {
  Err(fmt::format("topolint: error: {}\n", std::string(st.message())));
  return kExitUsage;
}

std::string RenderEmptyReport(const Options& options) {
  if (options.format == Format::kJson) return RenderJson({});
  if (options.format == Format::kSarif) {
    const std::vector<RuleDescriptor> rules = Descriptors(options.docs_url);
    const SarifRoots roots = FindSarifRoots(options);
    return RenderSarif({}, rules, TOPOLINT_VERSION, roots);
  }
  return "";
}

namespace {

// One run of check; its counts go to `*summary` once its report ended.
int CheckRun(const Options& options, const std::vector<InMemoryInput>* reuse,
             CheckSummary* summary) {
  // Every command line is checked as the walks form its units
  // (StreamedUnits): skipped paths are listed (-v) as met.
  size_t streamed_skipped = 0;
  auto streamed = std::make_unique<StreamedUnits>(
      options,
      [&options, &streamed_skipped](SkippedPath s) {
        streamed_skipped += s.files;
        if (options.verbose) {
          Err(fmt::format("topolint: skipped {}: {}\n", s.path, s.reason));
        }
      },
      reuse);
  if (absl::Status st = streamed->Init(); !st.ok()) return Fail(st);
  if (absl::Status st = CheckOutputsAreNotInputs(options, JobPlan{});
      !st.ok()) {
    return Fail(st);
  }
  std::optional<Baseline> baseline;
  if (!options.baseline.empty()) {
    // Read whole before anything is written, so that `--baseline B
    // --write-baseline B` compares against the old B.
    absl::StatusOr<Baseline> read = ReadBaselineFile(options.baseline);
    if (!read.ok()) return Fail(read.status());
    baseline = *std::move(read);
  }
  // Units are loaded, checked and dropped -j at a time; their findings are
  // written as soon as they are final (FindingOrder), so memory holds the
  // units in flight and the findings held back, not the run's findings.
  // Staged outputs (-o, --write-baseline) are put in place only once
  // everything succeeded; on any failure (exit 2) the old files stay, while
  // standard output keeps what was already written (docs/integration.md,
  // "Report order and streaming").
  FindingOrder order;
  CheckReport report(options, std::move(baseline), streamed->in_memory(),
                     summary);
  if (absl::Status st = report.Begin(); !st.ok()) return Fail(st);
  std::vector<Finding> ready;
  absl::Status streamed_status = StreamUnits(
      streamed.get(), options.jobs,
      [&](UnitOutcome unit, const std::optional<std::string>& frontier) {
        order.AddShared(unit.shared_files);
        order.CountFiles(unit.new_files);
        report.AddMemberTexts(std::move(unit.member_texts));
        order.Add(std::move(unit.findings), frontier, &ready);
        return report.Add(&ready, frontier);
      });
  if (!streamed_status.ok()) return Fail(streamed_status);
  order.Finish(&ready);
  if (absl::Status st = report.Add(&ready, std::nullopt); !st.ok()) {
    return Fail(st);
  }
  if (absl::Status st = report.End(); !st.ok()) return Fail(st);
  summary->ended = true;
  summary->units = streamed->units();
  summary->files = order.file_count();
  summary->skipped = streamed_skipped;
  summary->unchecked_line = streamed->unchecked().Line();
  summary->baselined = report.baselined();
  summary->stale = report.stale();
  // The exit code follows the findings shown (and not baselined): findings
  // the cap left out cannot be baselined one by one, and the first ones of
  // each rule are always shown, so an error rule still fails the run.
  return report.tally().shown_errors > 0 && !options.exit_zero ? kExitFindings
                                                               : kExitClean;
}

}  // namespace

int RunCheck(const Options& options) {
  if (options.fix || options.diff) return RunFix(options);
  const CheckSummary summary = RunCheckCounted(options);
  PrintCheckSummary(options, summary, /*hint_fixes=*/true);
  return summary.code;
}

CheckSummary RunCheckCounted(const Options& options,
                             const std::vector<InMemoryInput>* reuse) {
  CheckSummary summary;
  summary.code = CheckRun(options, reuse, &summary);
  return summary;
}

SarifRoots FindSarifRoots(const Options& o) {
  return FindReportRoots(o.sarif_root, o.paths.empty() ? "" : o.paths[0]);
}

}  // namespace topolint::cli
