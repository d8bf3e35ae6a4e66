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
  // --lnc N, --logical-nc-config N, -lnc N (and the `=` forms; the last
  // one given counts, as the compiler's argument parser takes it); else
  // the target's default (2 for trn2 and later, 1 for trn1 / inf2); else
  // none.
  std::optional<int64_t> lnc;
  // Where `lnc` comes from, as findings name it: the flag as the user gave
  // it ("--lnc 2", "--logical-nc-config=2") or "the default LNC of
  // --target=trn2".
  std::string lnc_source;
  std::string target;     // --target
  std::string framework;  // --framework ("" = not given)
  // The positional arguments after `compile` (the input, or what stands
  // where it would: a checkpoint directory, an NKI kernel `.py`).
  std::vector<std::string> positionals;
  std::string logfile;  // --logfile ("" = none)
  // Every argument, and the VALUE of every `--flag=VALUE`: whatever may
  // name a file the compiler reads or writes. topolint's -o file must be
  // none of them.
  std::vector<std::string> arguments;
  // A value topolint needs that does not parse (`--lnc two`, unless a
  // later LNC flag replaces it): the checks are skipped with this
  // warning, the compiler still decides.
  std::string problem;
};

// Reads `args` (the compiler's arguments, without the compiler itself).
// Never fails: what it does not know passes through untouched.
CompileLine ParseCompileLine(const std::vector<std::string>& args);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_EXEC_COMPILE_LINE_H_
