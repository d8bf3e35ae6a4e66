// `topolint exec`: check the module before the compiler runs, run it as a
// child with the standard streams untouched, check its NEFF after.
#include "checker/cli/exec_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/match.h"
#include "checker/cli/commands.h"
#include "checker/cli/exec_child.h"
#include "checker/cli/exec_compile_line.h"
#include "checker/cli/exec_report.h"
#include "checker/cli/options.h"
#include "checker/core/path_filter.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

namespace fs = std::filesystem;

enum class OnError { kBlock, kWarn };

void Err(const std::string& msg) { std::fputs(msg.c_str(), stderr); }

// Stands for "no PATH" while the check options are parsed.
constexpr char kNoPath[] = "\x01exec";

struct ExecSettings {
  OnError on_error = OnError::kBlock;
  Options check;       // the check flags (verb check, no paths)
  std::string output;  // -o: the report file ("" = standard error)
  std::vector<std::string> compiler;  // COMPILER ARGS...
};

absl::Status ParseExec(const std::vector<std::string>& args, ExecSettings* s) {
  size_t dashes = 1;
  while (dashes < args.size() && args[dashes] != "--") ++dashes;
  if (dashes >= args.size() || dashes + 1 >= args.size()) {
    return absl::InvalidArgumentError(
        "exec needs the compiler's command line after `--`: topolint exec "
        "[options] -- neuronx-cc compile model.hlo_module.pb --output "
        "model.neff");
  }
  s->compiler.assign(args.begin() + dashes + 1, args.end());
  std::vector<std::string> check = {"check"};
  for (size_t i = 1; i < dashes; ++i) {
    const std::string& a = args[i];
    if (a == "--on-error" || absl::StartsWith(a, "--on-error=")) {
      std::string v;
      if (a == "--on-error") {
        if (i + 1 >= dashes) {
          return absl::InvalidArgumentError("--on-error needs a value");
        }
        v = args[++i];
      } else {
        v = a.substr(11);
      }
      if (v == "block") {
        s->on_error = OnError::kBlock;
      } else if (v == "warn") {
        s->on_error = OnError::kWarn;
      } else {
        return absl::InvalidArgumentError(
            fmt::format("--on-error must be block or warn, got '{}'", v));
      }
      continue;
    }
    check.push_back(a);
  }
  check.push_back("--");
  check.push_back(kNoPath);
  absl::StatusOr<Options> o = ParseOptions(check);
  if (!o.ok()) return o.status();
  if (o->verb != Verb::kCheck) {
    return absl::InvalidArgumentError(
        "exec takes check options before `--` (see topolint exec --help)");
  }
  if (o->paths.size() != 1 || !o->hlo.empty() || !o->neff.empty() ||
      !o->neuron_config.empty() || !o->write_baseline.empty() ||
      o->whole_units) {
    return absl::InvalidArgumentError(
        "exec checks the files the compiler's command line names: no PATH, "
        "--hlo/--neff/--neuron-config, --write-baseline or --whole-units");
  }
  if (!ExecWritesFormat(o->format)) {
    return absl::InvalidArgumentError(
        "exec writes --format text, github, json or sarif");
  }
  o->paths.clear();
  s->output = o->output;
  o->output.clear();
  o->quiet = true;  // nothing on stderr when the module is clean
  s->check = *std::move(o);
  return absl::OkStatus();
}

// The deployment config that applies to `module`: the nearest
// neuron_config.json in its directory or above, up to the git work tree
// holding it (or the file system's root). "" when none.
std::string FindDeploymentConfig(const std::string& module) {
  std::error_code ec;
  fs::path dir = fs::absolute(module, ec).lexically_normal().parent_path();
  const std::string top = FindGitWorkTree(dir.string());
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
  if (!o.lnc && line.lnc) o.lnc = line.lnc;
  return o;
}

}  // namespace

std::string ExecUsageText() {
  return R"(usage: topolint exec [options] -- COMPILER ARGS...

Runs COMPILER ARGS... (a `neuronx-cc compile` command line) with topolint in
front: the input module (X.hlo_module.pb, X.pb, .hlo text, .gz) is checked,
with the nearest neuron_config.json above it and the .topolint.json that
applies, before the compiler runs; after a successful compile the module is
checked against the NEFF written (--output X, default file.neff). The LNC
comes from --lnc / --logical-nc-config / -lnc, else --target (trn2 and
later: 2). The compiler's arguments pass through untouched, and its exit
status, standard output and standard error are its own; topolint's report
goes to standard error (or -o FILE).

options:
  --on-error block|warn   block (default): topology errors stop the compile
                          (exit 1, the compiler is not run) and errors found
                          after a successful compile make the exit code 1;
                          warn: report them and keep the compiler's status
  -o, --output FILE       write topolint's report to FILE
  and the check options: --format text|github|json|sarif (json and sarif:
  one document for both checks), --rules, --werror, --lnc,
  --num-cores, --replica-count, --num-partitions, --config, --baseline,
  --color

exit codes: the compiler's (128 + N when signal N ended it); 1 when block
stopped on errors; 2 for a usage error, a compiler that cannot be started
or, under block, an input topolint cannot read.
)";
}

int RunExec(const std::vector<std::string>& args) {
  if (args.size() == 2 && (args[1] == "-h" || args[1] == "--help")) {
    std::fputs(ExecUsageText().c_str(), stdout);
    return kExitClean;
  }
  ExecSettings s;
  if (absl::Status st = ParseExec(args, &s); !st.ok()) {
    Err(fmt::format("topolint: error: {}\n", std::string(st.message())));
    return kExitUsage;
  }
  // A compiler that cannot be started is known before anything else runs.
  if (absl::StatusOr<std::string> program = ResolveProgram(s.compiler[0]);
      !program.ok()) {
    Err(fmt::format("topolint: error: {}\n",
                    std::string(program.status().message())));
    return kExitUsage;
  }
  int report_fd = STDERR_FILENO;
  if (!s.output.empty()) {
    report_fd =
        open(s.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (report_fd < 0) {
      Err(fmt::format("topolint: error: {}: cannot write the report\n",
                      s.output));
      return kExitUsage;
    }
  }
  // The report's phases; a json or sarif document is written however exec
  // returns from here on.
  ExecReport report(s.check, report_fd);
  absl::Cleanup write_report = [&report] { report.Finish(); };
  const bool block = s.on_error == OnError::kBlock;
  const std::vector<std::string> compiler_args(s.compiler.begin() + 1,
                                               s.compiler.end());
  const CompileLine line = ParseCompileLine(compiler_args);
  bool checked = line.is_compile && !line.input.empty();
  if (checked && !line.problem.empty()) {
    Err(fmt::format("topolint: warning: exec: {}\n", line.problem));
    checked = false;
  }
  if (checked && !line.framework.empty() &&
      !absl::EqualsIgnoreCase(line.framework, "XLA")) {
    checked = false;  // not an HLO module
  }

  if (checked) {
    const int rc = report.RunPhase(PhaseOptions(s, line));
    if (rc == kExitUsage) {
      Err(fmt::format("topolint: {}: exec: {} could not be checked{}\n",
                      block ? "error" : "warning", line.input,
                      block ? "; the compiler was not run (--on-error warn "
                              "runs it anyway)"
                            : ""));
      if (block) return kExitUsage;
    } else if (rc == kExitFindings && block) {
      Err(fmt::format(
          "topolint: error: exec: {} has topology errors; the compiler was "
          "not run (--on-error warn runs it anyway)\n",
          line.input));
      return kExitFindings;
    }
  }

  absl::StatusOr<int> status = RunChild(s.compiler);
  if (!status.ok()) {
    Err(fmt::format("topolint: error: {}\n",
                    std::string(status.status().message())));
    return kExitUsage;
  }
  if (!checked || *status != 0) return *status;

  std::error_code ec;
  if (!fs::is_regular_file(line.output, ec)) {
    Err(fmt::format(
        "topolint: warning: exec: the compiler wrote no {}; its output is "
        "not checked\n",
        line.output));
    return *status;
  }
  if (!absl::EndsWith(line.output, ".neff")) {
    Err(fmt::format(
        "topolint: warning: exec: {} is not named *.neff; its output is not "
        "checked\n",
        line.output));
    return *status;
  }
  // After the compile: the module against the NEFF. The findings of the
  // module and config alone were reported before compiling.
  Options after = PhaseOptions(s, line);
  after.neff = line.output;
  after.rule_globs.push_back("-hlo-*,-config-*,-unused-suppression");
  const int rc = report.RunPhase(after);
  if (rc == kExitFindings && block) {
    Err(fmt::format(
        "topolint: error: exec: the compiler succeeded, but {} disagrees "
        "with {} (exit 1 under --on-error block)\n",
        line.output, line.input));
    return kExitFindings;
  }
  if (rc == kExitUsage) {
    Err(fmt::format("topolint: {}: exec: {} could not be checked\n",
                    block ? "error" : "warning", line.output));
    if (block) return kExitUsage;
  }
  return *status;
}

}  // namespace topolint::cli
