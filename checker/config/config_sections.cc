#include "checker/config/config_sections.h"

#include <algorithm>
#include <string_view>

#include "absl/strings/match.h"
#include "checker/config/component_config.h"
#include "checker/config/known_keys.h"
#include "checker/diag/spelling.h"
#include "fmt/format.h"

namespace topolint::config {
namespace {

// Engine arguments that mark an object as vLLM's (EngineArgs field names).
constexpr std::string_view kEngineKeys[] = {
    "tensor_parallel_size",  "data_parallel_size", "enable_expert_parallel",
    "kv_transfer_config",    "additional_config",  "override_neuron_config",
    "pipeline_parallel_size"};

// The top-level keys of vLLM's `--additional-config` JSON (vllm-neuron's
// reference-configuration page): a document of these keys only is that
// JSON, not an NxDI neuron_config.json (which holds model fields).
constexpr std::string_view kAdditionalConfigKeys[] = {
    "neuron_config", "vision_neuron_config", "encoder_neuron_config",
    "mm_language_model_only"};

// Keys that hold a Neuron dict or a sub-model section; never a wrapper.
constexpr std::string_view kContainerKeys[] = {
    "neuron_config",       "additional_config", "override_neuron_config",
    "text_config",         "vision_config",     "text_neuron_config",
    "vision_neuron_config"};

constexpr size_t kMaxComparedKey = 64;
// Names at least this long also match within 2 edits; shorter ones only
// with case and '-' / '_' folded.
constexpr size_t kMinFuzzyName = 13;

bool In(absl::Span<const std::string_view> list, std::string_view key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

bool IsMisspelling(std::string_view key, std::string_view name) {
  if (key == name || key.size() > kMaxComparedKey) return false;
  const std::string folded = FoldKey(key);
  if (folded == name) return true;
  return name.size() >= kMinFuzzyName && EditDistance(folded, name, 2) <= 2;
}

bool HasParallelKey(const json::Value& obj) {
  if (!obj.is_object()) return false;
  for (const json::Member& m : obj.object) {
    if (m.key == "tp_degree" || m.key == "tensor_parallel_size" ||
        m.key == "data_parallel_size" || absl::EndsWith(m.key, "_dp_size") ||
        absl::EndsWith(m.key, "_dp_degree")) {
      return true;
    }
  }
  return false;
}

// `{"neuron_config": {...}}` as vllm-neuron's `--additional-config` carries
// it: only additional-config keys at the top level, and no NxDI-only key
// (tp_degree, world_size, ...) in the dict. NxDI's neuron_config.json holds
// model fields beside its dict and tp_degree inside it.
bool IsLoneAdditionalConfig(const json::Value& root, const json::Value& nc) {
  for (const json::Member& m : root.object) {
    if (!In(kAdditionalConfigKeys, m.key)) return false;
  }
  for (const json::Member& m : nc.object) {
    if (IsNxdiOnlyNeuronConfigKey(m.key)) return false;
  }
  return true;
}

class Locator {
 public:
  explicit Locator(ConfigSections* out) : out_(out) {}

  // Member `name` of `obj` when it is an object; else a misspelling of it
  // (recorded) whose value is an object; else nullptr.
  const json::Member* Container(const json::Value* obj, std::string_view path,
                                std::string_view name, const char* reader) {
    if (obj == nullptr || !obj->is_object()) return nullptr;
    if (const json::Member* m = obj->FindMember(name)) {
      return m->value.is_object() ? m : nullptr;
    }
    for (const json::Member& m : obj->object) {
      if (!m.value.is_object() || !IsMisspelling(m.key, name)) continue;
      out_->misspelled.push_back({m.key_pos, m.key_offset, m.key_escaped,
                                  JoinPath(path, m.key), m.key,
                                  std::string(name), reader});
      return &m;
    }
    return nullptr;
  }

 private:
  ConfigSections* out_;
};

// The main section's Neuron dict, looked for in `obj` (the engine object or
// the top level). Returns false when `obj` has none.
bool FindNeuronDict(Locator& loc, const json::Value* obj,
                    const std::string& path, ConfigSection* s,
                    const json::Member** additional,
                    std::string* additional_path) {
  // The dict `key` of `in` (at `in_path`), of `kind`, when there is one.
  auto take = [&](const json::Value* in, const std::string& in_path,
                  const char* key, const char* owner, NeuronDictKind kind) {
    const json::Member* m = loc.Container(in, in_path, key, owner);
    if (m == nullptr) return false;
    s->fields = &m->value;
    s->fields_path = JoinPath(in_path, m->key);
    s->kind = kind;
    return true;
  };
  if (take(obj, path, "neuron_config", "NxD Inference",
           NeuronDictKind::kNxdi)) {
    return true;
  }
  if (const json::Member* ac =
          loc.Container(obj, path, "additional_config", "vLLM")) {
    *additional = ac;
    *additional_path = JoinPath(path, ac->key);
    if (take(&ac->value, *additional_path, "neuron_config", "vllm-neuron",
             NeuronDictKind::kPlugin) ||
        take(&ac->value, *additional_path, "override_neuron_config",
             "vllm-neuron", NeuronDictKind::kOverride)) {
      return true;
    }
  }
  return take(obj, path, "override_neuron_config", "vLLM",
              NeuronDictKind::kOverride);
}

}  // namespace

bool HasKeyOf(const json::Value& obj, absl::Span<const std::string_view> keys) {
  if (!obj.is_object()) return false;
  for (const json::Member& m : obj.object) {
    if (In(keys, m.key)) return true;
  }
  return false;
}

std::string JoinPath(std::string_view parent, std::string_view key) {
  return parent.empty() ? std::string(key) : fmt::format("{}.{}", parent, key);
}

ConfigSections LocateSections(const json::Value& root) {
  ConfigSections out;
  Locator loc(&out);
  ConfigSection main;
  main.engine = &root;
  // Engine arguments under one wrapper object (deployment recipes).
  if (root.is_object() && !HasKeyOf(root, kParallelEngineKeys)) {
    for (const json::Member& m : root.object) {
      if (m.value.is_object() && !In(kContainerKeys, m.key) &&
          HasKeyOf(m.value, kEngineKeys)) {
        main.engine = &m.value;
        main.engine_path = m.key;
        break;
      }
    }
  }
  const json::Member* additional = nullptr;
  std::string ac_path;
  bool found = FindNeuronDict(loc, main.engine, main.engine_path, &main,
                              &additional, &ac_path);
  if (!found && main.engine != &root) {
    found = FindNeuronDict(loc, &root, "", &main, &additional, &ac_path);
  }
  if (!found) {
    main.fields = &root;
    main.kind = NeuronDictKind::kFlat;
  }
  if (main.kind == NeuronDictKind::kNxdi && main.engine == &root &&
      main.fields_path == "neuron_config" &&
      IsLoneAdditionalConfig(root, *main.fields)) {
    main.kind = NeuronDictKind::kPlugin;
  }
  out.sections.push_back(main);

  // Sub-model override dicts inside the override dict.
  if (main.kind == NeuronDictKind::kOverride) {
    for (std::string_view name :
         {"text_neuron_config", "vision_neuron_config"}) {
      const json::Member* m =
          loc.Container(main.fields, main.fields_path, name, "vllm-neuron");
      if (m == nullptr) continue;
      out.sections.push_back({std::string(name), main.engine, main.engine_path,
                              &m->value, JoinPath(main.fields_path, m->key),
                              NeuronDictKind::kOverride});
    }
  }
  // The native plugin's vision encoder config beside neuron_config.
  if (additional != nullptr) {
    if (const json::Member* m =
            loc.Container(&additional->value, ac_path, "vision_neuron_config",
                          "vllm-neuron")) {
      out.sections.push_back(
          {"vision_neuron_config", main.engine, main.engine_path, &m->value,
           JoinPath(ac_path, m->key), NeuronDictKind::kVisionPlugin});
    }
  }
  // NxDI sub-model sections, each flat or with its own neuron_config.
  for (std::string_view name : {"text_config", "vision_config"}) {
    const json::Member* m = loc.Container(&root, "", name, "NxD Inference");
    if (m == nullptr) continue;
    ConfigSection s;
    s.name = std::string(name);
    if (const json::Member* nc = loc.Container(
            &m->value, m->key, "neuron_config", "NxD Inference")) {
      s.fields = &nc->value;
      s.fields_path = JoinPath(m->key, nc->key);
      s.kind = NeuronDictKind::kNxdi;
    } else if (HasParallelKey(m->value)) {
      s.fields = &m->value;
      s.fields_path = m->key;
      s.kind = NeuronDictKind::kFlat;
    } else {
      continue;
    }
    out.sections.push_back(std::move(s));
  }
  return out;
}

bool LooksLikeComponentConfig(const json::Value& root) {
  // A NEFF def.json is never a config, whatever else it holds.
  if (!root.is_object() || root.FindMember("CCInfo") != nullptr) return false;
  const ConfigSections cs = LocateSections(root);
  if (!cs.misspelled.empty() || cs.sections.size() > 1) return true;
  const ConfigSection& main = cs.sections.front();
  if (main.kind != NeuronDictKind::kFlat) return true;
  return HasParallelKey(*main.fields) ||
         (main.engine != nullptr && HasParallelKey(*main.engine));
}

}  // namespace topolint::config
