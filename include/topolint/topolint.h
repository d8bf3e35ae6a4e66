// topolint as a library: check the collective topology of an XLA HLO module,
// its NEFF def.json and its component config from a compiler driver or any
// other program, without running the `topolint` command.
//
//   topolint::api::Unit unit;
//   topolint::api::Status st =
//       unit.AddText("out/model.hlo", hlo_text,
//       topolint::api::InputKind::kHlo);
//   if (st.ok()) st = unit.AddText("out/def.json", def_json_text);
//   std::vector<topolint::api::Finding> findings;
//   if (st.ok()) st = topolint::api::Check(unit, options, &findings);
//   if (!st.ok()) { /* st.message says what was wrong with the request */ }
//   for (const auto& f : findings) std::cerr << FormatFinding(f) << "\n";
//
// The findings are exactly those `topolint check` reports for the same files
// and settings (same rules, messages, locations and order). The library never
// prints, never exits and never throws on bad input: an input that does not
// parse is a finding (`hlo-syntax`, `json-syntax`); only requests that cannot
// be carried out (a missing file, a bad option, a rule glob that matches no
// rule) come back as a non-ok Status.
//
// This header is self-contained: it needs only the C++17 standard library,
// so consumers need neither Abseil, fmt nor nlohmann_json headers. With CMake:
//   find_package(topolint REQUIRED)
//   target_link_libraries(app PRIVATE topolint::topolint_core)
// (the static libraries bring their link dependencies with them). A C
// interface taking and returning JSON is in topolint/topolint_c.h.
//
// Thread safety: Check() and CheckPaths() keep no state between calls; any
// number of threads may call them at once. A Unit is an ordinary value: it
// must not be modified while another thread reads it.
#ifndef TOPOLINT_TOPOLINT_H_
#define TOPOLINT_TOPOLINT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topolint::api {

// The outcome of a request. Not an exception: callers test ok().
struct [[nodiscard]] Status {
  enum class Code {
    kOk = 0,
    kInvalidArgument,  // a bad option, rule glob, input name or config file
    kNotFound,         // a path that does not exist or cannot be opened
    kUnreadable,       // a read error, or an input above the size limits
  };
  Code code = Code::kOk;
  std::string message;  // one line; empty when ok

  bool ok() const { return code == Code::kOk; }
};

enum class Severity { kNote = 0, kWarning = 1, kError = 2 };

// "note", "warning" or "error".
const char* SeverityName(Severity severity);

// A related location that explains a finding.
struct Note {
  std::string message;
  std::string file;
  int64_t line = 0;    // 1-based; 0 = the whole file
  int64_t column = 0;  // 1-based, counting bytes; 0 = the whole line
};

// One finding, with the fields of `topolint check --format json`.
struct Finding {
  std::string rule;  // stable rule id, e.g. "neff-empty-topology"
  Severity severity = Severity::kError;  // after severity overrides/werror
  std::string message;
  std::string file;  // the input's path or display name, as given
  int64_t line = 0;
  int64_t column = 0;
  std::vector<Note> notes;
  // In a binary input (an HLO proto: line and column are 0): the byte
  // offset of the value in the (decompressed) file and the place in the
  // module ("computation %c, op %ar"); -1 and empty for text inputs.
  int64_t byte_offset = -1;
  std::string logical;
  // Stable identity of the finding (rule, file and what it is about, never
  // the line): the key baselines and SARIF fingerprints use.
  std::string fingerprint;
};

// `file:line:col: severity: message [rule]`, as the first line of the CLI's
// text output (without the source excerpt and notes). A finding in a binary
// input has no line: `file: severity: message (in computation %c, op %ar
// (byte N)) [rule]`, the place the CLI prints under it.
std::string FormatFinding(const Finding& finding);

// True when some finding has error severity (the CLI would exit 1).
bool HasErrors(const std::vector<Finding>& findings);

// What an input is. kAuto decides as the CLI does: by name (`.hlo`,
// `.hlo.txt`, `.mlir`, `.json`, `.neff`) and, failing that, by content: HLO
// text (`HloModule`), a binary module, StableHLO text (`module @m ...`,
// `func.func`) or a JSON object; a `.json` is then classified by its content
// (a top-level `CCInfo` makes it a def.json, parallelism keys a component
// config; a file named def.json is always a def.json).
enum class InputKind {
  kAuto,
  kHlo,      // XLA HLO text or a binary module; StableHLO text
  kDefJson,  // NEFF def.json (read as one whatever its name)
  // neuron_config.json / model-parallel config. Read as JSON and, like
  // kAuto, recognised by content: it needs one of tp_degree,
  // tensor_parallel_size, *_dp_size or *_dp_degree (at top level or under
  // neuron_config); a JSON with none of them is not checked.
  kComponentConfig,
  kNeff,  // .neff archive (a file, or its bytes given to AddText)
};

// The inputs checked together: normally one HLO module, its def.json (or
// .neff) and its component config. Cross-file rules compare them. Unlike the
// CLI, a Unit never splits its inputs by directory. Copyable and movable.
class Unit {
 public:
  // Adds a file on disk. Fails (kNotFound) when `path` is not a readable
  // regular file, and (kInvalidArgument) when it was already added or kAuto
  // cannot tell its kind. The file is read by Check(), not here.
  Status AddFile(const std::string& path, InputKind kind = InputKind::kAuto);

  // Adds an in-memory input. `name` is the display name used in findings
  // (e.g. "out/model.hlo") and, with kAuto, decides the kind; it need not
  // exist on disk but must be unique within the unit. `text` may hold bytes:
  // an HLO input is text or a binary module (HloModuleProto or a wrapper,
  // plain or gzip; told apart by content), a kNeff input (or a kAuto one
  // named *.neff) the whole archive.
  Status AddText(const std::string& name, std::string text,
                 InputKind kind = InputKind::kAuto);

  // As AddText, but the bytes are read in place, never copied: `bytes` must
  // stay alive and unchanged until the last Check() of this unit (or of a
  // copy of it) returns. An HLO text of N bytes then costs N plus bounded
  // working memory (the windows the parser reads, the collectives of one
  // instruction), as a file does (docs/reliability.md).
  Status AddTextView(const std::string& name, std::string_view bytes,
                     InputKind kind = InputKind::kAuto);

  bool empty() const { return inputs_.empty(); }
  size_t size() const { return inputs_.size(); }

  // One input as resolved by AddFile / AddText. For a JSON input added with
  // kAuto, `kind` stays kAuto: its content decides at check time.
  struct Input {
    std::string name;  // path (files) or display name (texts)
    std::string text;  // the text (in-memory inputs only)
    bool in_memory = false;
    InputKind kind = InputKind::kAuto;
    // AddTextView's bytes (the caller's; `text` is then empty), else null.
    std::string_view view;

    std::string_view bytes() const {
      return view.data() != nullptr ? view : std::string_view(text);
    }
  };
  const std::vector<Input>& inputs() const { return inputs_; }

 private:
  bool Contains(const std::string& name, bool in_memory) const;
  // Checks an in-memory input's name and resolves kAuto (*kind).
  Status ResolveTextKind(const std::string& name, std::string_view text,
                         InputKind* kind) const;

  std::vector<Input> inputs_;
};

// Settings, as the CLI flags of the same names. Unset values mean the CLI's
// defaults (lnc 1; replica_count / num_partitions from the HLO header).
struct Options {
  std::optional<int64_t> lnc;             // --lnc (numCoresPerLNC), >= 1
  std::optional<int64_t> num_cores;       // --num-cores, >= 1
  std::optional<int64_t> replica_count;   // --replica-count, >= 1
  std::optional<int64_t> num_partitions;  // --num-partitions, >= 1
  // Each entry is one --rules value: comma-separated globs, `-` disables,
  // later entries win (`-*,neff-*`). A glob matching no rule is an error.
  std::vector<std::string> rules;
  bool werror = false;  // warnings become errors
  // Severity overrides, in order, as .topolint.json "severity": rule id ->
  // "error", "warning", "note" or "off". An unknown rule is an error.
  std::vector<std::pair<std::string, std::string>> severity;
  // A baseline file (`topolint check --write-baseline`): findings recorded
  // in it are dropped, as `--baseline` does. Empty: none.
  std::string baseline;
  // A .topolint.json to apply first (its rules, severity, werror, lnc, ...,
  // per_file_ignores); the options above are applied on top, as CLI flags
  // are. Empty: none, unless search_project_config is set.
  std::string project_config;
  // With no project_config: use the nearest .topolint.json in the unit's
  // directory (that of its first input) or above, as the CLI does.
  bool search_project_config = false;
};

// Checks one unit. On success `*findings` holds the findings, sorted by
// file, line, column and rule (possibly none); on failure it is left empty.
// An empty unit is kInvalidArgument.
Status Check(const Unit& unit, const Options& options,
             std::vector<Finding>* findings);

// Checks files and directories exactly as `topolint check PATH...`: files
// in one directory form one unit, directories are searched recursively.
// Named files of no known kind are skipped (the CLI warns about them).
// The "include" / "exclude" filters of the .topolint.json in use
// (options.project_config, or the nearest one with search_project_config)
// apply to the files a directory search finds (docs/filters.md).
Status CheckPaths(const std::vector<std::string>& paths, const Options& options,
                  std::vector<Finding>* findings);

// The library version, e.g. "0.1.0".
const char* Version();

}  // namespace topolint::api

#endif  // TOPOLINT_TOPOLINT_H_
