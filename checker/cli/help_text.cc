// The --help texts, from the flag and command tables.
#include <string>

#include "absl/strings/str_split.h"
#include "checker/cli/cli_docs.h"
#include "checker/cli/flag_table.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

constexpr size_t kWidth = 79;
constexpr size_t kHelpColumn = 34;  // where an option's help starts

// `text` wrapped at kWidth columns, every line but the first indented by
// `indent` spaces, the first starting at column `first_column`.
std::string WrapText(std::string_view text, size_t indent,
                     size_t first_column) {
  std::string out;
  size_t column = first_column;
  bool line_empty = true;
  for (absl::string_view word :
       absl::StrSplit(absl::string_view(text.data(), text.size()), ' ',
                      absl::SkipEmpty())) {
    if (!line_empty && column + 1 + word.size() > kWidth) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    out.append(word.data(), word.size());
    column += word.size();
    line_empty = false;
  }
  return out;
}

// "  -o, --output FILE".
std::string OptionLabel(const FlagRow& f) {
  std::string out = "  ";
  if (!f.alias.empty()) out += fmt::format("{}, ", f.alias);
  out += f.name;
  if (!f.value_name.empty()) out += fmt::format(" {}", f.value_name);
  return out;
}

std::string OptionRows(unsigned bit) {
  std::string out;
  for (const FlagRow& f : FlagTable()) {
    if ((f.verbs & bit) == 0) continue;
    std::string label = OptionLabel(f);
    if (label.size() + 2 > kHelpColumn) {
      out += label + "\n" + std::string(kHelpColumn, ' ');
    } else {
      label.resize(kHelpColumn, ' ');
      out += label;
    }
    out += WrapText(f.help, kHelpColumn, kHelpColumn) + "\n";
  }
  return out;
}

// "usage: topolint explain [options] [PATH...]" (check: "[check]").
std::string UsageLine(const CommandRow& c) {
  const std::string name =
      c.verb == Verb::kCheck ? "[check]" : std::string(c.name);
  return c.synopsis.empty() ? fmt::format("topolint {}", name)
                            : fmt::format("topolint {} {}", name, c.synopsis);
}

// The end of `c`'s help: its options (headed `title`), where the rule pages
// are, and its exit codes.
std::string OptionsAndExitCodes(const CommandRow& c, std::string_view title) {
  std::string out;
  if (c.bit != 0) {
    out += fmt::format("\n{}:\n{}\n{}\n", title, OptionRows(c.bit),
                       WrapText(kRuleDocs, 0, 0));
  }
  if (!c.exit_codes.empty()) {
    out += "\n" + WrapText(fmt::format("exit codes: {}", c.exit_codes), 0, 0) +
           "\n";
  }
  return out;
}

std::string Overview() {
  std::string out;
  const char* lead = "usage: ";
  for (const CommandRow& c : CommandTable()) {
    out += fmt::format("{:<7}{}\n", lead, UsageLine(c));
    lead = "";
  }
  const CommandRow& check = CommandTable()[0];
  out += "\n" + WrapText(check.description, 0, 0) + "\n\ncommands:\n";
  for (const CommandRow& c : CommandTable()) {
    out += fmt::format("  {:<12}{}\n", c.name, WrapText(c.summary, 14, 14));
  }
  return out + OptionsAndExitCodes(check,
                                   "options of check (`topolint COMMAND "
                                   "--help` lists another command's)");
}

}  // namespace

std::string UsageText(Verb verb) {
  const CommandRow* c = FindCommand(verb);
  if (verb == Verb::kHelp || c == nullptr) return Overview();
  std::string out = fmt::format("usage: {}\n\n", UsageLine(*c));
  out += WrapText(c->description.empty() ? c->summary : c->description, 0, 0) +
         "\n";
  return out + OptionsAndExitCodes(*c, "options");
}

}  // namespace topolint::cli
