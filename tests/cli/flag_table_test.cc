// The flag table (checker/cli/flag_table.h) is the command line: the parser,
// each command's --help, the completions and the manual page come from it,
// and docs/reference/cli.md documents exactly its options.
#include "checker/cli/flag_table.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "checker/cli/cli_docs.h"
#include "checker/cli/options.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "re2/re2.h"
#include "tests/common/run_cli.h"

namespace topolint::cli {
namespace {

using ::testing::HasSubstr;

std::set<std::string> TableSpellings() {
  std::set<std::string> out;
  for (const FlagRow& f : FlagTable()) {
    out.emplace(f.name);
    if (!f.alias.empty()) out.emplace(f.alias);
  }
  return out;
}

// The options named in the first column of cli.md's tables.
std::set<std::string> DocumentedSpellings() {
  std::ifstream in(std::string(TOPOLINT_SOURCE_DIR) + "/docs/reference/cli.md");
  std::set<std::string> out;
  static const RE2 kFlag(R"((?:^|[^\w-])(--?[A-Za-z][A-Za-z-]*))");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    // The first cell: up to the first '|' that is not escaped.
    size_t end = 1;
    while ((end = line.find('|', end + 1)) != std::string::npos &&
           line[end - 1] == '\\') {
    }
    re2::StringPiece cell(line.data() + 1, end - 1);
    std::string name;
    while (RE2::FindAndConsume(&cell, kFlag, &name)) out.insert(name);
  }
  return out;
}

TEST(FlagTableTest, DocsListExactlyTheTablesOptions) {
  const std::set<std::string> table = TableSpellings();
  const std::set<std::string> docs = DocumentedSpellings();
  for (const std::string& f : table) {
    EXPECT_EQ(docs.count(f), 1u) << f << " is not in docs/reference/cli.md";
  }
  for (const std::string& f : docs) {
    EXPECT_EQ(table.count(f), 1u) << f << " is documented but no option";
  }
}

TEST(FlagTableTest, RowsAreWellFormed) {
  std::set<std::string> seen;
  for (const FlagRow& f : FlagTable()) {
    EXPECT_EQ(f.name.substr(0, 2), "--") << f.name;
    EXPECT_TRUE(seen.emplace(f.name).second) << f.name;
    if (!f.alias.empty()) {
      EXPECT_EQ(f.alias.size(), 2u) << f.alias;
      EXPECT_TRUE(seen.emplace(f.alias).second) << f.alias;
    }
    EXPECT_NE(f.verbs, 0u) << f.name;
    EXPECT_FALSE(f.help.empty()) << f.name;
    EXPECT_NE(f.set, nullptr) << f.name;
    EXPECT_EQ(f.kind == ValueKind::kNone, f.value_name.empty()) << f.name;
    EXPECT_EQ(f.kind == ValueKind::kChoice, !f.choices.empty()) << f.name;
  }
}

// The option labels of a --help text ("  -o, --output FILE" lines).
std::set<std::string> HelpLabels(const std::string& help) {
  std::set<std::string> out;
  std::istringstream in(help);
  std::string line;
  static const RE2 kLabel(R"(^  (?:-[A-Za-z], )?(--[a-z-]+))");
  while (std::getline(in, line)) {
    std::string name;
    if (RE2::PartialMatch(line, kLabel, &name)) out.insert(name);
  }
  return out;
}

TEST(FlagTableTest, EachCommandsHelpListsItsOptions) {
  for (const CommandRow& c : CommandTable()) {
    if (c.bit == 0) continue;
    const std::set<std::string> labels = HelpLabels(UsageText(c.verb));
    for (const FlagRow& f : FlagTable()) {
      EXPECT_EQ(labels.count(std::string(f.name)), (f.verbs & c.bit) ? 1u : 0u)
          << c.name << " --help and " << f.name;
    }
    EXPECT_THAT(UsageText(c.verb), HasSubstr("`topolint rules ID`"));
  }
  // The overview: every command, check's options, where rule docs are.
  const std::string overview = UsageText(Verb::kHelp);
  for (const CommandRow& c : CommandTable()) {
    EXPECT_THAT(overview, HasSubstr("\n  " + std::string(c.name) + " "));
  }
  EXPECT_THAT(overview, HasSubstr("`topolint rules ID` prints that rule's"));
  EXPECT_EQ(HelpLabels(overview), HelpLabels(UsageText(Verb::kCheck)));
}

TEST(FlagTableTest, HelpLinesFitEightyColumns) {
  for (const CommandRow& c : CommandTable()) {
    std::istringstream in(UsageText(c.verb));
    std::string line;
    while (std::getline(in, line)) {
      EXPECT_LE(line.size(), 79u) << c.name << ": " << line;
    }
  }
}

std::string RoffName(std::string_view name) {
  std::string out;
  for (char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

TEST(FlagTableTest, CompletionsAndManPageCarryEveryOption) {
  const std::string bash = BashCompletion(), zsh = ZshCompletion(),
                    man = ManPage("9.9.9");
  for (const FlagRow& f : FlagTable()) {
    EXPECT_THAT(bash, HasSubstr(" " + std::string(f.name))) << f.name;
    EXPECT_THAT(zsh, HasSubstr(std::string(f.name))) << f.name;
    EXPECT_THAT(man, HasSubstr("\\fB" + RoffName(f.name) + "\\fR")) << f.name;
    if (!f.alias.empty()) {
      EXPECT_THAT(bash, HasSubstr(" " + std::string(f.alias))) << f.alias;
      EXPECT_THAT(zsh, HasSubstr("{" + std::string(f.alias))) << f.alias;
      EXPECT_THAT(man, HasSubstr("\\fB" + RoffName(f.alias) + "\\fR"));
    }
  }
  for (const CommandRow& c : CommandTable()) {
    EXPECT_THAT(bash, HasSubstr(std::string(c.name))) << c.name;
    EXPECT_THAT(zsh, HasSubstr("'" + std::string(c.name) + ":")) << c.name;
  }
  EXPECT_THAT(zsh, HasSubstr("#compdef topolint"));
  EXPECT_THAT(bash, HasSubstr("complete -F _topolint topolint"));
  EXPECT_THAT(man, HasSubstr("topolint 9.9.9"));
}

bool Have(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) ==
         0;
}

// Runs `command` through sh; returns its exit code, `*err` its stderr.
int Sh(const std::string& command, std::string* out) {
  testing::TempDir d;
  const std::string capture = d.path() + "/out";
  const int status = std::system((command + " >" + capture + " 2>&1").c_str());
  *out = testing::ReadAll(capture);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(FlagTableTest, ManPagePassesGroffWarnings) {
  if (!Have("groff")) GTEST_SKIP() << "no groff (Debian groff-base)";
  testing::TempDir d;
  const std::string page = d.Write("topolint.1", ManPage("0.0.0"));
  std::string out;
  EXPECT_EQ(Sh("groff -man -ww -z " + testing::ShellQuote(page), &out), 0);
  EXPECT_EQ(out, "");
  if (Have("man")) {
    // Its warnings (standard error) only.
    EXPECT_EQ(Sh("(MANWIDTH=80 man --warnings -l " + testing::ShellQuote(page) +
                     " 2>&1 >/dev/null)",
                 &out),
              0);
    EXPECT_EQ(out, "");
  }
}

TEST(FlagTableTest, BashCompletionCompletes) {
  if (!Have("bash")) GTEST_SKIP() << "no bash";
  testing::TempDir d;
  const std::string script = d.Write("topolint.bash", BashCompletion());
  std::string out;
  ASSERT_EQ(Sh("bash -n " + testing::ShellQuote(script), &out), 0) << out;
  auto complete = [&](const std::string& words, int cword) {
    std::string got;
    Sh("cd " + testing::ShellQuote(d.path()) + " && bash -c " +
           testing::ShellQuote("source topolint.bash; COMP_WORDS=(" + words +
                               "); COMP_CWORD=" + std::to_string(cword) +
                               "; _topolint; echo \"${COMPREPLY[*]}\""),
       &got);
    return got;
  };
  EXPECT_EQ(complete("topolint check --for", 2), "--format --force-exclude\n");
  EXPECT_EQ(complete("topolint --format=js", 1), "json\n");
  EXPECT_EQ(complete("topolint --color al", 2), "always\n");
  EXPECT_EQ(complete("topolint rules hlo-sy", 2), "hlo-syntax\n");
  EXPECT_EQ(complete("topolint ex", 1), "explain exec\n");
  EXPECT_EQ(complete("topolint explain --co", 2), "--config --core\n");
  EXPECT_EQ(complete("topolint check --rules '-*,neff-empty-t'", 3),
            "-*,neff-empty-topology\n");
  // --core is explain's: check does not offer it.
  EXPECT_EQ(complete("topolint check --cor", 2), "\n");
}

TEST(FlagTableTest, ZshCompletionParses) {
  if (!Have("zsh")) GTEST_SKIP() << "no zsh";
  testing::TempDir d;
  const std::string script = d.Write("_topolint", ZshCompletion());
  std::string out;
  EXPECT_EQ(Sh("zsh -n " + testing::ShellQuote(script), &out), 0) << out;
}

absl::StatusOr<Options> Parse(std::vector<std::string> args) {
  return ParseOptions(args);
}

TEST(ParseOptionsTest, ReadsOptionsByTheTable) {
  absl::StatusOr<Options> o =
      Parse({"check", "-j8", "--format=json", "-o", "r.json", "--rules", "a*",
             "--rules", "-b", "--severity", "x=off", "--severity", "y=note",
             "--color", "never", "-q", "p"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->jobs, 8);
  EXPECT_EQ(o->format, Format::kJson);
  EXPECT_EQ(o->output, "r.json");
  EXPECT_EQ(o->rule_globs, (std::vector<std::string>{"a*", "-b"}));
  EXPECT_EQ(o->severities, (std::vector<std::string>{"x=off", "y=note"}));
  EXPECT_EQ(o->color, ColorMode::kNever);
  EXPECT_TRUE(o->quiet);
  EXPECT_EQ(o->paths, std::vector<std::string>{"p"});
  EXPECT_EQ(Parse({"check", "-j", "999"})->jobs, 256);
}

TEST(ParseOptionsTest, RefusesWhatWouldBeDropped) {
  EXPECT_THAT(std::string(Parse({"--lnc", "1", "--lnc=2"}).status().message()),
              HasSubstr("--lnc given twice ('1' and '2')"));
  EXPECT_THAT(std::string(Parse({"-j2", "--jobs", "3"}).status().message()),
              HasSubstr("--jobs given twice"));
  EXPECT_THAT(std::string(Parse({"--werror=no"}).status().message()),
              HasSubstr("--werror takes no value"));
  EXPECT_THAT(std::string(Parse({"--lnc", "0"}).status().message()),
              HasSubstr("--lnc expects an integer >= 1, got '0'"));
  EXPECT_THAT(std::string(Parse({"--config", ""}).status().message()),
              HasSubstr("--config needs a file name"));
  EXPECT_THAT(std::string(Parse({"--format"}).status().message()),
              HasSubstr("--format needs a value"));
}

TEST(ParseOptionsTest, AnOptionAppliesToItsCommandsOnly) {
  EXPECT_THAT(std::string(Parse({"check", "--core", "3"}).status().message()),
              HasSubstr("--core is an option of `topolint explain`"));
  EXPECT_THAT(
      std::string(Parse({"explain", "--statistics"}).status().message()),
      HasSubstr("--statistics is an option of `topolint check` and `topolint "
                "exec`, not of `topolint explain`"));
  EXPECT_THAT(
      std::string(Parse({"rules", "--werror"}).status().message()),
      HasSubstr("--werror is an option of `topolint check`, `topolint "
                "explain` and `topolint exec`, not of `topolint rules`"));
  EXPECT_THAT(
      std::string(Parse({"check", "--on-error", "warn"}).status().message()),
      HasSubstr("--on-error is an option of `topolint exec`"));
  EXPECT_TRUE(Parse({"rules", "--format", "json", "hlo-syntax"}).ok());
  EXPECT_TRUE(Parse({"explain", "--core", "3", "--lnc", "2", "d"}).ok());
  // exec: options before `--`, the compiler's line after, untouched.
  absl::StatusOr<Options> e =
      Parse({"exec", "--on-error", "warn", "--", "cc", "--help", "-o", "x"});
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->verb, Verb::kExec);
  EXPECT_EQ(e->on_error, "warn");
  EXPECT_EQ(e->command, (std::vector<std::string>{"cc", "--help", "-o", "x"}));
  EXPECT_TRUE(e->output.empty());
}

TEST(ParseOptionsTest, HelpVersionCompletionAndMan) {
  EXPECT_EQ(Parse({"--help"})->help_for, Verb::kHelp);
  EXPECT_EQ(Parse({"help"})->help_for, Verb::kHelp);
  EXPECT_EQ(Parse({"help", "exec"})->help_for, Verb::kExec);
  EXPECT_EQ(Parse({"explain", "-h"})->help_for, Verb::kExplain);
  EXPECT_EQ(Parse({"exec", "--help"})->help_for, Verb::kExec);
  EXPECT_THAT(std::string(Parse({"help", "chek"}).status().message()),
              HasSubstr("did you mean 'check'?"));
  for (const char* v : {"version", "--version", "-V"}) {
    EXPECT_EQ(Parse({v})->verb, Verb::kVersion) << v;
  }
  EXPECT_EQ(Parse({"completion", "zsh"})->shell, "zsh");
  EXPECT_FALSE(Parse({"completion"}).ok());
  EXPECT_FALSE(Parse({"completion", "fish"}).ok());
  EXPECT_EQ(Parse({"man"})->verb, Verb::kMan);
  EXPECT_FALSE(Parse({"man", "--quiet"}).ok());
}

}  // namespace
}  // namespace topolint::cli
