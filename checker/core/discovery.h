// Turns command-line paths into units: files grouped by directory,
// directories searched recursively, inputs classified as SPEC §2.
#ifndef TOPOLINT_CHECKER_CORE_DISCOVERY_H_
#define TOPOLINT_CHECKER_CORE_DISCOVERY_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace topolint {

enum class InputKind { kHlo, kJson, kNeff };

struct InputFile {
  std::string path;  // as given / as found (display name)
  InputKind kind = InputKind::kJson;
  bool named = false;           // named on the command line (always loaded)
  bool from_stdin = false;      // `-` with --stdin-filename
  bool force_def_json = false;  // given as --neff: read as a def.json
};

struct UnitSpec {
  std::string directory;  // display
  std::vector<InputFile> files;
};

struct DiscoveryLimits {
  size_t max_files = 100000;  // refuse larger trees (exit 2)
  int max_depth = 64;
};

// Groups `paths` into units. A path that does not exist or cannot be read
// (a named directory that cannot be listed included) is an error (exit 2).
// Files named explicitly whose kind cannot be told are listed in `skipped`
// (the CLI says so on stderr). A directory met while searching that cannot
// be listed is skipped, and when `warnings` is given a message saying so is
// appended to it ("cannot read directory X: permission denied; skipped"),
// for the CLI to print as a warning: it is not known to hold inputs, so it
// is no "input that cannot be read" (SPEC §3) and does not change the exit
// code, but it must not vanish silently.
absl::Status DiscoverUnits(const std::vector<std::string>& paths,
                           const DiscoveryLimits& limits,
                           std::vector<UnitSpec>* units,
                           std::vector<std::string>* skipped,
                           std::vector<std::string>* warnings = nullptr);

// Like DiscoverUnits, but a FILE in `paths` stands for its whole unit: every
// input in its directory (not below it), each loaded as if found by a
// directory search, so that a JSON file of none of topolint's kinds is
// ignored even when it does not parse (SPEC §2). What pre-commit passes
// (`--whole-units`): the staged files, whose units are checked with the
// other files of the working tree. A directory in `paths` is searched as
// DiscoverUnits does.
absl::Status DiscoverWholeUnits(const std::vector<std::string>& paths,
                                const DiscoveryLimits& limits,
                                std::vector<UnitSpec>* units,
                                std::vector<std::string>* warnings = nullptr);

// Classifies a file by name and, for other text files, by its first token.
// Returns false when it is not an input topolint reads.
bool ClassifyFile(const std::string& path, InputKind* kind);

// Classification by name alone (for stdin): .hlo/.hlo.txt, .json, .neff.
bool ClassifyName(const std::string& name, InputKind* kind);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_DISCOVERY_H_
