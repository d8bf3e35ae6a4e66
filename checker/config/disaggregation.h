// Disaggregated inference (DI) as a vLLM-form config shows it.
//
// Component DP sizes that change the decode graph only (attention,
// embedding, LM head) need DI with the server in a decode role (kv_role
// "kv_consumer" or "kv_both"). DI is set by `vllm serve
// --kv-transfer-config`, an engine argument: a file that records the engine
// arguments shows it (or its absence), but vLLM's `--additional-config` JSON
// alone does not. What a config shows:
//
//  - kDecodeRole: kv_transfer_config with kv_role kv_consumer / kv_both.
//  - kShownOff: kv_transfer_config with another kv_role or none;
//    kv_transfer_config written as null; `apply_prefill_dcp: true` in the
//    neuron_config (the vllm-neuron docs: it runs on a DI prefill server,
//    kv_role "kv_producer"); or engine arguments recorded
//    (ParallelConfig::records_engine_args) without kv_transfer_config, whose
//    default is no DI.
//  - kNotRecorded: none of those (an `--additional-config` JSON alone).
#ifndef TOPOLINT_CHECKER_CONFIG_DISAGGREGATION_H_
#define TOPOLINT_CHECKER_CONFIG_DISAGGREGATION_H_

#include <string>

#include "checker/config/parallel_config.h"

namespace topolint::config {

enum class DiState { kDecodeRole, kShownOff, kNotRecorded };

struct DiReading {
  DiState state = DiState::kNotRecorded;
  // kShownOff: what shows it, as a clause ("kv_transfer_config is null").
  std::string shown;
};

// Meaningful for the vLLM form; an NxDI config gives kNotRecorded.
DiReading ReadDisaggregation(const ParallelConfig& cfg);

// The decode-only component DP sizes above 1 as "attention_dp_size 4,
// lm_head_dp_size 2", or "" when there are none.
std::string DecodeOnlyDpSizes(const ParallelConfig& cfg);

}  // namespace topolint::config

#endif  // TOPOLINT_CHECKER_CONFIG_DISAGGREGATION_H_
