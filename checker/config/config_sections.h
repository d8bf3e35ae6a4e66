// Where the parallel settings of a component config document live: the
// config forms of docs/reference/inputs.md, located as sections of one JSON
// document.
//
//  - NxD Inference neuron_config.json: NeuronConfig keywords flat at the top
//    level, or under `neuron_config`; multimodal models add sub-model sections
//    `text_config` / `vision_config` (each flat or with its own
//    `neuron_config`), each checked as its own config.
//  - vLLM engine arguments (`tensor_parallel_size`, `data_parallel_size`,
//    `enable_expert_parallel`, ...) at the top level or under one wrapper
//    object (`vllm_flags`, `server`, ...), with the Neuron dict in
//    `additional_config.neuron_config` (vllm-neuron native plugin),
//    `additional_config.override_neuron_config` (vllm-neuron on NxDI), a
//    top-level `override_neuron_config` (vLLM <= 0.9 Neuron worker), or a
//    top-level `neuron_config`.
//  - vLLM's `--additional-config` JSON alone: `{"override_neuron_config":
//    {...}}` or `{"neuron_config": {...}}`.
//  - Sub-model override dicts: `text_neuron_config` / `vision_neuron_config`
//    inside the override dict, and `additional_config.vision_neuron_config`
//    (native plugin).
//
// A container key that the reading program would not find because it is
// misspelled (e.g. `override-neuron-config` with dashes, as the Neuron docs
// print it) is recorded as a MisspelledKey; its contents are still read, as
// the user meant them.
#ifndef TOPOLINT_CHECKER_CONFIG_CONFIG_SECTIONS_H_
#define TOPOLINT_CHECKER_CONFIG_CONFIG_SECTIONS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"

#include "checker/diag/location.h"
#include "checker/json/json_value.h"

namespace topolint::config {

// What kind of dict holds a section's NeuronConfig fields.
enum class NeuronDictKind {
  kFlat,         // no dict: the fields sit in `fields` beside other keys
  kNxdi,         // an NxDI `neuron_config` object (saved or input form)
  kPlugin,       // vllm-neuron native plugin NeuronConfig
  kOverride,     // NxDI NeuronConfig kwargs given as vLLM overrides
  kVisionPlugin  // native plugin VisionNeuronConfig (keys not checked)
};

struct ConfigSection {
  // "" for the main config, else the sub-model key ("text_config",
  // "vision_neuron_config", ...).
  std::string name;
  // The object holding vLLM engine arguments (the top level or a wrapper);
  // nullptr for NxDI sub-model sections.
  const json::Value* engine = nullptr;
  std::string engine_path;  // "" or e.g. "vllm_flags"
  // Where the NeuronConfig fields are read (never null), and its JSON path.
  const json::Value* fields = nullptr;
  std::string fields_path;
  NeuronDictKind kind = NeuronDictKind::kFlat;
};

// A container key the reading program looks up under another spelling.
struct MisspelledKey {
  TextPos pos;           // the key's opening quote
  int64_t offset = -1;   // its byte offset (json::Member::key_offset)
  bool escaped = false;  // written with escapes (json::Member::key_escaped)
  std::string path;      // JSON path of the key as written
  std::string key;       // as written
  std::string expected;  // the spelling the program reads
  std::string reader;    // who reads it: "vllm-neuron", "NxD Inference"
};

struct ConfigSections {
  std::vector<ConfigSection> sections;  // the main section first
  std::vector<MisspelledKey> misspelled;
};

// Locates the sections of `root` (any JSON value). The result points into
// `root`, which must outlive it. A document with no recognised container is
// one flat section at the top level.
ConfigSections LocateSections(const json::Value& root);

// The parallel vLLM engine arguments (EngineArgs field names).
inline constexpr std::string_view kParallelEngineKeys[] = {
    "tensor_parallel_size", "data_parallel_size", "enable_expert_parallel",
    "pipeline_parallel_size"};

// True when `obj` is an object with a member named in `keys`.
bool HasKeyOf(const json::Value& obj, absl::Span<const std::string_view> keys);

// The JSON path of member `key` of the object at `parent` ("" at the top).
std::string JoinPath(std::string_view parent, std::string_view key);

}  // namespace topolint::config

#endif  // TOPOLINT_CHECKER_CONFIG_CONFIG_SECTIONS_H_
