// The command line as data: one row per option and one per command, as
// ninja's kLongOptions. The parser (options.cc), every --help text, the
// bash and zsh completions and the manual page (cli_docs.h) are read from
// these tables, and tests/cli/flag_table_test.cc holds
// docs/reference/cli.md to them: an option exists here, or nowhere.
#ifndef TOPOLINT_CHECKER_CLI_FLAG_TABLE_H_
#define TOPOLINT_CHECKER_CLI_FLAG_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "checker/cli/options.h"

namespace topolint::cli {

// The commands an option applies to, as a bit set.
enum VerbBit : unsigned {
  kOnCheck = 1u << 0,
  kOnExplain = 1u << 1,
  kOnRules = 1u << 2,
  kOnExec = 1u << 3,
  kOnEvery = kOnCheck | kOnExplain | kOnRules | kOnExec,
};

// What follows an option.
enum class ValueKind {
  kNone,    // a switch: --werror
  kText,    // any text: --rules GLOBS
  kFile,    // a file name, never empty: --config FILE
  kDir,     // a directory: --sarif-root DIR
  kInt,     // an integer >= FlagRow::min: --lnc N
  kChoice,  // one of FlagRow::choices: --color auto|always|never
};

// A parsed value: the text given and, for kInt, its number.
struct FlagValue {
  std::string text;
  int64_t number = 0;
};

struct FlagRow {
  std::string_view name;   // "--format"
  std::string_view alias;  // "-o", or "" (always one dash, one letter)
  ValueKind kind;
  std::string_view value_name;  // "FORMAT", "FILE", "N", "auto|always|never"
  std::string_view choices;     // kChoice: the values, space-separated
  unsigned verbs;               // VerbBit: where it applies
  bool repeatable;              // collects every value given (--rules)
  int64_t min;                  // kInt: the smallest value accepted
  std::string_view help;        // one paragraph; renderers wrap it
  // Stores the value (already checked against kind, choices and min);
  // an error is a usage error. Never null.
  absl::Status (*set)(Options& o, const FlagValue& v);
};

// Every option, in the order --help lists them.
absl::Span<const FlagRow> FlagTable();

// The row of `spelled` (a name such as "--format", or an alias such as
// "-o"); null when there is none.
const FlagRow* FindFlag(std::string_view spelled);

struct CommandRow {
  std::string_view name;  // "check"
  Verb verb;
  unsigned bit;               // its VerbBit; 0 for commands without options
  std::string_view synopsis;  // "[options] [PATH...]"
  std::string_view summary;   // one line for the command list
  // What --help says of it after the usage line (may be empty).
  std::string_view description;
  // Its exit codes, as --help and the manual page give them.
  std::string_view exit_codes;
};

// Every command (check first: the default), in the order help lists them.
absl::Span<const CommandRow> CommandTable();

// The row of the command named `name`, or of `verb`; null when none.
const CommandRow* FindCommand(std::string_view name);
const CommandRow* FindCommand(Verb verb);

// "a, b or c" for `conjunction` "or"; "a" for one item.
std::string JoinList(const std::vector<std::string>& items,
                     std::string_view conjunction);

// Usage error unless every option in `o.flags_given` applies to the
// command `bit` ("--core is an option of `topolint explain`").
absl::Status CheckFlagsApply(const Options& o, unsigned bit);

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_FLAG_TABLE_H_
