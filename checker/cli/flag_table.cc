#include "checker/cli/flag_table.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_join.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

using K = ValueKind;
using S = absl::Status;
using V = const FlagValue&;

S Ok() { return absl::OkStatus(); }

constexpr unsigned kCheckExplainExec = kOnCheck | kOnExplain | kOnExec;
constexpr unsigned kCheckExec = kOnCheck | kOnExec;
constexpr unsigned kCheckExplain = kOnCheck | kOnExplain;

Format FormatNamed(const std::string& name) {
  static constexpr std::pair<std::string_view, Format> kFormats[] = {
      {"text", Format::kText},       {"json", Format::kJson},
      {"sarif", Format::kSarif},     {"github", Format::kGithub},
      {"junit", Format::kJunit},     {"gitlab", Format::kGitlab},
      {"concise", Format::kConcise}, {"html", Format::kHtml},
      {"svg", Format::kSvg}};
  for (const auto& [n, f] : kFormats) {
    if (n == name) return f;
  }
  return Format::kText;  // unreachable: the parser checked the choices
}

// Switches to help or version once: `--help --version` is help.
S AskFor(Options& o, Verb verb) {
  if (o.verb == Verb::kHelp || o.verb == Verb::kVersion) return Ok();
  if (verb == Verb::kHelp) o.help_for = o.verb;
  o.verb = verb;
  return Ok();
}

// clang-format off
const FlagRow kFlags[] = {
  {"--format", "", K::kChoice, "FORMAT",
   "text json sarif github junit gitlab concise html svg", kOnEvery, false, 0,
   "the report's format: text (default), json, sarif, github, junit, gitlab "
   "(Code Quality) or concise (one line per finding); explain writes text, "
   "json, html or svg (a picture of the device grids), rules text or json, "
   "exec text, github, json or sarif",
   [](Options& o, V v) { o.format = FormatNamed(v.text); return Ok(); }},
  {"--output", "-o", K::kFile, "FILE", "", kCheckExplainExec, false, 0,
   "write the report to FILE (staged, put in place at the end; never one of "
   "the inputs)",
   [](Options& o, V v) { o.output = v.text; return Ok(); }},
  {"--rules", "", K::kText, "GLOBS", "", kCheckExplainExec, true, 0,
   "select rules, clang-tidy style: '-*,neff-*,-neff-world-size' (later "
   "entries win; repeatable)",
   [](Options& o, V v) { o.rule_globs.push_back(v.text); return Ok(); }},
  {"--severity", "", K::kText, "RULE=LEVEL[,...]", "", kCheckExplainExec, true,
   0,
   "set a rule's severity: error, warning, note or off (over .topolint.json's "
   "\"severity\"; repeatable), e.g. unchecked-input=error",
   [](Options& o, V v) { o.severities.push_back(v.text); return Ok(); }},
  {"--werror", "", K::kNone, "", "", kCheckExplainExec, false, 0,
   "warnings count as errors",
   [](Options& o, V) { o.werror = true; return Ok(); }},
  {"--exit-zero", "", K::kNone, "", "", kCheckExec, false, 0,
   "report findings but exit 0 (advisory jobs); usage errors still exit 2",
   [](Options& o, V) { o.exit_zero = true; return Ok(); }},
  {"--whole-units", "", K::kNone, "", "", kCheckExplain, false, 0,
   "a FILE stands for its whole unit: the inputs of its directory, read as a "
   "directory search reads them (JSON of other kinds ignored); for pre-commit",
   [](Options& o, V) { o.whole_units = true; return Ok(); }},
  {"--sarif-root", "", K::kDir, "DIR", "", kCheckExec, false, 0,
   "the repository root every format names files from (default: the git work "
   "tree holding the current directory, else the current directory)",
   [](Options& o, V v) { o.sarif_root = v.text; return Ok(); }},
  {"--docs-url", "", K::kText, "URL", "", kCheckExec, false, 0,
   "the base of the rule pages (URL/<rule>.md) that SARIF helpUri and, on a "
   "terminal, the text format's [rule-id] links point to (an absolute URL; "
   "default: docs/rules of the topolint repository on GitHub)",
   [](Options& o, V v) {
     if (v.text.find("://") == std::string::npos) {
       return absl::InvalidArgumentError(fmt::format(
           "--docs-url must be an absolute URL (https://...), got '{}'",
           v.text));
     }
     o.docs_url = v.text;
     return Ok();
   }},
  {"--lnc", "", K::kInt, "N", "", kCheckExplainExec, false, 1,
   "numCoresPerLNC (default 1)",
   [](Options& o, V v) { o.lnc = v.number; return Ok(); }},
  {"--num-cores", "", K::kInt, "N", "", kCheckExplainExec, false, 1,
   "physical cores available",
   [](Options& o, V v) { o.num_cores = v.number; return Ok(); }},
  {"--replica-count", "", K::kInt, "N", "", kCheckExplainExec, false, 1,
   "replica count when the HLO header omits it",
   [](Options& o, V v) { o.replica_count = v.number; return Ok(); }},
  {"--num-partitions", "", K::kInt, "N", "", kCheckExplainExec, false, 1,
   "partitions when the HLO header omits it",
   [](Options& o, V v) { o.num_partitions = v.number; return Ok(); }},
  {"--data-parallel-size", "", K::kInt, "N", "", kCheckExplainExec, false, 1,
   "vLLM data-parallel size for configs that do not record it (an "
   "--additional-config JSON alone)",
   [](Options& o, V v) { o.data_parallel_size = v.number; return Ok(); }},
  {"--config", "", K::kFile, "FILE", "", kCheckExplainExec, false, 0,
   "settings file (default: the nearest .topolint.json upward from each "
   "input)",
   [](Options& o, V v) { o.config = v.text; return Ok(); }},
  {"--baseline", "", K::kFile, "FILE", "", kCheckExec, false, 0,
   "hide the findings recorded in FILE",
   [](Options& o, V v) { o.baseline = v.text; return Ok(); }},
  {"--write-baseline", "", K::kFile, "FILE", "", kOnCheck, false, 0,
   "record today's findings in FILE",
   [](Options& o, V v) { o.write_baseline = v.text; return Ok(); }},
  {"--hlo", "", K::kFile, "FILE", "", kCheckExplain, false, 0,
   "the HLO module of one unit named explicitly (with --neff and "
   "--neuron-config)",
   [](Options& o, V v) { o.hlo = v.text; return Ok(); }},
  {"--neff", "", K::kFile, "FILE", "", kCheckExplain, false, 0,
   "the def.json or .neff of that unit",
   [](Options& o, V v) { o.neff = v.text; return Ok(); }},
  {"--neuron-config", "", K::kFile, "FILE", "", kCheckExplain, false, 0,
   "the deployment config of that unit",
   [](Options& o, V v) { o.neuron_config = v.text; return Ok(); }},
  {"--jobs", "-j", K::kInt, "N", "", kCheckExplainExec, false, 1,
   "check N units in parallel (and classify files with N threads; at most "
   "256)",
   [](Options& o, V v) {
     o.jobs = static_cast<int>(std::min<int64_t>(v.number, 256));
     return Ok();
   }},
  {"--follow-symlinks", "", K::kNone, "", "", kCheckExplain, false, 0,
   "walk into symlinked directories (not followed by default)",
   [](Options& o, V) { o.follow_symlinks = true; return Ok(); }},
  {"--no-ignore", "", K::kNone, "", "", kCheckExplain, false, 0,
   "also search files that .gitignore (and .git/info/exclude) ignore in a "
   "git work tree",
   [](Options& o, V) { o.no_ignore = true; return Ok(); }},
  {"--verbose", "-v", K::kNone, "", "", kOnCheck, false, 0,
   "list what directory searches skipped, and why (stderr)",
   [](Options& o, V) { o.verbose = true; return Ok(); }},
  {"--stdin-filename", "", K::kFile, "NAME", "", kCheckExplain, false, 0,
   "name of the file read from `-`",
   [](Options& o, V v) { o.stdin_filename = v.text; return Ok(); }},
  {"--statistics", "", K::kNone, "", "", kCheckExec, false, 0,
   "print a count per rule (stderr)",
   [](Options& o, V) { o.statistics = true; return Ok(); }},
  {"--max-findings", "", K::kInt, "N", "", kCheckExplainExec, false, 0,
   "show at most N findings per rule and unit (default 1000; 0: no cap); the "
   "summary counts every finding",
   [](Options& o, V v) { o.max_findings = v.number; return Ok(); }},
  {"--quiet", "-q", K::kNone, "", "", kCheckExplainExec, false, 0,
   "no summary and no warnings on stderr",
   [](Options& o, V) { o.quiet = true; return Ok(); }},
  {"--color", "", K::kChoice, "auto|always|never", "auto always never",
   kCheckExec, false, 0,
   "colour in text output (default auto: a terminal, unless NO_COLOR)",
   [](Options& o, V v) {
     o.color = v.text == "always"  ? ColorMode::kAlways
               : v.text == "never" ? ColorMode::kNever
                                   : ColorMode::kAuto;
     return Ok();
   }},
  {"--core", "", K::kInt, "C", "", kOnExplain, false, 0,
   "resolve physical core C to its rank, group and position",
   [](Options& o, V v) { o.core = v.number; return Ok(); }},
  {"--fix", "", K::kNone, "", "", kOnCheck, false, 0,
   "apply the fixes that are certain, then report what remains "
   "(docs/fixes.md)",
   [](Options& o, V) { o.fix = true; return Ok(); }},
  {"--diff", "", K::kNone, "", "", kOnCheck, false, 0,
   "print those fixes as a unified diff; write nothing (exit 1 when there is "
   "one)",
   [](Options& o, V) { o.diff = true; return Ok(); }},
  {"--fix-from", "", K::kChoice, "hlo", "hlo", kOnCheck, false, 0,
   "with --fix / --diff, also rewrite a def.json topology[0] from the HLO "
   "(the HLO's groups are right)",
   [](Options& o, V v) { o.fix_from = v.text; return Ok(); }},
  {"--include", "", K::kText, "REGEX", "", kCheckExplain, true, 0,
   "check only files whose path (relative to the git work tree, else the "
   "current directory) matches REGEX (RE2, searched as pre-commit's `files`; "
   "repeatable)",
   [](Options& o, V v) { o.include.push_back(v.text); return Ok(); }},
  {"--exclude", "", K::kText, "REGEX", "", kCheckExplain, true, 0,
   "skip files whose path matches REGEX (as pre-commit's `exclude`; "
   "repeatable)",
   [](Options& o, V v) { o.exclude.push_back(v.text); return Ok(); }},
  {"--force-exclude", "", K::kNone, "", "", kCheckExplain, false, 0,
   "apply the filters to files named on the command line too (as ruff's)",
   [](Options& o, V) { o.force_exclude = true; return Ok(); }},
  {"--on-error", "", K::kChoice, "block|warn", "block warn", kOnExec, false, 0,
   "block (default): topology errors stop the compile (exit 1, the compiler "
   "is not run) and errors found after a successful compile make the exit "
   "code 1; warn: report them and keep the compiler's status",
   [](Options& o, V v) { o.on_error = v.text; return Ok(); }},
  {"--help", "-h", K::kNone, "", "", kOnEvery, false, 0,
   "this text (`topolint COMMAND --help`: that command's)",
   [](Options& o, V) { return AskFor(o, Verb::kHelp); }},
  {"--version", "-V", K::kNone, "", "", kOnEvery, false, 0,
   "print the version",
   [](Options& o, V) { return AskFor(o, Verb::kVersion); }},
};

const CommandRow kCommands[] = {
  {"check", Verb::kCheck, kOnCheck, "[options] [PATH...]",
   "check files and directories (the default command)",
   "Checks the collective topology of XLA HLO text and binary modules, NEFF "
   "def.json / .neff and model-parallel component configs. PATH is a file or "
   "a directory (searched recursively, compile caches and compiler work "
   "directories included: see docs/layouts.md for how files are grouped into "
   "units); none checks the current directory, as `ruff check` does. `-` "
   "reads one file from standard input (with --stdin-filename). A file named "
   "here that is no input topolint reads is an error (exit 2).",
   "0 no error-severity finding (or --exit-zero), 1 at least one, 2 usage "
   "error or unreadable input."},
  {"explain", Verb::kExplain, kOnExplain, "[options] [PATH...]",
   "show the model: groups, envelope, world size, ranks",
   "Prints what the rank model makes of each unit: its collectives' groups, "
   "the envelope, the world size and, with --lnc / --num-cores, the rank map; "
   "--format html or svg draws the device grids with the findings "
   "(docs/explain.md).",
   "0 explained, 2 usage error or unreadable input."},
  {"rules", Verb::kRules, kOnRules, "[RULE_ID] [--format text|json]",
   "list the rules; `topolint rules ID` prints rule ID's documentation",
   "Lists every rule with its default severity and summary; `topolint rules "
   "ID` prints the documentation page of rule ID (what it checks, why, "
   "examples, how to fix), the page each finding's [rule-id] names.",
   "0 listed, 2 unknown rule or usage error."},
  {"exec", Verb::kExec, kOnExec, "[options] -- COMPILER ARGS...",
   "check a compiler's input before it runs and the NEFF it writes after",
   "Runs COMPILER ARGS... (a `neuronx-cc compile` command line) with topolint "
   "in front: the input module (X.hlo_module.pb, X.pb, .hlo text, .gz) is "
   "checked, with the nearest neuron_config.json above it and the "
   ".topolint.json that applies, before the compiler runs; after a "
   "successful compile the module is checked against the NEFF written "
   "(--output X, default file.neff). The LNC comes from --lnc / "
   "--logical-nc-config / -lnc, else --target (trn2 and later: 2). The "
   "compiler's arguments pass through untouched, and its exit status, "
   "standard output and standard error are its own; topolint's report goes "
   "to standard error (or -o FILE). --fix, --diff and --fix-from are refused: "
   "exec never rewrites the module the compiler is about to compile.",
   "the compiler's (128 + N when signal N ended it); 1 when block stopped on "
   "errors; 2 for a usage error, a compiler that cannot be started, a report "
   "that cannot be written or, under block, an input topolint cannot read."},
  {"help", Verb::kHelp, 0, "[COMMAND]",
   "this overview, or COMMAND's options (as `topolint COMMAND --help`)", "",
   ""},
  {"version", Verb::kVersion, 0, "", "print the version (also -V, --version)",
   "", ""},
  {"completion", Verb::kCompletion, 0, "bash|zsh",
   "print a bash or zsh completion script (installed with topolint)", "", ""},
  {"man", Verb::kMan, 0, "", "print the manual page topolint.1 (roff)", "",
   ""},
};
// clang-format on

}  // namespace

absl::Span<const FlagRow> FlagTable() { return kFlags; }
absl::Span<const CommandRow> CommandTable() { return kCommands; }

const FlagRow* FindFlag(std::string_view spelled) {
  if (spelled.empty()) return nullptr;
  for (const FlagRow& f : kFlags) {
    if (f.name == spelled || (!f.alias.empty() && f.alias == spelled)) {
      return &f;
    }
  }
  return nullptr;
}

const CommandRow* FindCommand(std::string_view name) {
  for (const CommandRow& c : kCommands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const CommandRow* FindCommand(Verb verb) {
  for (const CommandRow& c : kCommands) {
    if (c.verb == verb) return &c;
  }
  return nullptr;
}

std::string JoinList(const std::vector<std::string>& items,
                     std::string_view conjunction) {
  if (items.size() <= 1) return absl::StrJoin(items, "");
  return fmt::format("{} {} {}",
                     absl::StrJoin(items.begin(), items.end() - 1, ", "),
                     conjunction, items.back());
}

absl::Status CheckFlagsApply(const Options& o, unsigned bit) {
  const CommandRow* here = nullptr;
  for (const CommandRow& c : kCommands) {
    if (c.bit == bit) here = &c;
  }
  for (const std::string& name : o.flags_given) {
    const FlagRow* f = FindFlag(name);
    if (f == nullptr || (f->verbs & bit) != 0 || here == nullptr) continue;
    std::vector<std::string> where;
    for (const CommandRow& c : kCommands) {
      if ((f->verbs & c.bit) != 0) {
        where.push_back(fmt::format("`topolint {}`", c.name));
      }
    }
    return absl::InvalidArgumentError(
        fmt::format("{} is an option of {}, not of `topolint {}` (see "
                    "`topolint {} --help`)",
                    name, JoinList(where, "and"), here->name, here->name));
  }
  return absl::OkStatus();
}

}  // namespace topolint::cli
