// `topolint check`: plan units, load, run rules, apply the baseline, render.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>

#include "checker/cli/commands.h"
#include "checker/cli/output_guard.h"
#include "checker/cli/unit_jobs.h"
#include "checker/core/rule_docs.h"
#include "checker/diag/baseline.h"
#include "checker/diag/input_file.h"
#include "checker/diag/output_file.h"
#include "checker/diag/render.h"
#include "fmt/format.h"
#include "rules/registry.h"

namespace topolint::cli {
namespace {

void Err(const std::string& msg) { std::fputs(msg.c_str(), stderr); }

bool UseColor(const Options& o) {
  if (o.color == ColorMode::kAlways) return true;
  if (o.color == ColorMode::kNever || !o.output.empty()) return false;
  const char* term = std::getenv("TERM");
  if (std::getenv("NO_COLOR") != nullptr) return false;
  if (term != nullptr && std::string(term) == "dumb") return false;
  return isatty(fileno(stdout)) != 0;
}

// `docs_url` empty: no helpUri (the help text carries the description).
std::vector<RuleDescriptor> Descriptors(const std::string& docs_url) {
  std::vector<RuleDescriptor> out;
  for (const RuleInfo& r : AllRules()) {
    RuleDescriptor d;
    d.id = std::string(r.id);
    d.default_severity = r.default_severity;
    d.summary = std::string(r.summary);
    d.description = RuleDocSection(r.id, "What it checks");
    if (d.description.empty()) d.description = d.summary;
    if (!docs_url.empty()) {
      const bool slash = docs_url.back() == '/';
      d.help_uri = fmt::format("{}{}{}.md", docs_url, slash ? "" : "/", r.id);
    }
    out.push_back(std::move(d));
  }
  return out;
}

// The nearest directory holding `.git` (a directory, or a worktree's file)
// at or above `dir`; empty when there is none.
std::string GitRoot(const std::filesystem::path& dir) {
  std::error_code ec;
  for (std::filesystem::path p = dir; !p.empty(); p = p.parent_path()) {
    if (std::filesystem::exists(p / ".git", ec)) return p.string();
    if (p == p.parent_path()) break;
  }
  return "";
}

// SARIF URIs: relative to --sarif-root, else to the git work tree holding
// the current directory, else the one holding the first input, else to the
// current directory.
SarifRoots FindSarifRoots(const Options& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  SarifRoots r;
  r.cwd = fs::current_path(ec).string();
  if (!o.sarif_root.empty()) {
    r.root = fs::absolute(o.sarif_root, ec).lexically_normal().string();
  }
  if (r.root.empty()) r.root = GitRoot(r.cwd);
  if (r.root.empty() && !o.paths.empty() && o.paths[0] != "-") {
    r.root = GitRoot(fs::absolute(o.paths[0], ec).parent_path());
  }
  if (r.root.empty()) r.root = r.cwd;
  while (r.root.size() > 1 && r.root.back() == '/') r.root.pop_back();
  return r;
}

int Fail(const absl::Status& st) {
  Err(fmt::format("topolint: error: {}\n", std::string(st.message())));
  return kExitUsage;
}

// Reads and parses --baseline before anything is written, so that
// `--baseline B --write-baseline B` compares against the old B.
absl::Status ReadBaselineFile(const std::string& path,
                              std::optional<Baseline>* out) {
  std::string text;
  if (absl::Status st =
          ReadInputFile(path, kMaxBaselineBytes, "baselines", &text);
      !st.ok()) {
    return st;
  }
  std::string error;
  *out = LoadBaseline(text, &error);
  if (!*out) {
    return absl::InvalidArgumentError(fmt::format("{}: {}", path, error));
  }
  return absl::OkStatus();
}

// Writes `text` to a staged (temporary) file for `path`; the caller commits.
absl::Status Stage(const std::string& path, std::string_view text,
                   StagedOutput* out) {
  if (absl::Status st = out->Open(path); !st.ok()) return st;
  if (absl::Status st = out->Write(text); !st.ok()) return st;
  return out->Finish();
}

std::string Plural(size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

bool SameFinding(const Finding& a, const Finding& b) {
  return !FindingLess(a, b) && !FindingLess(b, a) && a.rule == b.rule &&
         a.loc == b.loc && a.message == b.message && a.severity == b.severity &&
         std::equal(a.notes.begin(), a.notes.end(), b.notes.begin(),
                    b.notes.end(), [](const Note& x, const Note& y) {
                      return x.loc == y.loc && x.message == y.message;
                    });
}

}  // namespace

int RunCheck(const Options& options) {
  JobPlan plan;
  if (absl::Status st = PlanJobs(options, &plan); !st.ok()) {
    Err(fmt::format("topolint: error: {}\n", std::string(st.message())));
    return kExitUsage;
  }
  if (!options.quiet) {
    for (const std::string& s : plan.skipped) {
      Err(
          fmt::format("topolint: warning: skipped {}: not HLO text, a NEFF "
                      "def.json / .neff or a component config\n",
                      s));
    }
    for (const std::string& w : plan.warnings) {
      Err(fmt::format("topolint: warning: {}\n", w));
    }
  }
  if (options.verbose) {
    for (const SkippedPath& s : plan.search_skipped) {
      if (!s.warned)
        Err(fmt::format("topolint: skipped {}: {}\n", s.path, s.reason));
    }
  }
  if (absl::Status st = CheckOutputsAreNotInputs(options, plan); !st.ok()) {
    return Fail(st);
  }
  std::optional<Baseline> baseline;
  if (!options.baseline.empty()) {
    if (absl::Status st = ReadBaselineFile(options.baseline, &baseline);
        !st.ok()) {
      return Fail(st);
    }
  }
  // Each unit is loaded, checked and dropped in turn (-j at a time): memory
  // holds the units in flight, not every unit of the run.
  std::vector<UnitOutcome> outcomes;
  if (absl::Status st = CheckUnits(plan, options.jobs, &outcomes); !st.ok()) {
    Err(fmt::format("topolint: error: {}\n", std::string(st.message())));
    return kExitUsage;
  }

  SourceCache sources;
  for (const InMemoryInput& m : plan.in_memory) {
    sources.AddInMemory(m.name, m.text);
  }
  std::vector<Finding> findings;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    std::vector<Finding>& f = outcomes[i].findings;
    findings.insert(findings.end(), std::make_move_iterator(f.begin()),
                    std::make_move_iterator(f.end()));
    for (auto& [name, text] : outcomes[i].member_texts) {
      sources.AddInMemory(name, std::move(text));
    }
  }
  outcomes.clear();
  std::sort(findings.begin(), findings.end(), FindingLess);
  // A config inherited by several units (docs/layouts.md) gives its own
  // findings once per unit: keep one.
  findings.erase(std::unique(findings.begin(), findings.end(), SameFinding),
                 findings.end());

  // Nothing is written until everything is: outputs are staged next to
  // their targets and renamed into place only once all of them (and
  // standard output) succeeded; on any failure the old files stay.
  StagedOutput baseline_out;
  if (!options.write_baseline.empty()) {
    if (absl::Status st = Stage(options.write_baseline, WriteBaseline(findings),
                                &baseline_out);
        !st.ok()) {
      return Fail(st);
    }
  }
  int64_t baselined = 0, stale = 0;
  if (baseline) {
    BaselineResult r = ApplyBaseline(std::move(findings), *baseline);
    findings = std::move(r.kept);
    baselined = r.suppressed;
    stale = r.stale;
    baseline.reset();
  }

  std::string report;
  switch (options.format) {
    case Format::kText:
      report = RenderText(findings, sources, UseColor(options));
      break;
    case Format::kJson:
      report = RenderJson(findings);
      break;
    case Format::kSarif:
      report = RenderSarif(findings, Descriptors(options.docs_url),
                           TOPOLINT_VERSION, FindSarifRoots(options));
      break;
    case Format::kGithub:
      report = RenderGithub(findings);
      break;
  }
  StagedOutput report_out;
  absl::Status written =
      options.output.empty()
          ? WriteAllFd(STDOUT_FILENO, report, "standard output")
          : Stage(options.output, report, &report_out);
  if (written.ok() && !options.write_baseline.empty()) {
    written = baseline_out.Commit();
  }
  if (written.ok() && !options.output.empty()) written = report_out.Commit();
  if (!written.ok()) return Fail(written);
  report.clear();
  report.shrink_to_fit();

  size_t errors = 0, warnings = 0, notes = 0;
  std::map<std::string, size_t> per_rule;
  for (const Finding& f : findings) {
    ++per_rule[f.rule];
    switch (f.severity) {
      case Severity::kError:
        ++errors;
        break;
      case Severity::kWarning:
        ++warnings;
        break;
      case Severity::kNote:
        ++notes;
        break;
    }
  }
  if (options.statistics) {
    for (const auto& [rule, n] : per_rule) {
      Err(fmt::format("{:>6}  {}\n", n, rule));
    }
  }
  if (!options.quiet) {
    std::string files = fmt::format("{} checked, {} skipped",
                                    Plural(CheckedFileCount(plan), "file"),
                                    SkippedFileCount(plan));
    if (plan.jobs.empty()) {
      Err(fmt::format(
          "topolint: warning: no HLO, def.json, .neff or component config "
          "files found ({})\n",
          files));
    } else if (findings.empty()) {
      Err(fmt::format("topolint: no findings ({}, {})\n",
                      Plural(plan.jobs.size(), "unit"), files));
    } else {
      Err(fmt::format("topolint: {}, {}, {} ({}, {})\n",
                      Plural(errors, "error"), Plural(warnings, "warning"),
                      Plural(notes, "note"), Plural(plan.jobs.size(), "unit"),
                      files));
    }
    if (!options.baseline.empty()) {
      Err(fmt::format(
          "topolint: baseline hid {}; {} baseline {} no longer "
          "match{}\n",
          Plural(static_cast<size_t>(baselined), "finding"), stale,
          stale == 1 ? "entry" : "entries", stale == 1 ? "es" : ""));
    }
  }
  return errors > 0 && !options.exit_zero ? kExitFindings : kExitClean;
}

}  // namespace topolint::cli
