// The keys a `neuron_config` object may hold, in either config form, and a
// did-you-mean for the ones it may not.
//
// The lists are the union of
//   - NxD Inference `NeuronConfig`, `MoENeuronConfig` and
//     `MultimodalVisionNeuronConfig` (models/config.py): every keyword it
//     pops and every attribute `InferenceConfig.save()` writes (derived ones
//     such as `kv_cache_tiling` or `enable_long_context_mode` included), plus
//     deprecated spellings it still accepts (`logical_neuron_cores`,
//     `local_world_size`, `trace_tokengen_model`, `on_device_sampling`);
//   - vLLM-on-Neuron `NeuronConfig` (vllm_neuron/model/neuron_config.py),
//     plus `draft_mlp_dp_size` (docs/reference/rank-model.md §5).
#ifndef TOPOLINT_CHECKER_CONFIG_KNOWN_KEYS_H_
#define TOPOLINT_CHECKER_CONFIG_KNOWN_KEYS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"

namespace topolint::config {

// Keys of the NxD Inference NeuronConfig family, sorted.
absl::Span<const std::string_view> NxdiNeuronConfigKeys();
// Keys of the vLLM-on-Neuron NeuronConfig, sorted.
absl::Span<const std::string_view> VllmNeuronConfigKeys();

// True when either form knows `key` (exact, case-sensitive match).
bool IsKnownNeuronConfigKey(std::string_view key);

// `key` in lower case with '-' as '_': how keys are compared for typos.
std::string FoldKey(std::string_view key);
// True when only the NxD Inference NeuronConfig knows `key` (tp_degree,
// world_size, ...): a dict holding one is NxDI's.
bool IsNxdiOnlyNeuronConfigKey(std::string_view key);

// The known key nearest to `key` by optimal-string-alignment distance
// (insertions, deletions, substitutions and adjacent transpositions), after
// folding case and '-' to '_', when it is close enough to be a plausible
// typo: at most 2 edits and at most a third of `key`'s length. Ties go to the
// alphabetically first key. Empty when nothing is close.
std::string SuggestNeuronConfigKey(std::string_view key);

// Every known key as close to `key` as SuggestNeuronConfigKey's suggestion
// (the suggestion first among them only by its order); empty when there is
// no suggestion. A fix renames a key only when there is one candidate.
std::vector<std::string> NeuronConfigKeyCandidates(std::string_view key);

}  // namespace topolint::config

#endif  // TOPOLINT_CHECKER_CONFIG_KNOWN_KEYS_H_
