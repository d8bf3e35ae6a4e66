#include "checker/cli/options.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "checker/cli/flag_table.h"
#include "checker/core/path_filter.h"
#include "checker/diag/spelling.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

absl::Status Usage(const std::string& msg) {
  return absl::InvalidArgumentError(msg);
}

// "; did you mean '--format'?" for the option nearest to `spelled` (an
// unknown option, with its dashes), else "".
std::string SuggestFlag(std::string_view spelled) {
  std::string typed(spelled);
  absl::AsciiStrToLower(&typed);
  // "-format" and "format" mean "--format" as much as "--formt" does.
  const size_t dashes = std::min<size_t>(typed.find_first_not_of('-'), 2);
  typed.erase(0, dashes);
  std::vector<std::string_view> names;
  for (const FlagRow& f : FlagTable()) names.push_back(f.name.substr(2));
  const std::string best =
      NearestSpelling(typed, names, TypoLimit(typed.size()));
  return best.empty() ? "" : fmt::format("; did you mean '--{}'?", best);
}

// The command nearest to `typed` ("check" for "chek"), else "".
std::string SuggestCommand(std::string_view typed) {
  std::vector<std::string_view> names;
  for (const CommandRow& c : CommandTable()) names.push_back(c.name);
  std::string lower(typed);
  absl::AsciiStrToLower(&lower);
  return NearestSpelling(lower, names, TypoLimit(lower.size()));
}

// Checks `text` against a kChoice row's values.
absl::Status CheckChoice(const FlagRow& f, const std::string& text) {
  const std::vector<std::string> choices =
      absl::StrSplit(absl::string_view(f.choices.data(), f.choices.size()), ' ',
                     absl::SkipEmpty());
  std::vector<std::string_view> names;
  for (const std::string& c : choices) {
    if (c == text) return absl::OkStatus();
    names.push_back(c);
  }
  const std::string best = NearestSpelling(text, names, TypoLimit(text.size()));
  const std::string hint =
      best.empty() ? "" : fmt::format("; did you mean '{}'?", best);
  if (choices.size() == 1) {
    return Usage(fmt::format("{} expects '{}', got '{}'{}", f.name, choices[0],
                             text, hint));
  }
  return Usage(fmt::format("{} must be {}, got '{}'{}", f.name,
                           JoinList(choices, "or"), text, hint));
}

// The parser's state across options: the value each single-valued option
// was given (by its long name).
struct FlagParser {
  const std::vector<std::string>& args;
  std::map<std::string, std::string, std::less<>> single_values;

  // Reads the option at args[*i] (and its value) into `o`.
  absl::Status Parse(size_t* i, Options* o) {
    std::string a = args[*i];
    std::string value;
    bool has_inline = false;
    if (absl::StartsWith(a, "--")) {
      if (size_t eq = a.find('='); eq != std::string::npos) {
        value = a.substr(eq + 1);
        a = a.substr(0, eq);
        has_inline = true;
      }
    } else if (a.size() > 2) {
      // -j8: a short option's value may follow it in the same word.
      const FlagRow* f = FindFlag(a.substr(0, 2));
      if (f != nullptr && f->kind != ValueKind::kNone) {
        value = a.substr(2);
        a = a.substr(0, 2);
        has_inline = true;
      }
    }
    const FlagRow* f = FindFlag(a);
    if (f == nullptr) {
      return Usage(
          fmt::format("unknown option '{}'{} (see --help)", a, SuggestFlag(a)));
    }
    o->flags_given.emplace_back(f->name);
    if (f->kind == ValueKind::kNone) {
      if (has_inline) {
        return Usage(fmt::format("{} takes no value, got '{}'", a, value));
      }
      return f->set(*o, FlagValue{});
    }
    if (!has_inline) {
      if (*i + 1 >= args.size()) return Usage(a + " needs a value");
      value = args[++*i];
    }
    // An option that holds one value, given twice with two values, would
    // silently drop one (`--hlo BAD --hlo GOOD` checked only GOOD).
    if (!f->repeatable) {
      auto [it, fresh] = single_values.emplace(f->name, value);
      if (!fresh && it->second != value) {
        return Usage(fmt::format(
            "{} given twice ('{}' and '{}'): it takes one value; give it once",
            f->name, it->second, value));
      }
    }
    FlagValue v{value, 0};
    switch (f->kind) {
      case ValueKind::kFile:
        // An empty name is a usage error, not "no such file" later (or,
        // for -o, "write to stdout").
        if (value.empty()) {
          return Usage(fmt::format("{} needs a file name, got ''", a));
        }
        break;
      case ValueKind::kInt:
        if (!absl::SimpleAtoi(value, &v.number) || v.number < f->min) {
          return Usage(fmt::format("{} expects an integer >= {}, got '{}'", a,
                                   f->min, value));
        }
        break;
      case ValueKind::kChoice:
        if (absl::Status st = CheckChoice(*f, value); !st.ok()) return st;
        break;
      case ValueKind::kNone:
      case ValueKind::kText:
      case ValueKind::kDir:
        break;
    }
    return f->set(*o, v);
  }
};

bool PathExists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::symlink_status(path, ec).type() !=
         std::filesystem::file_type::not_found;
}

// The command named by the first argument, or where that argument is a
// path (check, the default). A word that is no file and is near a command's
// name was that command mistyped.
absl::Status ReadCommand(const std::string& first, Options* o, size_t* next) {
  if (const CommandRow* c = FindCommand(first)) {
    o->verb = c->verb;
    *next = 1;
    return absl::OkStatus();
  }
  *next = 0;
  if (first.empty() || first[0] == '-' || PathExists(first)) {
    return absl::OkStatus();
  }
  const std::string best = SuggestCommand(first);
  if (best.empty()) return absl::OkStatus();
  return Usage(fmt::format(
      "'{}' is neither a command nor a file; did you mean `topolint {}`? "
      "(see `topolint help`)",
      first, best));
}

// An argument that is no option: a PATH, the RULE_ID of `rules`, the
// COMMAND of `help`, the shell of `completion`.
absl::Status AddOperand(const std::string& a, bool help_command, Options* o) {
  if (help_command) {
    const CommandRow* c = FindCommand(a);
    if (c == nullptr || o->help_for != Verb::kHelp) {
      const std::string best = SuggestCommand(a);
      return Usage(fmt::format(
          "`help` takes one COMMAND ({}), got '{}'{}",
          "check, explain, rules, exec, help, version, completion or man", a,
          best.empty() ? "" : fmt::format("; did you mean '{}'?", best)));
    }
    o->help_for = c->verb;
    return absl::OkStatus();
  }
  switch (o->verb) {
    case Verb::kRules:
      if (!o->rule_id.empty()) {
        return Usage("`rules` takes at most one RULE_ID");
      }
      o->rule_id = a;
      return absl::OkStatus();
    case Verb::kCompletion:
      if (!o->shell.empty() || (a != "bash" && a != "zsh")) {
        return Usage(fmt::format(
            "`completion` takes one shell, bash or zsh, got '{}'", a));
      }
      o->shell = a;
      return absl::OkStatus();
    case Verb::kVersion:
    case Verb::kMan:
      if (o->flags_given.empty()) {
        return Usage(fmt::format("`topolint {}` takes no argument, got '{}'",
                                 FindCommand(o->verb)->name, a));
      }
      return absl::OkStatus();
    default:
      o->paths.push_back(a);
      return absl::OkStatus();
  }
}

// What check and explain read, and the options that go together: PATH
// defaults to `.`, `-` once and named, --fix / --diff with check only.
absl::Status CheckInputs(Options* options) {
  Options& o = *options;
  bool explicit_unit =
      !o.hlo.empty() || !o.neff.empty() || !o.neuron_config.empty();
  // As `ruff check`: no PATH checks the current directory.
  if (o.paths.empty() && !explicit_unit) o.paths.push_back(".");
  int dashes = 0;
  for (const std::string& p : o.paths) dashes += p == "-";
  if (dashes > 1) return Usage("`-` (standard input) may be given once");
  if (dashes == 1 && o.stdin_filename.empty()) {
    return Usage("reading `-` needs --stdin-filename NAME");
  }
  if (o.core.has_value() && o.verb != Verb::kExplain) {
    return Usage("--core is an option of `topolint explain`");
  }
  if ((o.fix || o.diff) && o.verb != Verb::kCheck) {
    return Usage("--fix and --diff are options of `topolint check`");
  }
  if (!o.fix_from.empty() && !o.fix && !o.diff) {
    return Usage("--fix-from needs --fix or --diff");
  }
  if ((o.fix || o.diff) && dashes == 1) {
    return Usage(
        "--fix and --diff edit files: standard input (`-`) cannot "
        "be fixed");
  }
  if ((o.format == Format::kHtml || o.format == Format::kSvg) &&
      o.verb != Verb::kExplain) {
    return Usage(
        "--format html and svg are formats of `topolint explain`; check "
        "writes text, json, sarif, github, junit, gitlab or concise");
  }
  return absl::OkStatus();
}

// The options read, checked together; `o` gets the defaults they imply.
absl::Status CheckCombination(Options* options) {
  Options& o = *options;
  if (o.verb == Verb::kCompletion && o.shell.empty()) {
    return Usage("`completion` needs a shell: bash or zsh");
  }
  for (const auto& [flag, patterns] :
       {std::make_pair("--include", &o.include),
        std::make_pair("--exclude", &o.exclude)}) {
    for (const std::string& p : *patterns) {
      if (auto re = CompilePathPattern(p, flag); !re.ok()) return re.status();
    }
  }
  if (o.verb == Verb::kCheck || o.verb == Verb::kExplain) {
    if (absl::Status st = CheckInputs(&o); !st.ok()) return st;
  }
  const CommandRow* c = FindCommand(o.verb);
  if (c != nullptr && c->bit == 0 && o.verb != Verb::kHelp &&
      o.verb != Verb::kVersion && !o.flags_given.empty()) {
    return Usage(fmt::format("`topolint {}` takes no option, got {}", c->name,
                             o.flags_given[0]));
  }
  // exec's own checks come first (exec_command.cc), then this one.
  if (c != nullptr && c->bit != 0 && o.verb != Verb::kExec) {
    if (absl::Status st = CheckFlagsApply(o, c->bit); !st.ok()) return st;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Options> ParseOptions(const std::vector<std::string>& args) {
  Options o;
  if (args.empty()) {
    // `topolint` alone is a question, not a check of the current directory.
    return Usage(
        "nothing to do: `topolint check [PATH...]` checks PATH (default: the "
        "current directory); see `topolint --help`");
  }
  size_t i = 0;
  if (absl::Status st = ReadCommand(args[0], &o, &i); !st.ok()) return st;
  const bool command_named = i == 1;
  const bool help_command = o.verb == Verb::kHelp;
  bool only_paths = false;
  FlagParser flags{args, {}};
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!only_paths && a == "--") {
      if (o.verb == Verb::kExec) {
        // exec: the compiler's command line, untouched.
        o.command.assign(args.begin() + i + 1, args.end());
        break;
      }
      only_paths = true;
      continue;
    }
    if (only_paths || a == "-" || a.empty() || a[0] != '-') {
      if (absl::Status st =
              AddOperand(a, help_command && o.verb == Verb::kHelp, &o);
          !st.ok()) {
        return st;
      }
      continue;
    }
    if (absl::Status st = flags.Parse(&i, &o); !st.ok()) return st;
  }
  // `topolint --help` (no command named) is the overview.
  if (o.verb == Verb::kHelp && !command_named) o.help_for = Verb::kHelp;
  if (absl::Status st = CheckCombination(&o); !st.ok()) return st;
  return o;
}

}  // namespace topolint::cli
