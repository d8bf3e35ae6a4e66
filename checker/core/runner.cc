#include "checker/core/runner.h"

#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>

#include "checker/config/compile_flags.h"
#include "checker/config/component_config.h"
#include "checker/core/suppression.h"
#include "checker/hlo/dispatch/parse_any.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/io/input_file.h"
#include "checker/io/repo_paths.h"
#include "checker/io/status_macros.h"
#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"
#include "checker/neff/neff_archive.h"
#include "fmt/format.h"
#include "rules/collective_checks.h"
#include "rules/emitter.h"
#include "rules/registry.h"

namespace topolint {
namespace {

OpenCheck CheckFor(const InputFile& f) {
  return f.seen_regular ? OpenCheck::kSeenRegular : OpenCheck::kStatFirst;
}

absl::Status ReadWhole(const InputFile& f, std::string* out) {
  return ReadInputFile(f.path, kMaxJsonFileBytes, "JSON inputs", out,
                       CheckFor(f));
}

// The in-memory content of `f` when it is read from standard input.
const InMemoryInput* FindInput(const std::vector<InMemoryInput>& in_memory,
                               const InputFile& f) {
  if (!f.from_stdin) return nullptr;
  for (const InMemoryInput& m : in_memory) {
    if (m.name == f.path) return &m;
  }
  return nullptr;
}

void LoadJson(const InputFile& f, std::string text, Unit* unit) {
  const std::string_view base = BaseName(f.path);
  bool always = f.named || f.force_def_json || base == "def.json" ||
                base == "neuron_config.json";
  // A def.json's replica_groups are read without a tree (they may list a
  // million ranks); the text stays with them for locating ranks.
  neff::DefJsonDocument doc =
      neff::ParseDefJson(std::make_shared<const std::string>(std::move(text)));
  json::ParseResult& parsed = doc.parsed;
  if (!parsed.ok) {
    if (always) {
      unit->json_syntax.push_back(
          {At(f.path, parsed.error.pos), parsed.error.message});
    }
    return;  // other .json met while searching: not ours
  }
  if (f.force_def_json || neff::IsDefJson(parsed.root) || base == "def.json") {
    unit->def_jsons.push_back(neff::BuildDefJson(std::move(doc), f.path));
  } else if (config::LooksLikeComponentConfig(parsed.root)) {
    unit->configs.push_back(
        config::ComponentConfig{f.path, std::move(parsed.root)});
  }
}

// Parses one HLO input into `*m` (collectives to `options.on_collective`
// when it is set).
absl::Status ParseHlo(const InputFile& f,
                      const std::vector<InMemoryInput>& in_memory,
                      const hlo::ParseOptions& options, hlo::Module* m) {
  const InMemoryInput* in = FindInput(in_memory, f);
  // Text or binary (HloModuleProto and its wrappers, plain or gzip) by
  // content, whatever the name says (NxD's model/graph.hlo is binary).
  if (in != nullptr) {
    if (in->stream_fd >= 0) {
      std::FILE* rest = fdopen(dup(in->stream_fd), "rb");
      if (rest == nullptr) {
        return absl::DataLossError(
            fmt::format("{}: cannot read standard input", f.path));
      }
      absl::Status st =
          hlo::ParseHloTextStream(in->text, rest, f.path, options, m);
      std::fclose(rest);
      return st;
    }
    hlo::ParseHloAny(in->bytes(), f.path, options, m);
    return absl::OkStatus();
  }
  // A regular file that fits one read window is read whole, once, and
  // parsed from memory (what the streaming reader would hold anyway); the
  // file reader takes larger files, pipes, and words every failure.
  const int64_t whole_limit = std::min(
      static_cast<int64_t>(options.window_bytes), options.max_file_bytes);
  absl::StatusOr<OpenedInput> opened = OpenInput(f.path, CheckFor(f));
  if (opened.ok() && opened->kind == FileKind::kRegular && opened->size >= 0 &&
      opened->size <= whole_limit) {
    std::string bytes;
    const absl::Status read =
        ReadOpenedBounded(*opened, f.path, static_cast<size_t>(whole_limit),
                          "one read window", &bytes);
    close(opened->fd);
    if (read.ok()) {
      // One window of the file's size: the result does not depend on the
      // window (hlo_parser.h), and a 34 KB module then touches 34 KB of
      // window, not 256 KiB.
      hlo::ParseOptions whole = options;
      whole.window_bytes = std::max<size_t>(bytes.size(), 1);
      hlo::ParseHloAny(bytes, f.path, whole, m);
      return absl::OkStatus();
    }
  } else if (opened.ok()) {
    close(opened->fd);
  }
  return hlo::ParseHloAnyFile(f.path, f.path, options, m);
}

// Binary modules have no lines: a location there is a byte offset, named
// here by the computation and op that span it ("computation %c, op %ar").
void NameBinaryLocations(const Unit& unit, std::vector<Finding>* findings) {
  auto name = [&](Location& loc) {
    if (loc.byte_offset < 0 || !loc.logical.empty()) return;
    for (const hlo::Module& m : unit.hlo_modules) {
      if (m.is_binary() && m.file == loc.file) {
        loc.logical = m.LogicalLocation(loc.byte_offset);
        return;
      }
    }
  };
  for (Finding& f : *findings) {
    name(f.loc);
    for (Note& n : f.notes) name(n.loc);
  }
}

// Loads one JSON or NEFF input into `unit` (an HLO input is left alone).
absl::Status LoadNonHlo(const InputFile& f,
                        const std::vector<InMemoryInput>& in_memory,
                        Unit* unit) {
  const InMemoryInput* mem = FindInput(in_memory, f);
  switch (f.kind) {
    case InputKind::kHlo:
      break;
    case InputKind::kJson:
    case InputKind::kCompileFlags: {
      if (f.config != nullptr) {  // parsed by discovery
        unit->configs.push_back(config::ComponentConfig{f.path, f.config});
        break;
      }
      std::string text;
      if (mem != nullptr) {
        text = std::string(mem->bytes());
      } else if (absl::Status st = ReadWhole(f, &text); !st.ok()) {
        return st;
      }
      if (f.kind == InputKind::kJson) {
        LoadJson(f, std::move(text), unit);
        break;
      }
      config::CompileFlags flags = config::ParseCompileFlags(text, f.path);
      if (flags.json_syntax_error) {
        unit->json_syntax.push_back({flags.problem_loc, flags.problem});
      }
      unit->compile_flags.push_back(std::move(flags));
      break;
    }
    case InputKind::kNeff: {
      if (mem != nullptr) {  // API buffers (the CLI refuses stdin)
        unit->neff_archives.push_back(
            neff::ReadNeffArchiveFromMemory(mem->bytes(), f.path));
        break;
      }
      if (f.seen_regular) {
        // The walk saw a regular file: opened at once and the descriptor
        // judged (the errors CheckReadableKind gives), not stat()ed twice.
        TOPOLINT_ASSIGN_OR_RETURN(OpenedInput opened,
                                  OpenInput(f.path, OpenCheck::kSeenRegular));
        unit->neff_archives.push_back(
            neff::ReadOpenedNeffArchive(opened, f.path, f.path));
        break;
      }
      if (absl::Status st = CheckReadableKind(f.path); !st.ok()) return st;
      unit->neff_archives.push_back(neff::ReadNeffArchive(f.path, f.path));
      break;
    }
  }
  return absl::OkStatus();
}

// What the emitter drops before a finding counts towards the findings cap:
// per-file ignores, and suppression comments of the unit's modules and of
// the module being parsed (its comments so far). FinishFindings applies
// both again, for what could not be decided yet.
struct EarlyFilter {
  EarlyFilter(const RuleSelection* selection_in, const Unit* unit_in)
      : selection(selection_in), unit(unit_in) {}

  const RuleSelection* selection;
  const Unit* unit;
  const hlo::Module* parsing = nullptr;
  UsedSuppressions used;
  SuppressionIndex index;

  bool Silences(const Finding& f) {
    if (selection->IgnoredInFile(f.rule, f.loc.file)) return true;
    if (parsing != nullptr && index.Silences(*parsing, f, &used)) return true;
    for (const hlo::Module& m : unit->hlo_modules) {
      if (index.Silences(m, f, &used)) return true;
    }
    return false;
  }
};

// `selection` and `filter` must outlive the emitter.
Emitter MakeEmitter(const RuleSelection& selection, const CheckOptions& options,
                    EarlyFilter* filter) {
  const RuleSelection* sel = &selection;
  Emitter emit(
      [sel](std::string_view rule) { return sel->Enabled(rule); },
      [sel](std::string_view rule) { return sel->EffectiveSeverity(rule); });
  emit.set_max_findings(options.max_findings);
  emit.set_severity_set(
      [sel](std::string_view rule) { return sel->SeveritySet(rule); });
  emit.set_filter([filter](const Finding& f) { return filter->Silences(f); });
  return emit;
}

// Per-file ignores, suppressions, --werror and the order: what CheckUnit
// does once the families have run.
std::vector<Finding> FinishFindings(const Unit& unit,
                                    const RuleSelection& selection,
                                    EarlyFilter& filter, Emitter& emit) {
  emit.AddCapNotes();
  std::vector<Finding> findings = std::move(emit.findings());
  emit.findings().clear();
  NameBinaryLocations(unit, &findings);
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [&](const Finding& f) {
                                  return selection.IgnoredInFile(f.rule,
                                                                 f.loc.file);
                                }),
                 findings.end());
  // The unused-suppression notes go through the emitter, capped as every
  // other rule's findings are (with their own cap note).
  ApplySuppressions(unit, selection, &findings, &filter.used, &emit);
  emit.AddCapNotes();
  for (Finding& f : emit.findings()) findings.push_back(std::move(f));
  emit.findings().clear();
  if (selection.werror()) {
    for (Finding& f : findings) {
      if (f.severity == Severity::kWarning) f.severity = Severity::kError;
      if (f.hidden_severity == Severity::kWarning) {
        f.hidden_severity = Severity::kError;
      }
    }
  }
  std::sort(findings.begin(), findings.end(), FindingLess);
  return findings;
}

}  // namespace

absl::Status LoadUnit(const UnitSpec& spec,
                      const std::vector<InMemoryInput>& in_memory, Unit* unit) {
  unit->directory = spec.directory;
  unit->unchecked = spec.unchecked;
  for (const InputFile& f : spec.files) {
    if (f.kind != InputKind::kHlo) {
      if (absl::Status st = LoadNonHlo(f, in_memory, unit); !st.ok()) return st;
      continue;
    }
    hlo::Module m;
    hlo::ParseOptions parse;
    // A StableHLO file split by `// -----` holds a module per part.
    parse.on_module_split = [unit](hlo::Module& part) {
      unit->hlo_modules.push_back(std::move(part));
    };
    if (absl::Status st = ParseHlo(f, in_memory, parse, &m); !st.ok()) {
      return st;
    }
    unit->hlo_modules.push_back(std::move(m));
  }
  return absl::OkStatus();
}

std::vector<Finding> CheckUnit(const Unit& unit, const CheckOptions& options,
                               const RuleSelection& selection) {
  EarlyFilter filter(&selection, &unit);
  Emitter emit = MakeEmitter(selection, options, &filter);
  for (const CheckFamily& family : AllCheckFamilies()) {
    family.run(unit, options, emit);
  }
  return FinishFindings(unit, selection, filter, emit);
}

absl::Status LoadJsonInput(const InputFile& f,
                           const std::vector<InMemoryInput>& in_memory,
                           Unit* unit) {
  return LoadNonHlo(f, in_memory, unit);
}

absl::Status LoadAndCheckUnit(const UnitSpec& spec,
                              const std::vector<InMemoryInput>& in_memory,
                              const CheckOptions& options,
                              const RuleSelection& selection, Unit* unit,
                              std::vector<Finding>* findings,
                              const SharedInputs* shared) {
  unit->directory = spec.directory;
  unit->unchecked = spec.unchecked;
  // The JSON and NEFF inputs first: the collective checks compare against
  // them. Loading stops at the first failure, as LoadUnit does; an HLO file
  // before that one in spec order may still fail first.
  size_t first_failure = spec.files.size();
  absl::Status failure;
  for (size_t i = 0; i < spec.files.size(); ++i) {
    const InputFile& f = spec.files[i];
    if (f.kind == InputKind::kHlo) continue;
    failure = shared != nullptr && shared->Holds(f)
                  ? shared->LoadInto(f, unit)
                  : LoadNonHlo(f, in_memory, unit);
    if (!failure.ok()) {
      first_failure = i;
      break;
    }
  }
  EarlyFilter filter(&selection, unit);
  Emitter emit = MakeEmitter(selection, options, &filter);
  CollectiveChecks checks(*unit, options, emit);
  for (size_t i = 0; i < first_failure; ++i) {
    if (spec.files[i].kind != InputKind::kHlo) continue;
    // Each collective is checked as the parser reads it and then dropped;
    // the sessions start at the first one (the header is final by then).
    hlo::Module m;
    bool begun = false;
    hlo::ParseOptions parse;
    parse.on_collective = [&](const hlo::Module& module, hlo::Collective& op) {
      filter.parsing = &module;
      if (!begun) {
        checks.BeginModule(module);
        begun = true;
      }
      checks.Op(op);
    };
    // A StableHLO file split by `// -----`: each part is a module of its
    // own, finished as the next one starts.
    parse.on_module_split = [&](hlo::Module& part) {
      filter.parsing = &part;
      if (!begun) checks.BeginModule(part);
      checks.EndModule();
      begun = false;
      filter.parsing = nullptr;
      unit->hlo_modules.push_back(std::move(part));
    };
    if (absl::Status st = ParseHlo(spec.files[i], in_memory, parse, &m);
        !st.ok()) {
      return st;
    }
    filter.parsing = &m;
    if (!begun) checks.BeginModule(m);
    checks.EndModule();
    filter.parsing = nullptr;
    unit->hlo_modules.push_back(std::move(m));
  }
  if (!failure.ok()) return failure;
  checks.CheckUnitParts();
  for (const CheckFamily& family : AllCheckFamilies()) {
    if (!CollectiveChecks::Replaces(family.run)) {
      family.run(*unit, options, emit);
    }
  }
  *findings = FinishFindings(*unit, selection, filter, emit);
  return absl::OkStatus();
}

}  // namespace topolint
