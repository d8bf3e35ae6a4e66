// topolint: the command-line entry point. Thin glue over checker/core.
#include <cstdio>
#include <string>
#include <vector>

#include "checker/cli/commands.h"
#include "checker/cli/options.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto options = topolint::cli::ParseOptions(args);
  if (!options.ok()) {
    std::fprintf(stderr, "topolint: error: %s\n",
                 std::string(options.status().message()).c_str());
    return topolint::cli::kExitUsage;
  }
  switch (options->verb) {
    case topolint::cli::Verb::kHelp:
      std::fputs(topolint::cli::UsageText().c_str(), stdout);
      return 0;
    case topolint::cli::Verb::kVersion:
      std::printf("topolint %s\n", TOPOLINT_VERSION);
      return 0;
    case topolint::cli::Verb::kRules:
      return topolint::cli::RunRules(*options);
    case topolint::cli::Verb::kExplain:
      return topolint::cli::RunExplainCommand(*options);
    case topolint::cli::Verb::kCheck:
      break;
  }
  return topolint::cli::RunCheck(*options);
}
