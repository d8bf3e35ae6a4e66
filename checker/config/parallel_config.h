// The parallel layout a component config declares, as typed, located fields.
//
// Two config forms are understood:
//
//  - vLLM-on-Neuron: engine arguments at the top level (`tensor_parallel_size`,
//    `data_parallel_size`, `enable_expert_parallel`, `all2all_backend`,
//    `kv_transfer_config: {kv_role}`) and the plugin's `neuron_config` object
//    (`ep_degree`, `attention_dp_size`, `embedding_dp_size`, `mlp_dp_size`,
//    `draft_mlp_dp_size`, `lm_head_dp_size`, `all2all_backend`, ...). The
//    `neuron_config` object may also sit at `additional_config.neuron_config`
//    (as vLLM's `--additional-config` carries it). Other forms and where
//    sub-model sections sit: config_sections.h.
//  - NxD Inference: `neuron_config.json` as `InferenceConfig.save()` writes it
//    (model fields at the top level, a nested `neuron_config` with `tp_degree`,
//    `cp_degree`, `attention_dp_degree`, `world_size`, ...; bare `Infinity`
//    values are ordinary kFloat numbers), or the flat input-side form where
//    those NeuronConfig keywords sit at the top level.
//
// A file is the vLLM form when it has any vLLM-only key
// (`tensor_parallel_size`, `data_parallel_size`, `enable_expert_parallel`,
// `kv_transfer_config`, `additional_config` at the top level, or a `*_dp_size`
// / `all2all_backend` in the neuron_config object), or when its shape is
// vLLM's (an override dict, `additional_config`, or a lone top-level
// `neuron_config` with no NxDI-only key: config_sections.h); otherwise it is
// the NxDI form.
//
// What the file records: an `--additional-config` JSON alone does not hold
// the `vllm serve` arguments, so TP and DP (`--tensor-parallel-size`,
// `--data-parallel-size`) and disaggregated inference
// (`--kv-transfer-config`) are unknown there, not 1 / off. A file that holds
// any of vLLM's parallel engine arguments records the engine's arguments:
// absent ones are vLLM's defaults (`records_engine_args`). KnownTp() /
// KnownDp() say which values are recorded; WithDataParallelSize applies a DP
// given to topolint (--data-parallel-size, .topolint.json).
//
// Reading never fails: a field of the wrong type or out of range keeps its
// default as `value`, is marked `!ok`, and a SchemaProblem says why (the
// `config-schema` rule reports those), so every other rule can use `value`
// without re-validating.
#ifndef TOPOLINT_CHECKER_CONFIG_PARALLEL_CONFIG_H_
#define TOPOLINT_CHECKER_CONFIG_PARALLEL_CONFIG_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/config/component_config.h"
#include "checker/config/config_sections.h"
#include "checker/diag/location.h"

namespace topolint::config {

enum class ConfigForm { kVllm, kNxdi };

// "vLLM-on-Neuron" / "NxD Inference".
const char* ConfigFormName(ConfigForm form);

// One scalar field. `value` is what the rules should use: the written value
// when it is present and valid, else the documented default.
template <typename T>
struct Field {
  T value{};
  // The key is written (with any value; but a nullable integer such as
  // world_size written as null counts as absent).
  bool present = false;
  bool ok = true;       // false: written, but wrong type or out of range
  TextPos key_pos;      // the key's opening quote (when present)
  TextPos value_pos;    // the value's first byte (when present)
  std::string path;     // JSON path, e.g. "neuron_config.mlp_dp_size"
  std::string written;  // the value as written, shortened ("4", "true", ...)

  // Written with a valid value (not the default).
  bool IsSet() const { return present && ok; }
  // The last part of `path`: "mlp_dp_size".
  std::string key() const { return path.substr(path.rfind('.') + 1); }
};

using IntField = Field<int64_t>;
using BoolField = Field<bool>;
// For strings, `value` empty with `is_null` set means JSON null.
struct StringField : Field<std::string> {
  bool is_null = true;
};

// A problem `config-schema` reports.
struct SchemaProblem {
  TextPos pos;       // the offending value
  std::string path;  // JSON path of the field
  std::string message;
};

// A component DP size of the vLLM form: `<component>_dp_size`.
struct ComponentDp {
  const char*
      component;  // "attention", "embedding", "mlp", "draft_mlp", "lm_head"
  const IntField* field;
};

struct ParallelConfig {
  std::string file;
  // "" for the main config, else the sub-model section it was read from
  // ("text_config", "vision_neuron_config", ...).
  std::string section;
  NeuronDictKind kind = NeuronDictKind::kFlat;
  ConfigForm form = ConfigForm::kNxdi;
  // Where the NeuronConfig fields were read: "neuron_config",
  // "additional_config.neuron_config",
  // "additional_config.override_neuron_config", ..., or the flat section's
  // path ("" for the top level).
  std::string neuron_config_path;
  // The Neuron dict (nullptr for a flat section). Points into the
  // ComponentConfig this was read from, which must outlive this struct.
  const json::Value* neuron_config = nullptr;

  // --- vLLM form ---
  IntField tensor_parallel_size;  // default 1
  IntField data_parallel_size;    // default 1
  BoolField enable_expert_parallel;
  // Top-level `all2all_backend` (vLLM ParallelConfig) or the neuron_config
  // one; the neuron_config one wins when both are written.
  StringField all2all_backend;
  bool has_kv_transfer_config = false;   // an object (not null / absent)
  bool kv_transfer_config_null = false;  // written as null: DI off
  TextPos kv_transfer_config_pos;
  StringField kv_role;  // kv_transfer_config.kv_role
  IntField attention_dp_size, embedding_dp_size, mlp_dp_size, draft_mlp_dp_size,
      lm_head_dp_size;  // default 1
  // DCP prefill of a disaggregated-inference prefill server (its docs:
  // requires kv_role "kv_producer").
  BoolField apply_prefill_dcp;
  // The section's engine object holds one of vLLM's parallel engine
  // arguments (tensor_parallel_size, data_parallel_size,
  // enable_expert_parallel, pipeline_parallel_size): the file records the
  // engine arguments, and an absent one (kv_transfer_config included) is
  // vLLM's default.
  bool records_engine_args = false;
  // Where data_parallel_size.value comes from when it is not written:
  // "--data-parallel-size" or ".topolint.json" (WithDataParallelSize).
  std::string data_parallel_size_origin;

  // --- both forms ---
  IntField ep_degree;           // default 1
  IntField sampling_dp_degree;  // on_device_sampling_config.sampling_dp_degree

  // --- NxDI form ---
  IntField tp_degree, cp_degree, mlp_cp_degree, attention_dp_degree,
      pp_degree;               // default 1
  IntField world_size;         // default tp * pp * ep
  IntField logical_nc_config;  // 1 or 2; default 1 here (the real
                               // default depends on the platform)
  // The compiler's --target when set ("trn1"); null or absent: the
  // platform the model is compiled on (lnc-core-count).
  StringField target;
  IntField batch_size, ctx_batch_size, tkg_batch_size, max_batch_size;
  IntField moe_tp_degree, moe_ep_degree;  // default 1
  IntField local_ranks_size, start_rank_id;
  BoolField is_continuous_batching, sequence_parallel_enabled, switch_cc,
      enable_ve_data_parallel;

  std::vector<SchemaProblem> problems;

  // The five vLLM component DP sizes, in the order attention, embedding,
  // mlp, draft_mlp, lm_head.
  std::vector<ComponentDp> ComponentDpSizes() const;

  // vLLM: EP degree in effect: ep_degree when above 1; else the whole world
  // (TP*DP) with enable_expert_parallel; else 1. NxDI: ep_degree.
  int64_t EffectiveEp() const;
  // True when expert parallelism is on (ep_degree > 1, or vLLM
  // enable_expert_parallel true).
  bool ExpertParallel() const;

  // The tensor-parallel degree: tensor_parallel_size (vLLM), except that a
  // tp_degree written in an NxDI override dict wins (vllm-neuron applies the
  // overrides after the engine arguments); tp_degree (NxDI).
  const IntField& Tp() const;

  // The TP degree the config records: Tp() when written (or vLLM's default
  // 1 when the file records the engine arguments); nullopt when the file
  // does not record it (an `--additional-config` JSON alone) or it has a
  // schema problem. NxDI: tp_degree (NxDI's default 1 when absent).
  std::optional<int64_t> KnownTp() const;
  // vLLM: the data-parallel size when written, given to topolint
  // (WithDataParallelSize), or vLLM's default 1 when the file records the
  // engine arguments; else nullopt. NxDI: nullopt (NxDI has no vLLM DP).
  std::optional<int64_t> KnownDp() const;
  // True when WorldSize() rests on recorded values only: always for NxDI;
  // vLLM needs KnownTp() and KnownDp().
  bool WorldRecorded() const;

  // Number of ranks the config implies: TP*DP (vLLM), or world_size when
  // written else tp*pp*ep (NxDI). nullopt on int64 overflow. Uses the
  // fields' values (defaults where not written): see WorldRecorded().
  std::optional<int64_t> WorldSize() const;
  // How WorldSize() was derived, for messages: "tensor_parallel_size 8 x
  // data_parallel_size 4", "world_size as written", "tp_degree 8 x
  // pp_degree 1 x ep_degree 1".
  std::string WorldSizeExplanation() const;
  // True when every field that shapes the rank layout (degrees, DP sizes,
  // world size, expert parallelism, switch_cc) was read without a schema
  // problem, so that the layout built from `value`s is the one written.
  bool LayoutFieldsOk() const;

  // The field a world-size finding should point at: tensor_parallel_size,
  // else data_parallel_size (vLLM); world_size, else tp_degree (NxDI). Null
  // when none of them is written.
  const IntField* WorldSizeField() const;
};

// Reads every section of `cfg` (config_sections.h), the main one first, into
// ParallelConfigs. Never fails; see above. The result points into
// `cfg.root()`, which must outlive it. Read once for `cfg` and all its
// copies (ComponentConfigData::parallel, thread-safe), and lives as long as
// one of them does.
const std::vector<ParallelConfig>& ReadParallelConfigs(
    const ComponentConfig& cfg);
// The main section only (the first of ReadParallelConfigs).
const ParallelConfig& ReadParallelConfig(const ComponentConfig& cfg);
// ReadParallelConfigs, shared: for a holder that keeps the reading (and
// the document it points into) after `cfg` is gone.
std::shared_ptr<const std::vector<ParallelConfig>> SharedParallelConfigs(
    const ComponentConfig& cfg);

// A copy of `cfg` whose data-parallel size is `dp` (given to topolint by
// `origin`: "--data-parallel-size" or ".topolint.json"), when `cfg` is of
// the vLLM form and does not write data_parallel_size; nullopt otherwise
// (no `dp`, NxDI form, or written: the file wins). The copy points into the
// same document as `cfg`.
std::optional<ParallelConfig> WithDataParallelSize(const ParallelConfig& cfg,
                                                   std::optional<int64_t> dp,
                                                   const std::string& origin);

}  // namespace topolint::config

#endif  // TOPOLINT_CHECKER_CONFIG_PARALLEL_CONFIG_H_
