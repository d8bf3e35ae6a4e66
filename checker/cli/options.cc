#include "checker/cli/options.h"

#include <functional>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "checker/core/path_filter.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

absl::Status Usage(const std::string& msg) {
  return absl::InvalidArgumentError(msg);
}

absl::StatusOr<int64_t> PositiveInt(const std::string& flag,
                                    const std::string& value, int64_t min) {
  int64_t v;
  if (!absl::SimpleAtoi(value, &v) || v < min) {
    return Usage(
        fmt::format("{} expects an integer >= {}, got '{}'", flag, min, value));
  }
  return v;
}

}  // namespace

std::string UsageText() {
  return R"(usage: topolint [check] [options] [PATH...]
       topolint explain [options] [PATH...]
       topolint rules [RULE_ID]
       topolint exec [options] -- COMPILER ARGS...   (see exec --help)

Checks the collective topology of XLA HLO text, NEFF def.json / .neff and
model-parallel component configs. PATH is a file or a directory (searched
recursively, compile caches and compiler work directories included: see
docs/layouts.md for how files are grouped into units); none checks the
current directory, as `ruff check` does. `-` reads one file
from standard input (with --stdin-filename). A file named here that is no
input topolint reads is an error (exit 2).

options:
  --format FORMAT                   text (default), json, sarif, github,
                                    junit, gitlab (Code Quality) or concise
                                    (one line per finding); `rules` takes
                                    text or json
  --format html|svg                 (explain) a picture of the device grids:
                                    one self-contained HTML page, or one
                                    SVG of a single unit
  -o, --output FILE                 write the report to FILE
  --rules GLOBS                     select rules, clang-tidy style:
                                    '-*,neff-*,-neff-world-size'
  --severity RULE=LEVEL[,...]       set a rule's severity: error, warning,
                                    note or off (over .topolint.json's
                                    "severity"; repeatable), e.g.
                                    unchecked-input=error
  --werror                          warnings count as errors
  --exit-zero                       report findings but exit 0 (advisory
                                    jobs); usage errors still exit 2
  --whole-units                     a FILE stands for its whole unit: the
                                    inputs of its directory, read as a
                                    directory search reads them (JSON of
                                    other kinds ignored); for pre-commit
  --sarif-root DIR                  SARIF URIs and github, gitlab and junit
                                    paths relative to DIR (default: the git work
                                    tree holding the current directory, else
                                    the current directory)
  --docs-url URL                    SARIF helpUri base: URL/<rule>.md
  --lnc N                           numCoresPerLNC (default 1)
  --num-cores N                     physical cores available
  --replica-count N                 replica count when the HLO header omits it
  --num-partitions N                partitions when the HLO header omits it
  --data-parallel-size N            vLLM data-parallel size for configs
                                    that do not record it (an
                                    --additional-config JSON alone)
  --config FILE                     settings file (default: nearest
                                    .topolint.json upward from each input)
  --baseline FILE                   hide findings recorded in FILE
  --write-baseline FILE             record today's findings in FILE
  --hlo FILE --neff FILE --neuron-config FILE
                                    name the files of one unit explicitly
  -j N                              check N units in parallel (and
                                    classify files with N threads)
  --follow-symlinks                 walk into symlinked directories (not
                                    followed by default)
  --no-ignore                       also search files that .gitignore
                                    (and .git/info/exclude) ignore in a git
                                    work tree
  -v, --verbose                     list what directory searches skipped,
                                    and why (stderr)
  --stdin-filename NAME             name of the file read from `-`
  --statistics                      print a count per rule (stderr)
  --max-findings N                  show at most N findings per rule and
                                    unit (default 1000; 0: no cap); the
                                    summary counts every finding
  --quiet                           no summary on stderr
  --color auto|always|never         colour in text output (default auto)
  --core C                          (explain) resolve physical core C
  --fix                             apply the fixes that are certain, then
                                    report what remains (docs/fixes.md)
  --diff                            print those fixes as a unified diff;
                                    write nothing (exit 1 when there is one)
  --fix-from hlo                    with --fix / --diff, also rewrite a
                                    def.json topology[0] from the HLO
  --include REGEX                   check only files whose path (relative
                                    to the git work tree, else the current
                                    directory) matches REGEX (RE2, searched
                                    as pre-commit's `files`; repeatable)
  --exclude REGEX                   skip files whose path matches REGEX (as
                                    pre-commit's `exclude`; repeatable)
  --force-exclude                   apply the filters to files named on the
                                    command line too (as ruff's)
  -h, --help                        this text
  --version                         print the version

exit codes: 0 no error-severity finding (or --exit-zero), 1 at least one,
2 usage error or unreadable input.
)";
}

absl::StatusOr<Options> ParseOptions(const std::vector<std::string>& args) {
  Options o;
  size_t i = 0;
  if (args.empty()) {
    // `topolint` alone is a question, not a check of the current directory.
    return Usage(
        "nothing to do: `topolint check [PATH...]` checks PATH (default: the "
        "current directory); see `topolint --help`");
  }
  {
    const std::string& first = args[0];
    if (first == "check") {
      o.verb = Verb::kCheck;
      i = 1;
    } else if (first == "explain") {
      o.verb = Verb::kExplain;
      i = 1;
    } else if (first == "rules") {
      o.verb = Verb::kRules;
      i = 1;
    }
  }
  bool only_paths = false;
  // The value each single-valued option was given (by its long name).
  std::map<std::string, std::string> single_values;
  for (; i < args.size(); ++i) {
    std::string a = args[i];
    if (only_paths || a == "-" || a.empty() || a[0] != '-') {
      if (o.verb == Verb::kRules) {
        if (!o.rule_id.empty())
          return Usage("`rules` takes at most one RULE_ID");
        o.rule_id = a;
      } else {
        o.paths.push_back(a);
      }
      continue;
    }
    if (a == "--") {
      only_paths = true;
      continue;
    }
    std::string value;
    bool has_inline = false;
    if (absl::StartsWith(a, "--")) {
      if (size_t eq = a.find('='); eq != std::string::npos) {
        value = a.substr(eq + 1);
        a = a.substr(0, eq);
        has_inline = true;
      }
    }
    auto take = [&]() -> absl::StatusOr<std::string> {
      if (!has_inline) {
        if (i + 1 >= args.size()) return Usage(a + " needs a value");
        value = args[++i];
      }
      // An option that holds one value, given twice with two values, would
      // silently drop one (`--hlo BAD --hlo GOOD` checked only GOOD).
      const std::string flag =
          a == "-o" ? "--output" : (a == "-j" ? "--jobs" : a);
      if (flag == "--rules" || flag == "--include" || flag == "--exclude") {
        return value;
      }
      auto [it, fresh] = single_values.emplace(flag, value);
      if (!fresh && it->second != value) {
        return Usage(fmt::format(
            "{} given twice ('{}' and '{}'): it takes one value; give it once",
            flag, it->second, value));
      }
      return value;
    };
    // A file name: an empty one is a usage error, not "no such file" later
    // (or, for -o, "write to stdout").
    auto take_path = [&]() -> absl::StatusOr<std::string> {
      auto v = take();
      if (v.ok() && v->empty()) {
        return Usage(fmt::format("{} needs a file name, got ''", a));
      }
      return v;
    };
    auto take_int = [&](int64_t min) -> absl::StatusOr<int64_t> {
      auto v = take();
      if (!v.ok()) return v.status();
      return PositiveInt(a, *v, min);
    };
#define TL_ASSIGN(lhs, expr)              \
  do {                                    \
    auto tl_v = (expr);                   \
    if (!tl_v.ok()) return tl_v.status(); \
    lhs = *tl_v;                          \
  } while (0)
    if (a == "-h" || a == "--help") {
      o.verb = Verb::kHelp;
    } else if (a == "--version") {
      o.verb = Verb::kVersion;
    } else if (a == "--format") {
      std::string f;
      TL_ASSIGN(f, take());
      static const std::map<std::string, Format> kFormats = {
          {"text", Format::kText},       {"json", Format::kJson},
          {"sarif", Format::kSarif},     {"github", Format::kGithub},
          {"junit", Format::kJunit},     {"gitlab", Format::kGitlab},
          {"concise", Format::kConcise}, {"html", Format::kHtml},
          {"svg", Format::kSvg}};
      auto it = kFormats.find(f);
      if (it == kFormats.end()) {
        return Usage(
            fmt::format("--format must be text, json, sarif, github, junit, "
                        "gitlab, concise, html or svg, got '{}'",
                        f));
      }
      o.format = it->second;
    } else if (a == "-o" || a == "--output") {
      TL_ASSIGN(o.output, take_path());
    } else if (a == "--rules") {
      std::string g;
      TL_ASSIGN(g, take());
      o.rule_globs.push_back(g);
    } else if (a == "--severity") {
      std::string v;
      TL_ASSIGN(v, take());
      o.severities.push_back(v);
    } else if (a == "--werror") {
      o.werror = true;
    } else if (a == "--exit-zero") {
      o.exit_zero = true;
    } else if (a == "--whole-units") {
      o.whole_units = true;
    } else if (a == "--sarif-root") {
      TL_ASSIGN(o.sarif_root, take());
    } else if (a == "--docs-url") {
      TL_ASSIGN(o.docs_url, take());
      if (o.docs_url.find("://") == std::string::npos) {
        return Usage(fmt::format(
            "--docs-url must be an absolute URL (https://...), got '{}'",
            o.docs_url));
      }
    } else if (a == "--lnc") {
      int64_t v;
      TL_ASSIGN(v, take_int(1));
      o.lnc = v;
    } else if (a == "--num-cores") {
      int64_t v;
      TL_ASSIGN(v, take_int(1));
      o.num_cores = v;
    } else if (a == "--replica-count") {
      int64_t v;
      TL_ASSIGN(v, take_int(1));
      o.replica_count = v;
    } else if (a == "--num-partitions") {
      int64_t v;
      TL_ASSIGN(v, take_int(1));
      o.num_partitions = v;
    } else if (a == "--data-parallel-size") {
      int64_t v;
      TL_ASSIGN(v, take_int(1));
      o.data_parallel_size = v;
    } else if (a == "--config") {
      TL_ASSIGN(o.config, take_path());
    } else if (a == "--baseline") {
      TL_ASSIGN(o.baseline, take_path());
    } else if (a == "--write-baseline") {
      TL_ASSIGN(o.write_baseline, take_path());
    } else if (a == "--hlo") {
      TL_ASSIGN(o.hlo, take_path());
    } else if (a == "--neff") {
      TL_ASSIGN(o.neff, take_path());
    } else if (a == "--neuron-config") {
      TL_ASSIGN(o.neuron_config, take_path());
    } else if (a == "-j" || a == "--jobs") {
      int64_t v;
      TL_ASSIGN(v, take_int(1));
      o.jobs = static_cast<int>(std::min<int64_t>(v, 256));
    } else if (absl::StartsWith(a, "-j") && a.size() > 2) {
      int64_t v;
      TL_ASSIGN(v, PositiveInt("-j", a.substr(2), 1));
      o.jobs = static_cast<int>(std::min<int64_t>(v, 256));
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (a == "--statistics") {
      o.statistics = true;
    } else if (a == "--verbose" || a == "-v") {
      o.verbose = true;
    } else if (a == "--follow-symlinks") {
      o.follow_symlinks = true;
    } else if (a == "--no-ignore") {
      o.no_ignore = true;
    } else if (a == "--color") {
      std::string c;
      TL_ASSIGN(c, take());
      if (c == "auto") {
        o.color = ColorMode::kAuto;
      } else if (c == "always") {
        o.color = ColorMode::kAlways;
      } else if (c == "never") {
        o.color = ColorMode::kNever;
      } else {
        return Usage(
            fmt::format("--color must be auto, always or never, got '{}'", c));
      }
    } else if (a == "--stdin-filename") {
      TL_ASSIGN(o.stdin_filename, take_path());
    } else if (a == "--max-findings") {
      int64_t v;
      TL_ASSIGN(v, take_int(0));
      o.max_findings = v;
    } else if (a == "--core") {
      int64_t v;
      TL_ASSIGN(v, take_int(0));
      o.core = v;
    } else if (a == "--fix") {
      o.fix = true;
    } else if (a == "--diff") {
      o.diff = true;
    } else if (a == "--fix-from") {
      TL_ASSIGN(o.fix_from, take());
      if (o.fix_from != "hlo") {
        return Usage(fmt::format(
            "--fix-from expects 'hlo' (the HLO's groups are right: rewrite "
            "the def.json topology from them), got '{}'",
            o.fix_from));
      }
    } else if (a == "--include" || a == "--exclude") {
      std::string pattern;
      TL_ASSIGN(pattern, take());
      (a == "--include" ? o.include : o.exclude).push_back(pattern);
    } else if (a == "--force-exclude") {
      o.force_exclude = true;
    } else {
      return Usage(fmt::format("unknown option '{}' (see --help)", a));
    }
#undef TL_ASSIGN
  }
  for (const auto& [flag, patterns] :
       {std::make_pair("--include", &o.include),
        std::make_pair("--exclude", &o.exclude)}) {
    for (const std::string& p : *patterns) {
      if (auto re = CompilePathPattern(p, flag); !re.ok()) return re.status();
    }
  }
  if (o.verb == Verb::kCheck || o.verb == Verb::kExplain) {
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
  }
  return o;
}

}  // namespace topolint::cli
