// The compiler flags of one Neuron compile-cache entry (`compile_flags.json`)
// as located data: what they say about the module's LNC and target.
#ifndef TOPOLINT_CHECKER_CONFIG_COMPILE_FLAGS_H_
#define TOPOLINT_CHECKER_CONFIG_COMPILE_FLAGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/diag/location.h"

namespace topolint::config {

// What one compile_flags.json says. The file is a JSON list of argv strings
// (`["--target=trn2", "--lnc=2"]`), or one string that is split the way a
// shell splits it; a list element holding several words ("--lnc 2") is split
// too. The last flag of a kind wins, as in argv.
struct CompileFlags {
  std::string file;  // display name
  // The LNC the flags give the compiler: an explicit `--lnc=N`, `--lnc N`,
  // `-lnc N`, `--logical-nc-config=N` / `--logical-nc-config N`; otherwise 2
  // when the target is trn2 or later (the compiler's default there), with
  // `lnc_from_target` set. Unset when neither says anything.
  std::optional<int64_t> lnc;
  bool lnc_from_target = false;
  Location lnc_loc;    // the LNC flag (or the --target flag it comes from)
  std::string target;  // `--target` value ("" when absent)
  Location target_loc;
  std::vector<std::string> args;  // the tokens, in order
  // Set when the file could not be read as flags (not JSON, not a list of
  // strings, an LNC value that is no positive integer); the fields above
  // then hold what could be read. `problem_loc` points at the culprit.
  std::string problem;
  Location problem_loc;
  bool json_syntax_error = false;  // `problem` is a JSON syntax error
};

// Reads compile_flags.json text. Never fails: a malformed file comes back
// with `problem` set.
CompileFlags ParseCompileFlags(std::string_view text, const std::string& file);

// Splits `s` into words as a POSIX shell would (single and double quotes,
// backslash escapes; no expansion). Each word's byte offset in `s` goes to
// `offsets` when it is given.
std::vector<std::string> SplitShellWords(std::string_view s,
                                         std::vector<size_t>* offsets);

// True for trn2, trn2n, trn3, ...: targets whose default LNC is 2.
bool TargetDefaultsToLnc2(std::string_view target);

}  // namespace topolint::config

#endif  // TOPOLINT_CHECKER_CONFIG_COMPILE_FLAGS_H_
