// `topolint exec`: check the module before the compiler runs, run it as a
// child with the standard streams untouched, check its NEFF after.
#include <filesystem>

#include "absl/strings/match.h"
#include "checker/cli/commands.h"
#include "checker/cli/exec_child.h"
#include "checker/cli/exec_compile_line.h"
#include "checker/cli/exec_report.h"
#include "checker/cli/flag_table.h"
#include "checker/cli/options.h"
#include "checker/cli/output_guard.h"
#include "checker/cli/unit_jobs.h"
#include "checker/io/repo_paths.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

namespace fs = std::filesystem;

enum class OnError { kBlock, kWarn };

struct ExecSettings {
  OnError on_error = OnError::kBlock;
  Options check;       // the check flags (verb check, no paths)
  std::string output;  // -o: the report file ("" = standard error)
  bool quiet = false;  // --quiet: exec's warnings too
  std::vector<std::string> compiler;  // COMPILER ARGS...
};

// exec's own checks of the options ParseOptions read (verb exec).
absl::Status ParseExec(const Options& given, ExecSettings* s) {
  if (given.command.empty()) {
    return absl::InvalidArgumentError(
        "exec needs the compiler's command line after `--`: topolint exec "
        "[options] -- neuronx-cc compile model.hlo_module.pb --output "
        "model.neff");
  }
  Options o = given;
  if (o.fix || o.diff || !o.fix_from.empty()) {
    return absl::InvalidArgumentError(fmt::format(
        "exec takes no {}: --fix would rewrite the module the compiler is "
        "about to compile, and --diff would block the compile on a note; "
        "run `topolint check --diff` (then --fix) on the module first",
        o.fix    ? "--fix"
        : o.diff ? "--diff"
                 : "--fix-from"));
  }
  if (!o.paths.empty() || !o.hlo.empty() || !o.neff.empty() ||
      !o.neuron_config.empty() || !o.write_baseline.empty() || o.whole_units) {
    return absl::InvalidArgumentError(
        "exec checks the files the compiler's command line names: no PATH, "
        "--hlo/--neff/--neuron-config, --write-baseline or --whole-units");
  }
  if (absl::Status st = CheckFlagsApply(o, kOnExec); !st.ok()) return st;
  if (o.format != Format::kText && o.format != Format::kGithub &&
      o.format != Format::kJson && o.format != Format::kSarif) {
    return absl::InvalidArgumentError(
        "exec writes --format text, github, json or sarif");
  }
  s->on_error = o.on_error == "warn" ? OnError::kWarn : OnError::kBlock;
  s->compiler = std::move(o.command);
  o.command.clear();
  o.verb = Verb::kCheck;
  s->output = o.output;
  o.output.clear();
  // The phases write into a pipe or a temporary, never to the -o file
  // itself: a file is coloured only by --color always, as in check.
  if (!s->output.empty() && o.color != ColorMode::kAlways) {
    o.color = ColorMode::kNever;
  }
  s->quiet = o.quiet;
  o.quiet = true;  // nothing on stderr when the module is clean
  s->check = std::move(o);
  return absl::OkStatus();
}

// The deployment config that applies to `module`: the nearest
// neuron_config.json in its directory or above, up to the git work tree
// holding it (or the file system's root). "" when none.
std::string FindDeploymentConfig(const std::string& module) {
  std::error_code ec;
  fs::path dir = fs::absolute(module, ec).lexically_normal().parent_path();
  const std::string top = FindGitRoot(dir.string());
  for (;; dir = dir.parent_path()) {
    const fs::path candidate = dir / "neuron_config.json";
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    if (dir.string() == top || !dir.has_parent_path() ||
        dir.parent_path() == dir) {
      return "";
    }
  }
}

Options PhaseOptions(const ExecSettings& s, const CompileLine& line) {
  Options o = s.check;
  o.hlo = line.input;
  o.neuron_config = FindDeploymentConfig(line.input);
  if (!o.lnc && line.lnc) {
    o.lnc = line.lnc;
    o.lnc_origin = line.lnc_source;
  }
  if (!line.target.empty()) {
    o.target = line.target;
    o.target_origin =
        fmt::format("--target={} on the compiler's command line", line.target);
  }
  return o;
}

// Refuses an -o FILE that is a file the run reads or writes: one the
// compiler's command line names (its input, its --output NEFF and
// --logfile, even before they exist), or one the check reads (the
// deployment config, .topolint.json, --baseline).
absl::Status GuardReportFile(const ExecSettings& s, const CompileLine& line,
                             bool checked) {
  if (s.output.empty()) return absl::OkStatus();
  std::vector<GuardedFile> files;
  if (line.is_compile) {
    files.push_back({line.input, "the compiler's input", true});
    files.push_back({line.output, "the compiler's --output", true});
    files.push_back({line.logfile, "the compiler's --logfile", true});
  }
  for (const std::string& a : line.arguments) {
    files.push_back({a, "the compiler's argument", false});
  }
  if (absl::Status st = CheckOutputIsNoneOf("-o", s.output, files); !st.ok()) {
    return st;
  }
  if (!checked) return absl::OkStatus();
  Options planned = PhaseOptions(s, line);
  planned.output = s.output;
  JobPlan plan;
  // A plan that fails is the check's to report, when it runs.
  if (!PlanJobs(planned, &plan).ok()) return absl::OkStatus();
  return CheckOutputsAreNotInputs(planned, plan);
}

// Why a compile line names no module exec can check ("" when it does).
std::string NothingToCheck(const CompileLine& line) {
  if (!line.is_compile) return "";
  if (line.input.empty()) {
    return line.positionals.empty()
               ? "no HLO module on the compiler's command line"
               : fmt::format(
                     "no HLO module on the compiler's command line ({} is "
                     "not a .pb, .hlo, .hlo.txt or .gz file)",
                     line.positionals[0]);
  }
  if (!line.framework.empty() &&
      !absl::EqualsIgnoreCase(line.framework, "XLA")) {
    return fmt::format("--framework {}: {} is not an HLO module",
                       line.framework, line.input);
  }
  return "";
}

// How the phases ended: the exit code, and whether the report is put in
// place (not after topolint's own failure, nor when exec was interrupted).
struct ExecOutcome {
  int code = kExitClean;
  bool commit = true;
  bool write_error_told = false;
};

ExecOutcome Failed(int code) { return {code, false, false}; }

// Under block, a report that cannot be written stops exec before the
// compiler runs; under warn the compile goes on (exit 2 at the end).
bool StopOnReportError(const ExecReport& report, bool block, ExecOutcome* out) {
  if (report.status().ok() || !block) return false;
  Err(fmt::format("topolint: error: exec: {}; the compiler was not run\n",
                  std::string(report.status().message())));
  *out = {kExitUsage, false, true};
  return true;
}

ExecOutcome RunPhases(const ExecSettings& s, const CompileLine& line,
                      bool checked, ExecReport& report) {
  const bool block = s.on_error == OnError::kBlock;
  ExecOutcome out;
  if (checked) {
    const int rc = report.RunPhase(PhaseOptions(s, line));
    if (StopOnReportError(report, block, &out)) return out;
    if (rc == kExitUsage) {
      Err(fmt::format("topolint: {}: exec: {} could not be checked{}\n",
                      block ? "error" : "warning", line.input,
                      block ? "; the compiler was not run (--on-error warn "
                              "runs it anyway)"
                            : ""));
      if (block) return Failed(kExitUsage);
    } else if (rc == kExitFindings && block) {
      Err(fmt::format(
          "topolint: error: exec: {} has topology errors; the compiler was "
          "not run (--on-error warn runs it anyway)\n",
          line.input));
      return {kExitFindings, true, false};
    }
  }

  int forwarded = 0;
  absl::StatusOr<int> status = RunChild(s.compiler, &forwarded);
  if (!status.ok()) {
    Fail(status.status());
    return Failed(kExitUsage);
  }
  // Interrupted (the signal went on to the compiler): the old report
  // stays, as after an interrupted check.
  out.code = *status;
  out.commit = forwarded == 0;
  if (!checked || *status != 0 || forwarded != 0) return out;

  std::error_code ec;
  if (!fs::is_regular_file(line.output, ec)) {
    Err(fmt::format(
        "topolint: warning: exec: the compiler wrote no {}; its output is "
        "not checked\n",
        line.output));
    return out;
  }
  if (!absl::EndsWith(line.output, ".neff")) {
    Err(fmt::format(
        "topolint: warning: exec: {} is not named *.neff; its output is not "
        "checked\n",
        line.output));
    return out;
  }
  // After the compile: the module against the NEFF. The findings of the
  // module and config alone were reported before compiling.
  Options after = PhaseOptions(s, line);
  after.neff = line.output;
  after.rule_globs.push_back("-hlo-*,-config-*,-unused-suppression");
  const int rc = report.RunPhase(after);
  if (rc == kExitFindings && block) {
    // Name what the user asked for (the LNC flag as given), not just
    // "the NEFF disagrees with the module".
    const std::string with =
        line.lnc_source.empty() ? "" : " with " + line.lnc_source;
    Err(fmt::format(
        "topolint: error: exec: the compiler succeeded, but {} (compiled "
        "from {}{}) has the topology errors above (exit 1 under --on-error "
        "block)\n",
        line.output, line.input, with));
    return {kExitFindings, true, false};
  }
  if (rc == kExitUsage) {
    Err(fmt::format("topolint: {}: exec: {} could not be checked\n",
                    block ? "error" : "warning", line.output));
    if (block) return Failed(kExitUsage);
  }
  return out;
}

}  // namespace

int RunExec(const Options& options) {
  ExecSettings s;
  if (absl::Status st = ParseExec(options, &s); !st.ok()) {
    return Fail(st);
  }
  // A compiler that cannot be started is known before anything else runs.
  if (absl::StatusOr<std::string> program = ResolveProgram(s.compiler[0]);
      !program.ok()) {
    return Fail(program.status());
  }
  const std::vector<std::string> compiler_args(s.compiler.begin() + 1,
                                               s.compiler.end());
  const CompileLine line = ParseCompileLine(compiler_args);
  bool checked = line.is_compile && !line.input.empty();
  if (checked && !line.problem.empty()) {
    Err(fmt::format("topolint: warning: exec: {}\n", line.problem));
    checked = false;
  } else if (const std::string why = NothingToCheck(line); !why.empty()) {
    if (!s.quiet) {
      Err(fmt::format("topolint: warning: exec: {}; nothing is checked\n",
                      why));
    }
    checked = false;
  }
  if (absl::Status st = GuardReportFile(s, line, checked); !st.ok()) {
    return Fail(st);
  }
  ExecReport report(s.check);
  if (absl::Status st = report.Open(s.output); !st.ok()) {
    return Fail(st);
  }
  const ExecOutcome out = RunPhases(s, line, checked, report);
  // The report (a json or sarif document, a staged file) is finished
  // however the phases ended; it is put in place only when they allow.
  if (absl::Status st = report.Finish(out.commit); !st.ok()) {
    if (!out.write_error_told) {
      Err(fmt::format("topolint: error: exec: {}\n",
                      std::string(st.message())));
    }
    return kExitUsage;
  }
  return out.code;
}

}  // namespace topolint::cli
