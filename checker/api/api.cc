// The public C++ API (include/topolint/topolint.h) over the engine: builds
// a UnitSpec from the caller's inputs and runs LoadUnit + CheckUnit.
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <utility>

#include "checker/api/api_internal.h"
#include "checker/core/discovery.h"
#include "checker/core/path_filter.h"
#include "checker/core/runner.h"
#include "checker/diag/baseline.h"
#include "checker/diag/render.h"
#include "checker/io/input_file.h"
#include "fmt/format.h"
#include "topolint/topolint.h"

#ifndef TOPOLINT_VERSION
#define TOPOLINT_VERSION "unknown"
#endif

namespace topolint::api {
namespace {

namespace fs = std::filesystem;

// The engine's kind for a resolved public kind (kAuto = JSON by content).
topolint::InputKind EngineKind(InputKind kind) {
  switch (kind) {
    case InputKind::kHlo:
      return topolint::InputKind::kHlo;
    case InputKind::kNeff:
      return topolint::InputKind::kNeff;
    case InputKind::kAuto:
    case InputKind::kDefJson:
    case InputKind::kComponentConfig:
      break;
  }
  return topolint::InputKind::kJson;
}

// Resolves kAuto from the engine's classification: HLO and NEFF become
// explicit kinds, JSON stays kAuto (its content decides).
InputKind FromEngineKind(topolint::InputKind kind) {
  switch (kind) {
    case topolint::InputKind::kHlo:
      return InputKind::kHlo;
    case topolint::InputKind::kNeff:
      return InputKind::kNeff;
    case topolint::InputKind::kJson:
    case topolint::InputKind::kCompileFlags:
      break;
  }
  return InputKind::kAuto;
}

Status FromAbslStatus(const absl::Status& st) {
  Status out;
  out.message = std::string(st.message());
  switch (st.code()) {
    case absl::StatusCode::kOk:
      out.message.clear();
      out.code = Status::Code::kOk;
      break;
    case absl::StatusCode::kInvalidArgument:
      out.code = Status::Code::kInvalidArgument;
      break;
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kPermissionDenied:
      out.code = Status::Code::kNotFound;
      break;
    default:
      out.code = Status::Code::kUnreadable;
      break;
  }
  return out;
}

// The fingerprint is RootedFingerprint with `roots`, equal to the CLI's.
Finding ToApiFinding(const topolint::Finding& f, const SarifRoots& roots) {
  Finding out;
  out.rule = f.rule;
  out.severity = static_cast<Severity>(static_cast<int>(f.severity));
  out.message = f.message;
  out.file = f.loc.file;
  out.line = f.loc.line;
  out.column = f.loc.column;
  out.byte_offset = f.loc.byte_offset;
  if (f.loc.byte_offset >= 0) out.logical = f.loc.logical;
  for (const topolint::Note& n : f.notes) {
    out.notes.push_back(Note{n.message, n.loc.file, n.loc.line, n.loc.column});
  }
  out.fingerprint = RootedFingerprint(f, &roots);
  return out;
}

Status Convert(const absl::Status& st,
               const std::vector<topolint::Finding>& engine,
               const SarifRoots& roots, std::vector<Finding>* findings) {
  findings->clear();
  if (!st.ok()) return FromAbslStatus(st);
  findings->reserve(engine.size());
  for (const topolint::Finding& f : engine) {
    findings->push_back(ToApiFinding(f, roots));
  }
  return Status{};
}

}  // namespace

const char* SeverityName(Severity severity) {
  // The engine's names are literals, so the view is NUL-terminated.
  return topolint::SeverityName(static_cast<topolint::Severity>(severity))
      .data();
}

std::string FormatFinding(const Finding& f) {
  topolint::Location loc(f.file, f.line, f.column);
  loc.byte_offset = f.byte_offset;
  loc.logical = f.logical;
  std::string message = f.message;
  if (f.byte_offset >= 0) message += " (" + BinaryPlace(loc) + ")";
  return fmt::format("{}: {}: {} [{}]", PlaceLabel(loc, nullptr, false),
                     SeverityName(f.severity), message, f.rule);
}

bool HasErrors(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return f.severity == Severity::kError;
  });
}

const char* Version() { return TOPOLINT_VERSION; }

bool Unit::Contains(const std::string& name, bool in_memory) const {
  return std::any_of(inputs_.begin(), inputs_.end(), [&](const Input& in) {
    return in.name == name && in.in_memory == in_memory;
  });
}

Status Unit::AddFile(const std::string& path, InputKind kind) {
  if (path.find('\0') != std::string::npos) {
    // A C string would end there: refuse rather than read another file.
    return Status{Status::Code::kInvalidArgument,
                  "the path holds a NUL byte; expected a file name"};
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    return Status{Status::Code::kInvalidArgument,
                  fmt::format("{}: is a directory; add its files, or use "
                              "CheckPaths",
                              path)};
  }
  if (!fs::is_regular_file(path, ec)) {
    // A FIFO, device or socket says what it is (the shared check).
    const absl::Status kind_status = CheckReadableKind(path);
    if (!kind_status.ok() && !absl::IsNotFound(kind_status)) {
      return Status{Status::Code::kInvalidArgument,
                    std::string(kind_status.message())};
    }
    return Status{Status::Code::kNotFound,
                  fmt::format("{}: no such file", path)};
  }
  if (Contains(path, false)) {
    return Status{Status::Code::kInvalidArgument,
                  fmt::format("{}: already in the unit", path)};
  }
  if (kind == InputKind::kAuto) {
    topolint::InputKind engine_kind;
    if (!ClassifyFile(path, &engine_kind)) {
      return Status{Status::Code::kInvalidArgument,
                    fmt::format("{}: not HLO text, a NEFF def.json / .neff or "
                                "a component config; name its kind",
                                path)};
    }
    kind = FromEngineKind(engine_kind);
  }
  inputs_.push_back(Input{path, "", false, kind, {}});
  return Status{};
}

Status Unit::AddText(const std::string& name, std::string text,
                     InputKind kind) {
  Status st = ResolveTextKind(name, text, &kind);
  if (!st.ok()) return st;
  inputs_.push_back(Input{name, std::move(text), true, kind, {}});
  return Status{};
}

Status Unit::AddTextView(const std::string& name, std::string_view bytes,
                         InputKind kind) {
  Status st = ResolveTextKind(name, bytes, &kind);
  if (!st.ok()) return st;
  // A null view stands for "no view": an empty input gets a non-null one.
  static constexpr std::string_view kNoBytes = "";
  if (bytes.data() == nullptr) bytes = kNoBytes;
  inputs_.push_back(Input{name, std::string(), true, kind, bytes});
  return Status{};
}

Status Unit::ResolveTextKind(const std::string& name, std::string_view text,
                             InputKind* kind_out) const {
  InputKind& kind = *kind_out;
  if (name.empty()) {
    return Status{Status::Code::kInvalidArgument,
                  "an in-memory input needs a display name"};
  }
  if (Contains(name, true)) {
    return Status{Status::Code::kInvalidArgument,
                  fmt::format("{}: already in the unit", name)};
  }
  if (kind == InputKind::kAuto) {
    // As the CLI tells a pipe's kind (one function): the name, else the
    // content (HLO text or a binary module, plain or gzip, StableHLO text;
    // a JSON object is read by content).
    topolint::InputKind engine_kind;
    if (!ClassifyInMemory(name, text, &engine_kind)) {
      return Status{
          Status::Code::kInvalidArgument,
          fmt::format("cannot tell what kind of input '{}' is: it is neither "
                      "HLO (text or a binary module) nor a JSON object, nor "
                      "StableHLO text; name it .hlo, .hlo.txt, "
                      ".hlo_module.pb, .mlir, .neff or .json, or give its "
                      "kind",
                      name)};
    }
    kind = FromEngineKind(engine_kind);
  }
  return Status{};
}

namespace internal {

absl::Status BuildSpec(const Unit& unit, UnitSpec* spec,
                       std::vector<InMemoryInput>* in_memory) {
  if (unit.empty()) {
    return absl::InvalidArgumentError("the unit has no inputs");
  }
  spec->directory = ParentDirectory(unit.inputs().front().name);
  for (const Unit::Input& in : unit.inputs()) {
    InputFile f;
    f.path = in.name;
    f.kind = EngineKind(in.kind);
    f.named = true;
    f.from_stdin = in.in_memory;
    f.force_def_json = in.kind == InputKind::kDefJson;
    spec->files.push_back(std::move(f));
    // Read in place (the unit's text, or the caller's bytes): never copied.
    if (in.in_memory) {
      InMemoryInput m;
      m.name = in.name;
      m.borrowed = in.bytes();
      in_memory->push_back(std::move(m));
    }
  }
  return absl::OkStatus();
}

namespace {

// Checks one unit with the settings `options` give in its directory. As the
// CLI: each collective is checked as it is read and dropped, so a module's
// collectives are never held (memory bounded: docs/reference/quality.md,
// "Speed and memory").
absl::Status CheckOneUnit(const UnitSpec& spec,
                          const std::vector<InMemoryInput>& in_memory,
                          const Options& options,
                          std::vector<topolint::Finding>* findings,
                          ProjectConfigFinder* finder = nullptr) {
  RuleSelection selection;
  CheckOptions check;
  if (absl::Status st =
          BuildSettings(options, spec.directory, &selection, &check, finder);
      !st.ok()) {
    return st;
  }
  topolint::Unit loaded;
  return LoadAndCheckUnit(spec, in_memory, check, selection, &loaded, findings);
}

// Anchors the report at `first_input` (*roots) and drops the findings that
// options.baseline records, matched by RootedFingerprint with those roots
// as the CLI matches them. A baseline that cannot be read or parsed is
// kNotFound / kInvalidArgument.
absl::Status DropBaselined(const Options& options, std::string_view first_input,
                           std::vector<topolint::Finding>* findings,
                           SarifRoots* roots) {
  *roots = FindReportRoots("", first_input);
  const std::string& path = options.baseline;
  if (path.empty()) return absl::OkStatus();
  if (path.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(
        "baseline: the path holds a NUL byte; expected a file name");
  }
  // The CLI's reader: FIFOs, devices and directories are refused (never
  // read or waited on), the size is bounded, the text is never held.
  absl::StatusOr<Baseline> baseline = ReadBaselineFile(path);
  if (!baseline.ok()) {
    if (baseline.status().code() == absl::StatusCode::kNotFound) {
      return baseline.status();
    }
    return absl::InvalidArgumentError(baseline.status().message());
  }
  *findings = ApplyBaseline(std::move(*findings), *baseline, roots).kept;
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckUnitFindings(const Unit& unit, const Options& options,
                               std::vector<topolint::Finding>* findings,
                               SarifRoots* roots) {
  findings->clear();
  UnitSpec spec;
  std::vector<InMemoryInput> in_memory;
  if (absl::Status st = BuildSpec(unit, &spec, &in_memory); !st.ok()) {
    return st;
  }
  if (absl::Status st = CheckOneUnit(spec, in_memory, options, findings);
      !st.ok()) {
    return st;
  }
  return DropBaselined(options, unit.inputs().front().name, findings, roots);
}

absl::Status CheckPathsFindings(const std::vector<std::string>& paths,
                                const Options& options,
                                std::vector<topolint::Finding>* findings,
                                SarifRoots* roots) {
  findings->clear();
  if (paths.empty()) return absl::InvalidArgumentError("no paths to check");
  for (const std::string& p : paths) {
    if (p.find('\0') != std::string::npos) {
      return absl::InvalidArgumentError(
          "a path holds a NUL byte; expected a file or directory name");
    }
  }
  std::vector<UnitSpec> specs;
  DiscoveryReport report;
  // The "include" / "exclude" of the settings file in use apply as in the
  // CLI (none when no settings file is used).
  PathSelector selector;
  if (absl::Status st = selector.SetCommandLine({}, {}); !st.ok()) return st;
  selector.set_config(options.project_config);
  DiscoveryLimits limits;
  if (!options.project_config.empty() || options.search_project_config) {
    limits.selector = &selector;
  }
  if (absl::Status st = DiscoverUnits(paths, limits, &specs, &report);
      !st.ok()) {
    return st;
  }
  for (const UnitSpec& spec : specs) {
    std::vector<topolint::Finding> f;
    // Settings from the file the path filters took (one lookup).
    if (absl::Status st =
            CheckOneUnit(spec, {}, options, &f, selector.config_finder());
        !st.ok()) {
      return st;
    }
    findings->insert(findings->end(), std::make_move_iterator(f.begin()),
                     std::make_move_iterator(f.end()));
  }
  std::sort(findings->begin(), findings->end(), FindingLess);
  return DropBaselined(options, paths[0], findings, roots);
}

}  // namespace internal

Status Check(const Unit& unit, const Options& options,
             std::vector<Finding>* findings) {
  std::vector<topolint::Finding> engine;
  SarifRoots roots;
  absl::Status st = internal::CheckUnitFindings(unit, options, &engine, &roots);
  return Convert(st, engine, roots, findings);
}

Status CheckPaths(const std::vector<std::string>& paths, const Options& options,
                  std::vector<Finding>* findings) {
  std::vector<topolint::Finding> engine;
  SarifRoots roots;
  absl::Status st =
      internal::CheckPathsFindings(paths, options, &engine, &roots);
  return Convert(st, engine, roots, findings);
}

}  // namespace topolint::api
