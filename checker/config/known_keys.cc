#include "checker/config/known_keys.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "checker/diag/spelling.h"

namespace topolint::config {
namespace {

// Sorted (byte order) so that lookups can binary-search and suggestions are
// deterministic.
constexpr std::string_view kNxdiKeys[] = {
    "activation_quantization_type",
    "allow_input_truncation",
    "apply_seq_ids_mask",
    "async_mode",
    "attention_dp_degree",
    "attention_dtype",
    "attn_block_cte_nki_kernel_enabled",
    "attn_block_tkg_nki_kernel_cache_update",
    "attn_block_tkg_nki_kernel_cascaded_attention",
    "attn_block_tkg_nki_kernel_enabled",
    "attn_block_tkg_nki_kernel_use_online_softmax",
    "attn_cls",
    "attn_kernel_enabled",
    "attn_tkg_builtin_kernel_enabled",
    "attn_tkg_nki_kernel_enabled",
    "batch_size",
    "blockwise_matmul_config",
    "bucket_n_active_tokens",
    "buckets",
    "capacity_factor",
    "cast_type",
    "cc_pipeline_tiling_factor",
    "chunked_prefill_config",
    "context_encoding_buckets",
    "cp_degree",
    "ctx_batch_size",
    "disable_kv_cache_tiling",
    "disable_normalize_top_k_affinities",
    "disable_numeric_cc_token",
    "draft_model_modules_to_not_convert",
    "early_expert_affinity_modulation",
    "enable_bucketing",
    "enable_cte_modular_flow",
    "enable_eagle_draft_input_norm",
    "enable_eagle_speculation",
    "enable_fused_speculation",
    "enable_long_context_mode",
    "enable_output_completion_notifications",
    "enable_spill_reload_dge",
    "enable_token_tree",
    "enable_ve_data_parallel",
    "ep_degree",
    "ep_dispatch_cc_option",
    "expert_mlp_nki_kernel_enabled",
    "flash_decoding_enabled",
    "fused_qkv",
    "fused_rmsnorm_skip_gamma",
    "fused_shared_experts",
    "gate_clamp_lower_limit",
    "gate_clamp_upper_limit",
    "glu_mlp",
    "glu_type",
    "hidden_act_bias",
    "hidden_act_scaling_factor",
    "hybrid_sharding_config",
    "is_block_kv_layout",
    "is_chunked_prefill",
    "is_continuous_batching",
    "is_eagle3",
    "is_eagle_draft",
    "is_full_model_shuffled",
    "is_hidden_dim_shuffled",
    "is_intermediate_dim_shuffled",
    "is_medusa",
    "is_mxfp4_compute",
    "is_prefill_stage",
    "is_prefix_caching",
    "k_cache_transposed",
    "kv_cache_batch_size",
    "kv_cache_padding_size",
    "kv_cache_quant",
    "kv_cache_tiling",
    "kv_cache_update_with_kernel",
    "layer_boundary_markers",
    "lm_head_pad",
    "lm_head_pad_alignment_size",
    "local_ranks_size",
    "local_world_size",
    "logical_nc_config",
    "logical_neuron_cores",
    "lora_config",
    "max_batch_size",
    "max_context_length",
    "max_length",
    "max_new_tokens",
    "medusa_speculation_length",
    "medusa_tree",
    "mlp_cp_degree",
    "mlp_kernel_enabled",
    "mlp_kernel_fuse_residual_add",
    "mlp_tkg_nki_kernel_enabled",
    "modules_to_not_convert",
    "moe_ep_degree",
    "moe_fused_nki_kernel_enabled",
    "moe_mask_padded_tokens",
    "moe_tp_degree",
    "n_active_tokens",
    "n_positions",
    "normalize_top_k_affinities",
    "num_medusa_heads",
    "on_cpu",
    "on_device_sampling",
    "on_device_sampling_config",
    "out_proj_kernel_enabled",
    "output_logits",
    "overrides_torch_dtype",
    "pa_block_size",
    "pa_num_blocks",
    "padded_hidden_size",
    "padded_intermediate_size",
    "padding_side",
    "pp_degree",
    "pre_rope_rmsnorm",
    "prefix_buckets",
    "qk_layernorm",
    "qkv_cte_nki_kernel_fuse_rope",
    "qkv_kernel_enabled",
    "qkv_kernel_fuse_residual_add",
    "qkv_kernel_nbsd_layout",
    "qkv_nki_kernel_enabled",
    "quantization_block_axis",
    "quantization_block_size",
    "quantization_dtype",
    "quantization_scale_dtype",
    "quantization_type",
    "quantize_clamp_bound",
    "quantized",
    "quantized_checkpoints_path",
    "quantized_mlp_kernel_enabled",
    "record_layer_outputs",
    "return_expert_index",
    "return_router_logits",
    "rmsnorm_quantize_kernel_enabled",
    "router_config",
    "router_topk_nki_kernel_enabled",
    "rpl_reduce_dtype",
    "save_sharded_checkpoint",
    "scratchpad_page_size",
    "seq_len",
    "seq_len_threshold_for_cc_tiling",
    "sequence_parallel_enabled",
    "shared_experts_sequence_parallel_enabled",
    "shared_mlp_nki_kernel_enabled",
    "skip_sharding",
    "skip_vision",
    "skip_warmup",
    "spec_batch_size",
    "speculation_length",
    "start_rank_id",
    "strided_context_parallel_kernel_enabled",
    "switch_cc",
    "target",
    "tensor_capture_config",
    "tensor_replacement_config",
    "tile_cc",
    "tkg_batch_size",
    "token_generation_buckets",
    "token_tree_config",
    "torch_dtype",
    "tp_degree",
    "trace_tokengen_model",
    "transpose_shared_experts_weights",
    "up_clamp_lower_limit",
    "up_clamp_upper_limit",
    "use_index_calc_kernel",
    "vocab_parallel",
    "weight_gather_seq_len_threshold",
    "weights_to_skip_layout_optimization",
    "windowed_context_encoding_size",
    "world_size",
};

constexpr std::string_view kVllmKeys[] = {
    "_model_supports_independent_prefill_buckets",
    "_model_supports_windowed_prefill",
    "all2all_backend",
    "apply_prefill_dcp",
    "attention_dp_size",
    "block_quant_scale_min",
    "blockwise_fp8",
    "debug_logits_dir",
    "decode_batch_buckets",
    "decode_context_length_buckets",
    "draft_mlp_dp_size",
    "embedding_dp_size",
    "enable_hybrid_kv_cache",
    "enable_structured_outputs",
    "ep_degree",
    "fp8_packed_kv",
    "hybrid_kv_block_size",
    "kda_state_chunk_size",
    "kda_state_dtype",
    "kv_segment_size_buckets",
    "lm_head_dp_size",
    "max_logprobs",
    "mhc_eps",
    "mhc_sinkhorn_iters",
    "mlp_dp_size",
    "modules_to_not_convert",
    "num_batched_tokens_buckets",
    "num_seqs_buckets",
    "on_device_sampling_config",
    "prefill_sequence_buckets",
    "quantization",
    "tensor_capture",
    "tensor_replacement",
};

bool Contains(absl::Span<const std::string_view> sorted, std::string_view key) {
  return std::binary_search(sorted.begin(), sorted.end(), key);
}

// Longest key worth comparing; longer input cannot be a typo of a known key
// within the edit limit, and bounding it bounds the work per key.
constexpr size_t kMaxComparedKeyLength = 128;

// The known keys nearest to FoldKey(key), within 2 edits and a third of its
// length, in table order without repeats.
std::vector<std::string_view> NearestKeys(std::string_view key) {
  if (key.empty() || key.size() > kMaxComparedKeyLength) return {};
  const std::string folded = FoldKey(key);
  const int limit = std::min(2, static_cast<int>(folded.size() / 3));
  if (limit == 0) return {};
  std::vector<std::string_view> out;
  int best = limit;
  for (absl::Span<const std::string_view> keys :
       {absl::MakeConstSpan(kNxdiKeys), absl::MakeConstSpan(kVllmKeys)}) {
    for (std::string_view k : keys) {
      const int d = EditDistance(folded, k, limit);
      if (d > best) continue;
      if (d < best || out.empty()) {
        best = d;
        out.clear();
      }
      if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    }
  }
  return out;
}

}  // namespace

std::string FoldKey(std::string_view key) {
  std::string out(key);
  absl::AsciiStrToLower(&out);
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

absl::Span<const std::string_view> NxdiNeuronConfigKeys() { return kNxdiKeys; }
absl::Span<const std::string_view> VllmNeuronConfigKeys() { return kVllmKeys; }

bool IsKnownNeuronConfigKey(std::string_view key) {
  return Contains(kNxdiKeys, key) || Contains(kVllmKeys, key);
}

bool IsNxdiOnlyNeuronConfigKey(std::string_view key) {
  return Contains(kNxdiKeys, key) && !Contains(kVllmKeys, key);
}

std::string SuggestNeuronConfigKey(std::string_view key) {
  const std::vector<std::string_view> nearest = NearestKeys(key);
  if (nearest.empty()) return {};
  return std::string(*std::min_element(nearest.begin(), nearest.end()));
}

std::vector<std::string> NeuronConfigKeyCandidates(std::string_view key) {
  const std::vector<std::string_view> nearest = NearestKeys(key);
  return std::vector<std::string>(nearest.begin(), nearest.end());
}

}  // namespace topolint::config
