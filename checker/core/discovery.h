// What an input is (classified as docs/reference/inputs.md says), and the
// units of command-line paths drained from UnitSources (unit_sources.h).
#ifndef TOPOLINT_CHECKER_CORE_DISCOVERY_H_
#define TOPOLINT_CHECKER_CORE_DISCOVERY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "checker/core/dir_entries.h"
#include "checker/model/unit.h"

namespace topolint {
namespace config {
struct ComponentConfigData;  // checker/config/component_config.h
}

// kCompileFlags: a compile-cache entry's compile_flags.json.
enum class InputKind { kHlo, kJson, kNeff, kCompileFlags };

struct InputFile {
  std::string path;  // as given / as found (display name)
  InputKind kind = InputKind::kJson;
  bool named = false;       // named on the command line (always loaded)
  bool from_stdin = false;  // `-` with --stdin-filename
  // Read as a def.json: given as --neff, or found to be one by discovery.
  bool force_def_json = false;
  // The directory walk saw a regular file here (readdir's type, or stat of
  // a symlink): it is opened without a stat() first (OpenCheck).
  bool seen_regular = false;
  // A component config discovery knew by its content: the document it
  // parsed then, loaded as it is (the file is not read or parsed again).
  std::shared_ptr<config::ComponentConfigData> config = nullptr;
};

struct UnitSpec {
  std::string directory;  // display
  std::vector<InputFile> files;
  // Inputs or checks left out that this unit reports (rule unchecked-input).
  // A unit may hold these alone: a skipped compile-cache entry is a unit of
  // no files (IsSkipUnit).
  std::vector<UncheckedInput> unchecked;
};

// A unit that only reports what was left out (no file to check).
inline bool IsSkipUnit(const UnitSpec& spec) {
  return spec.files.empty() && !spec.unchecked.empty();
}

// What discovery left out, besides the units.
struct DiscoveryReport {
  // Files named on the command line that are no recognised kind (the CLI
  // refuses them: exit 2), with the reason.
  std::vector<SkippedPath> unrecognised;
  // Files and directories met while searching and not checked, with the
  // reason (`topolint check --verbose` lists them). What was found and left
  // out (a failed or incomplete compile-cache entry, unpaired modules and
  // NEFFs, a file of a known kind not read, a directory not searched) is in
  // the units' UnitSpec::unchecked instead: unchecked-input findings.
  std::vector<SkippedPath> skipped;
};

// Every unit of `paths`, in report order: the units UnitSources
// (unit_sources.h) hands out, drained (for callers that want them all: the
// C++ API, tests). A path that does not exist or cannot be read (a named
// directory that cannot be listed included) is an error (exit 2).
absl::Status DiscoverUnits(const std::vector<std::string>& paths,
                           const DiscoveryLimits& limits,
                           std::vector<UnitSpec>* units,
                           DiscoveryReport* report);

// The directory of a unit's file as units name it (`directory`): its
// parent, "." for a bare name.
std::string ParentDirectory(const std::string& path);

// Classifies a file by name and, for other text files, by its first token.
// Returns false when it is not an input topolint reads.
bool ClassifyFile(const std::string& path, InputKind* kind);

// Classification by name alone (for stdin): .hlo/.hlo.txt, .json, .neff.
bool ClassifyName(const std::string& name, InputKind* kind);

// True when the first bytes of an input (4 KiB is plenty) are a binary HLO
// module: gzip (the proto reader says what it expected if the inflated
// bytes are no module), or an HloModuleProto, bare or in its wrappers. For
// inputs that have no telling name (pipes, standard input).
bool LooksLikeHloBinaryHead(std::string_view head);

// MLIR by content: StableHLO text (`module @jit_f ...`, a test file's
// `func.func`) or MLIR bytecode, and not HLO text (HLO's own head wins).
bool LooksLikeMlirHead(std::string_view head);

// The kind of an input already read into memory (standard input, a pipe,
// the C++ API's AddText), for the CLI and the API alike: by name
// (ClassifyName), else by the first bytes of `text`: HLO text, a binary
// module (LooksLikeHloBinaryHead) and StableHLO text or MLIR bytecode
// (LooksLikeMlirHead) are kHlo (the dispatcher, ParseHloAny, tells them apart
// by content and refuses bytecode with advice); a JSON object is kJson. False
// otherwise.
bool ClassifyInMemory(const std::string& name, std::string_view text,
                      InputKind* kind);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_DISCOVERY_H_
