// What `topolint exec` reads from a compiler's command line: the
// `neuronx-cc compile` arguments that say what is compiled, into what, and
// for which LNC (docs/integration.md, "In the compile path").
#ifndef TOPOLINT_CHECKER_CLI_EXEC_COMPILE_LINE_H_
#define TOPOLINT_CHECKER_CLI_EXEC_COMPILE_LINE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace topolint::cli {

struct CompileLine {
  // `compile` is among the arguments (its first positional one): other
  // subcommands (`list-operators`, `--help`, `--version`) are run
  // unchecked.
  bool is_compile = false;
  // The module compiled: the first positional argument after `compile`
  // whose name ends in .pb, .pb.gz, .hlo, .hlo.txt or .gz; "" when none.
  std::string input;
  // --output X / --output=X; the compiler's default "file.neff" when absent.
  std::string output = "file.neff";
  // --lnc N, --logical-nc-config N, -lnc N (and the `=` forms); else the
  // target's default (2 for trn2 and later, 1 for trn1 / inf2); else none.
  std::optional<int64_t> lnc;
  std::string lnc_source;  // "--lnc=2", "--target=trn2 (default LNC 2)"
  std::string target;      // --target
  std::string framework;   // --framework ("" = not given)
  std::string workdir;     // --workdir
  // A value topolint needs that does not parse (`--lnc two`): the checks
  // are skipped with this warning, the compiler still decides.
  std::string problem;
};

// Reads `args` (the compiler's arguments, without the compiler itself).
// Never fails: what it does not know passes through untouched.
CompileLine ParseCompileLine(const std::vector<std::string>& args);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_EXEC_COMPILE_LINE_H_
