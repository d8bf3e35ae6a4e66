// Command-line options of `topolint`, and their parser.
#ifndef TOPOLINT_CHECKER_CLI_OPTIONS_H_
#define TOPOLINT_CHECKER_CLI_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace topolint::cli {

// The commands (flag_table.h's CommandTable); kHelp and kVersion also come
// from -h / --help and -V / --version.
enum class Verb {
  kCheck,
  kExplain,
  kRules,
  kExec,
  kHelp,
  kVersion,
  kCompletion,
  kMan
};
// kHtml and kSvg are formats of `explain` only.
enum class Format {
  kText,
  kJson,
  kSarif,
  kGithub,
  kJunit,
  kGitlab,
  kConcise,
  kHtml,
  kSvg
};
enum class ColorMode { kAuto, kAlways, kNever };

struct Options {
  Verb verb = Verb::kCheck;
  std::vector<std::string> paths;
  Format format = Format::kText;
  std::string output;                   // -o; "" = stdout
  std::vector<std::string> rule_globs;  // each --rules, in order
  // Each --severity RULE=LEVEL[,RULE=LEVEL...], in order: over the
  // settings file's "severity", as --rules over its "rules".
  std::vector<std::string> severities;
  bool werror = false;
  bool exit_zero = false;    // --exit-zero: report, but exit 0 on findings
  std::string sarif_root;    // --sarif-root: SARIF URIs relative to this
  std::string docs_url;      // --docs-url: base URL of the rule pages
  bool whole_units = false;  // --whole-units: check each file's whole unit
  std::optional<int64_t> lnc;
  // Where `lnc` comes from, as findings name it; "" = --lnc. (exec: the
  // compiler's LNC flag, or "the default LNC of --target=trn2".)
  std::string lnc_origin;
  std::optional<int64_t> num_cores;
  // exec only (no check option): the compiler's --target, and how findings
  // name it ("--target=trn1 on the compiler's command line").
  std::string target;
  std::string target_origin;
  std::optional<int64_t> replica_count;
  std::optional<int64_t> num_partitions;
  std::optional<int64_t> data_parallel_size;  // --data-parallel-size
  std::string config;                         // --config
  std::string baseline;
  std::string write_baseline;
  std::string hlo, neff, neuron_config;  // explicit unit
  int jobs = 1;
  bool quiet = false;
  bool statistics = false;
  bool verbose = false;          // list what directory searches skipped
  bool follow_symlinks = false;  // walk into directory symlinks
  bool no_ignore = false;        // --no-ignore: read .gitignore'd files
  ColorMode color = ColorMode::kAuto;
  std::string stdin_filename;
  std::optional<int64_t> core;  // explain --core
  std::string rule_id;          // rules ID
  // check --fix / --diff / --fix-from SIDE (docs/fixes.md).
  bool fix = false;
  bool diff = false;
  std::string fix_from;  // "" or "hlo"
  // Path filters (checker/core/path_filter.h): each --include / --exclude.
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  bool force_exclude = false;  // filters apply to files named too
  // --max-findings: findings shown per rule and unit (0: no cap); unset
  // keeps .topolint.json's "max_findings", else kMaxFindingsPerRule.
  std::optional<int64_t> max_findings;
  // exec: --on-error ("" = block) and the compiler's command line (the
  // arguments after `--`).
  std::string on_error;
  std::vector<std::string> command;
  // help: the command whose options to list (kHelp: the overview).
  Verb help_for = Verb::kHelp;
  std::string shell;  // completion: "bash" or "zsh"
  // The long name of every option given, in order (repeats included): what
  // CheckFlagsApply holds to the command.
  std::vector<std::string> flags_given;
};

// Parses argv (without argv[0]) by the flag table (flag_table.h). Errors
// are usage errors (exit 2). For exec, the checks of its own (exec_command.cc)
// and CheckFlagsApply are the caller's.
absl::StatusOr<Options> ParseOptions(const std::vector<std::string>& args);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_OPTIONS_H_
