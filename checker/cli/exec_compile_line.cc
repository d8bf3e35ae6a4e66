#include "checker/cli/exec_compile_line.h"

#include "absl/strings/string_view.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

// Flags whose value follows them (or `=`): their values are never taken
// for the input module.
constexpr absl::string_view kValueFlags[] = {"--output",
                                             "--lnc",
                                             "--logical-nc-config",
                                             "-lnc",
                                             "--target",
                                             "--framework",
                                             "--workdir",
                                             "--verbose",
                                             "--logfile",
                                             "--model-type",
                                             "--auto-cast",
                                             "--auto-cast-type",
                                             "--optlevel",
                                             "--pipeline",
                                             "--internal-tensorizer-opt-level",
                                             "--distribution-strategy"};

bool TakesValue(absl::string_view flag) {
  for (absl::string_view f : kValueFlags) {
    if (flag == f) return true;
  }
  return false;
}

bool LooksLikeModule(absl::string_view name) {
  return absl::EndsWith(name, ".pb") || absl::EndsWith(name, ".hlo") ||
         absl::EndsWith(name, ".hlo.txt") || absl::EndsWith(name, ".gz");
}

// The LNC a target compiles for when no LNC flag is given: trn2 and later
// default to 2 (docs/reference/rank-model.md §3), trn1 / trn1n / inf2 to 1.
std::optional<int64_t> TargetDefaultLnc(const std::string& target) {
  const std::string t = absl::AsciiStrToLower(target);
  int64_t generation = 0;
  if (absl::StartsWith(t, "trn")) {
    absl::string_view digits = absl::string_view(t).substr(3);
    size_t n = 0;
    while (n < digits.size() && absl::ascii_isdigit(digits[n])) ++n;
    if (n > 0 && absl::SimpleAtoi(digits.substr(0, n), &generation)) {
      return generation >= 2 ? 2 : 1;
    }
  }
  if (absl::StartsWith(t, "inf")) return 1;
  return std::nullopt;
}

}  // namespace

CompileLine ParseCompileLine(const std::vector<std::string>& args) {
  CompileLine line;
  // The LNC flags replace one another: the last one given counts, a bad
  // value included.
  std::optional<int64_t> lnc_flag;
  std::string lnc_flag_name;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::string given = flag;  // as typed: "--lnc=2", or "--lnc 2" below
    line.arguments.push_back(flag);
    std::string value;
    bool has_value = false;
    if (flag.size() > 1 && flag[0] == '-') {
      if (const size_t eq = flag.find('='); eq != std::string::npos) {
        value = flag.substr(eq + 1);
        flag = flag.substr(0, eq);
        has_value = true;
        line.arguments.push_back(value);
      } else if (TakesValue(flag) && i + 1 < args.size()) {
        value = args[++i];
        given += " " + value;
        has_value = true;
        line.arguments.push_back(value);
      }
      if (!has_value) continue;  // a switch, or a flag topolint ignores
      if (flag == "--output") {
        line.output = value;
      } else if (flag == "--lnc" || flag == "--logical-nc-config" ||
                 flag == "-lnc") {
        int64_t n = 0;
        if (absl::SimpleAtoi(value, &n) && n >= 1) {
          lnc_flag = n;
          lnc_flag_name = given;
          line.problem.clear();
        } else {
          lnc_flag.reset();
          line.problem = fmt::format(
              "{} '{}' is not a positive integer; the compiler's input and "
              "output are not checked",
              flag, value);
        }
      } else if (flag == "--logfile") {
        line.logfile = value;
      } else if (flag == "--target") {
        line.target = value;
      } else if (flag == "--framework") {
        line.framework = value;
      }
      continue;
    }
    // A positional argument: the subcommand, then the input.
    if (!line.is_compile) {
      line.is_compile = flag == "compile";
      if (!line.is_compile) return line;  // another subcommand
      continue;
    }
    line.positionals.push_back(flag);
    if (line.input.empty() && LooksLikeModule(flag)) line.input = flag;
  }
  if (lnc_flag) {
    line.lnc = lnc_flag;
    line.lnc_source = lnc_flag_name;
  } else if (auto d = TargetDefaultLnc(line.target);
             d && !line.target.empty() && line.problem.empty()) {
    line.lnc = d;
    line.lnc_source =
        fmt::format("the default LNC of --target={}", line.target);
  }
  return line;
}

}  // namespace topolint::cli
