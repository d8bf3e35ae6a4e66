#include "checker/core/runner.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "checker/config/component_config.h"
#include "checker/core/suppression.h"
#include "checker/hlo/hlo_parser.h"
#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"
#include "checker/neff/neff_archive.h"
#include "fmt/format.h"
#include "rules/emitter.h"
#include "rules/registry.h"

namespace topolint {
namespace {

std::string BaseName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

absl::Status ReadWhole(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(fmt::format("{}: cannot read file", path));
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size > static_cast<std::streamoff>(json::kMaxDocumentBytes)) {
    return absl::ResourceExhaustedError(
        fmt::format("{}: file of {} bytes is larger than the {} byte limit "
                    "for JSON inputs",
                    path, size, json::kMaxDocumentBytes));
  }
  in.seekg(0, std::ios::beg);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return absl::DataLossError(fmt::format("{}: read error", path));
  *out = ss.str();
  return absl::OkStatus();
}

const std::string* FindInMemory(const std::vector<InMemoryInput>& in_memory,
                                const std::string& name) {
  for (const InMemoryInput& m : in_memory) {
    if (m.name == name) return &m.text;
  }
  return nullptr;
}

void LoadJson(const InputFile& f, const std::string& text, Unit* unit) {
  std::string base = BaseName(f.path);
  bool always = f.named || f.force_def_json || base == "def.json" || base == "neuron_config.json";
  json::ParseResult parsed = json::Parse(text);
  if (!parsed.ok) {
    if (always) {
      unit->json_syntax.push_back(
          {At(f.path, parsed.error.pos), parsed.error.message});
    }
    return;  // other .json met while searching: not ours
  }
  if (f.force_def_json || neff::IsDefJson(parsed.root) || base == "def.json") {
    unit->def_jsons.push_back(neff::BuildDefJson(parsed.root, f.path));
  } else if (config::LooksLikeComponentConfig(parsed.root)) {
    unit->configs.push_back(config::ComponentConfig{f.path, std::move(parsed.root)});
  }
}

}  // namespace

absl::Status LoadUnit(const UnitSpec& spec,
                      const std::vector<InMemoryInput>& in_memory, Unit* unit) {
  unit->directory = spec.directory;
  for (const InputFile& f : spec.files) {
    const std::string* mem =
        f.from_stdin ? FindInMemory(in_memory, f.path) : nullptr;
    switch (f.kind) {
      case InputKind::kHlo: {
        hlo::Module m;
        if (mem != nullptr) {
          m = hlo::ParseHloText(*mem, f.path);
        } else if (absl::Status st = hlo::ParseHloFile(f.path, f.path, &m);
                   !st.ok()) {
          return st;
        }
        unit->hlo_modules.push_back(std::move(m));
        break;
      }
      case InputKind::kJson: {
        std::string text;
        if (mem != nullptr) {
          text = *mem;
        } else if (absl::Status st = ReadWhole(f.path, &text); !st.ok()) {
          return st;
        }
        LoadJson(f, text, unit);
        break;
      }
      case InputKind::kNeff: {
        if (mem != nullptr) {
          return absl::InvalidArgumentError(
              "a .neff archive cannot be read from standard input");
        }
        std::ifstream probe(f.path, std::ios::binary);
        if (!probe) {
          return absl::NotFoundError(fmt::format("{}: cannot read file", f.path));
        }
        unit->neff_archives.push_back(neff::ReadNeffArchive(f.path, f.path));
        break;
      }
    }
  }
  return absl::OkStatus();
}

std::vector<Finding> CheckUnit(const Unit& unit, const CheckOptions& options,
                               const RuleSelection& selection) {
  Emitter emit(
      [&](std::string_view rule) { return selection.Enabled(rule); },
      [&](std::string_view rule) { return selection.EffectiveSeverity(rule); });
  for (const CheckFamily& family : AllCheckFamilies()) {
    family.run(unit, options, emit);
  }
  std::vector<Finding> findings = std::move(emit.findings());
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [&](const Finding& f) {
                                  return selection.IgnoredInFile(f.rule,
                                                                 f.loc.file);
                                }),
                 findings.end());
  ApplySuppressions(unit, selection, &findings);
  if (selection.werror()) {
    for (Finding& f : findings) {
      if (f.severity == Severity::kWarning) f.severity = Severity::kError;
    }
  }
  std::sort(findings.begin(), findings.end(), FindingLess);
  return findings;
}

}  // namespace topolint
