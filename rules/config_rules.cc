// config-schema, config-unknown-key, and the CheckConfig family entry point.
#include <optional>
#include <string>
#include <vector>

#include "checker/config/config_sections.h"
#include "checker/config/known_keys.h"
#include "checker/config/parallel_config.h"
#include "checker/diag/spelling.h"
#include "fmt/format.h"
#include "rules/config_rule_util.h"
#include "rules/families.h"

namespace topolint {
namespace config_rules {
namespace {

constexpr size_t kMaxKeyShown = 64;

// Renaming the key at `pos` (its opening quote, byte `offset`) from `key`
// to `to`; the fix engine checks that the bytes there are still `"key"`.
// Only for a key written without escapes (then those are its bytes; the
// caller checks).
Fix RenameKey(const std::string& file, TextPos pos, int64_t offset,
              const std::string& key, const std::string& to) {
  Fix fix;
  fix.title = fmt::format("rename '{}' to '{}'", key, to);
  TextEdit e;
  e.file = file;
  e.line = pos.line;
  e.column = pos.column;
  e.offset = offset;
  e.original = "\"" + key + "\"";
  e.replacement = "\"" + to + "\"";
  fix.edits.push_back(std::move(e));
  return fix;
}

// The key as shown in a message: keys come from the input, so the message
// stays one short line.
std::string ShownKey(const std::string& key) {
  return key.size() > kMaxKeyShown ? key.substr(0, kMaxKeyShown) + "..." : key;
}

// The unique known key `key` stands for, when renaming it is certain: one
// candidate, not already in `dict`, `key` written once in `dict` (two
// renamed would make the known key twice), and no other unknown key of
// `dict` standing for it. "" otherwise.
std::string CertainRename(const json::Value& dict, const std::string& key) {
  const std::vector<std::string> candidates =
      config::NeuronConfigKeyCandidates(key);
  if (candidates.size() != 1 || dict.Find(candidates[0]) != nullptr) {
    return "";
  }
  int written = 0;
  for (const json::Member& other : dict.object) {
    if (other.key == key) {
      if (++written > 1) return "";
      continue;
    }
    if (config::IsKnownNeuronConfigKey(other.key)) continue;
    if (config::SuggestNeuronConfigKey(other.key) == candidates[0]) return "";
  }
  return candidates[0];
}

}  // namespace

void CheckSchema(const config::ParallelConfig& cfg, Emitter& emit) {
  for (const config::SchemaProblem& p : cfg.problems) {
    emit.Report(kConfigSchema, At(cfg.file, p.pos), p.message, {}, p.path);
  }
}

void CheckUnknownKeys(const config::ParallelConfig& cfg, Emitter& emit) {
  // Only a real neuron_config object: in the flat form the top level also
  // holds model and engine fields that belong to neither NeuronConfig.
  // The native plugin's VisionNeuronConfig has keys of its own.
  if (cfg.neuron_config == nullptr ||
      cfg.kind == config::NeuronDictKind::kVisionPlugin) {
    return;
  }
  for (const json::Member& m : cfg.neuron_config->object) {
    if (config::IsKnownNeuronConfigKey(m.key)) continue;
    // Sub-model sections of an override dict are checked as their own
    // configs (and a misspelled one is reported by CheckMisspelledKeys).
    if (cfg.kind == config::NeuronDictKind::kOverride &&
        (m.key == "text_neuron_config" || m.key == "vision_neuron_config" ||
         (m.value.is_object() &&
          (EditDistance(m.key, "text_neuron_config", 2) <= 2 ||
           EditDistance(m.key, "vision_neuron_config", 2) <= 2)))) {
      continue;
    }
    const std::string suggestion = config::SuggestNeuronConfigKey(m.key);
    const std::string key = ShownKey(m.key);
    std::string message =
        suggestion.empty()
            ? fmt::format(
                  "unknown {} key '{}': neither the vLLM-on-Neuron "
                  "nor the NxD Inference NeuronConfig has it, so it "
                  "is ignored",
                  cfg.neuron_config_path, key)
            : fmt::format("unknown {} key '{}'; did you mean '{}'?",
                          cfg.neuron_config_path, key, suggestion);
    std::string anchor = cfg.neuron_config_path + "." + key;
    // A key written with escapes gets no fix: the bytes the edit would
    // check are not its decoded text.
    const std::string rename =
        suggestion.empty() || m.key_escaped || m.key_pos.line <= 0
            ? std::string()
            : CertainRename(*cfg.neuron_config, m.key);
    std::optional<Fix> fix;
    if (!rename.empty()) {
      fix = RenameKey(cfg.file, m.key_pos, m.key_offset, m.key, rename);
    }
    emit.Report(kConfigUnknownKey, At(cfg.file, m.key_pos), std::move(message),
                {}, std::move(anchor), std::move(fix));
  }
}

void CheckMisspelledKeys(const config::ComponentConfig& c, Emitter& emit) {
  for (const config::MisspelledKey& k :
       config::LocateSections(c.root()).misspelled) {
    std::string message = fmt::format(
        "'{}' is not read: {} looks for '{}', so the settings under this key "
        "are silently dropped; did you mean '{}'?",
        ShownKey(k.key), k.reader, k.expected, k.expected);
    // Certain when only case and '-' / '_' differ (the reader found no key
    // spelled as it expects, or it would not be reported).
    // Not for a key written with escapes (see CheckUnknownKeys).
    std::optional<Fix> fix;
    if (config::FoldKey(k.key) == k.expected && !k.pos.is_byte() &&
        !k.escaped && k.offset >= 0) {
      fix = RenameKey(c.file, k.pos, k.offset, k.key, k.expected);
    }
    emit.Report(kConfigUnknownKey, At(c.file, k.pos), std::move(message), {},
                k.path, std::move(fix));
  }
}

}  // namespace config_rules

// new-rule.sh(config) stub: a rule scaffolded by scripts/new-rule.sh,
// called first by CheckConfig:
//   namespace {
//   void Check@Rule@(const Unit& unit, const CheckOptions& options,
//                    Emitter& emit);
//   }  // namespace

void CheckConfig(const Unit& unit, const CheckOptions& options, Emitter& emit) {
  // new-rule.sh(config): Check@Rule@(unit, options, emit);
  for (const config::ComponentConfig& c : unit.configs) {
    config_rules::CheckMisspelledKeys(c, emit);
    // Each section (the main config, each sub-model) is a config of its own.
    for (const config::ParallelConfig& cfg : config::ReadParallelConfigs(c)) {
      config_rules::CheckSchema(cfg, emit);
      config_rules::CheckUnknownKeys(cfg, emit);
      // A data-parallel size given to topolint, for a config that does not
      // write one (an `--additional-config` JSON alone).
      const std::optional<config::ParallelConfig> with_dp =
          config::WithDataParallelSize(cfg, options.data_parallel_size,
                                       options.data_parallel_size_origin);
      config_rules::CheckDpDivides(with_dp.has_value() ? *with_dp : cfg, emit);
      config_rules::CheckMlpDpWithEp(cfg, emit);
      config_rules::CheckDiRecommended(cfg, emit);
    }
  }
  // compile_flags.json that is JSON but not flags (not a list of strings,
  // an LNC value that is no positive integer). JSON syntax errors are
  // json-syntax findings already.
  for (const config::CompileFlags& f : unit.compile_flags) {
    if (f.problem.empty() || f.json_syntax_error) continue;
    emit.Report(kConfigSchema, f.problem_loc, f.problem, {}, "compile_flags");
  }
}

}  // namespace topolint
