// What the command line tells about itself, all read from the flag and
// command tables (flag_table.h): the --help texts (help_text.cc), the bash
// and zsh completions and the manual page (shell_files.cc). CMake runs
// `topolint completion bash|zsh` and `topolint man` to install them.
#ifndef TOPOLINT_CHECKER_CLI_CLI_DOCS_H_
#define TOPOLINT_CHECKER_CLI_CLI_DOCS_H_

#include <string>
#include <string_view>

#include "checker/cli/options.h"

namespace topolint::cli {

// Where the rule pages are, as --help and the manual page say it.
inline constexpr std::string_view kRuleDocs =
    "Each finding names its rule, [rule-id]: `topolint rules ID` prints that "
    "rule's documentation (what it checks, why, examples, how to fix), and "
    "`topolint rules` lists every rule.";

// `topolint --help` (kHelp: the overview, with check's options) or
// `topolint COMMAND --help` (that command's usage and options).
std::string UsageText(Verb verb = Verb::kHelp);

// `topolint completion bash`: a script for bash-completion's
// completions/ directory (or to source), defining _topolint.
std::string BashCompletion();
// `topolint completion zsh`: a script for a directory of $fpath (_topolint).
std::string ZshCompletion();
// `topolint man`: topolint.1, in man(7) roff.
std::string ManPage(std::string_view version);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_CLI_DOCS_H_
