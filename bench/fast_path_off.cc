// topolint_fast_path_off: parses one HLO text file as `topolint check` does
// (in windows, collectives handed to a sink and dropped) with some of the text
// front end's fast paths turned off, for measuring what each one wins
// against the budget of CONTRIBUTING.md, "Fast paths"
// (bench/fast-path-budget.md has the commands and the figures).
//
//   topolint_fast_path_off NAME[,NAME...]|none FILE
//
// Each NAME is a row of TOPOLINT_FAST_PATHS
// (checker/hlo/text/fast_path_switch.h) to turn off; `none` takes every
// fast path. Prints one line of counts (so
// that no work can be optimised away). Exit 2 on a usage or read error.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"
#include "checker/hlo/text/fast_path_switch.h"
#include "checker/hlo/text/hlo_parser.h"

namespace {

namespace hlo = topolint::hlo;

// The bit of `name`; false when it names no fast path.
bool BitOf(std::string_view name, uint64_t* bit) {
  for (size_t i = 0; i < hlo::kFastPathNames.size(); ++i) {
    if (hlo::kFastPathNames[i] == name) {
      *bit = uint64_t{1} << i;
      return true;
    }
  }
  return false;
}

// The bits of `names` (comma-separated; 0 for "none"); false when one
// names no fast path.
bool MaskOf(std::string_view names, uint64_t* mask) {
  *mask = 0;
  if (names == "none") return true;
  for (;;) {
    const size_t comma = names.find(',');
    uint64_t bit = 0;
    if (!BitOf(names.substr(0, comma), &bit)) return false;
    *mask |= bit;
    if (comma == std::string_view::npos) return true;
    names.remove_prefix(comma + 1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t mask = 0;
  if (argc != 3 || !MaskOf(argv[1], &mask)) {
    std::fprintf(stderr,
                 "usage: topolint_fast_path_off NAME[,NAME...]|none FILE\n");
    return 2;
  }
  hlo::ParseOptions options;
  options.disabled_fast_paths = mask;
  int64_t collectives = 0;
  options.on_collective = [&](const hlo::Module&, hlo::Collective&) {
    ++collectives;
  };
  hlo::Module module;
  const std::string path = argv[2];
  if (!hlo::ParseHloFile(path, path, options, &module).ok()) {
    std::fprintf(stderr, "topolint_fast_path_off: cannot read %s\n", argv[2]);
    return 2;
  }
  std::printf("%lld collectives, %zu syntax errors\n",
              static_cast<long long>(collectives), module.syntax_errors.size());
  return 0;
}
