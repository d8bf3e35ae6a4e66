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

// `topolint --help` (kHelp: the overview, with check's options) or
// `topolint COMMAND --help` (that command's usage and options).
std::string UsageText(Verb verb = Verb::kHelp);

// `text` wrapped at 79 columns, every line but the first indented by
// `indent` spaces, the first starting at column `first_column`.
std::string WrapText(std::string_view text, size_t indent, size_t first_column);

// `topolint completion bash`: a script for bash-completion's
// completions/ directory (or to source), defining _topolint.
std::string BashCompletion();
// `topolint completion zsh`: a script for a directory of $fpath (_topolint).
std::string ZshCompletion();
// `topolint man`: topolint.1, in man(7) roff.
std::string ManPage(std::string_view version);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_CLI_DOCS_H_
