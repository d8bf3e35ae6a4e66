#include "checker/config/known_keys.h"

#include <algorithm>
#include <string>

#include "gtest/gtest.h"

namespace topolint::config {
namespace {

TEST(KnownKeysTest, ListsAreSortedAndUnique) {
  for (auto keys : {NxdiNeuronConfigKeys(), VllmNeuronConfigKeys()}) {
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
    EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end());
  }
}

TEST(KnownKeysTest, KnowsBothForms) {
  // NxDI NeuronConfig / MoENeuronConfig, including save()-only attributes.
  for (const char* k :
       {"tp_degree", "cp_degree", "attention_dp_degree", "world_size",
        "logical_nc_config", "tkg_batch_size", "quantize_clamp_bound",
        "moe_ep_degree", "hybrid_sharding_config", "kv_cache_tiling",
        "enable_long_context_mode", "switch_cc", "ep_dispatch_cc_option",
        "logical_neuron_cores"}) {
    EXPECT_TRUE(IsKnownNeuronConfigKey(k)) << k;
  }
  // vLLM-on-Neuron NeuronConfig.
  for (const char* k : {"attention_dp_size", "embedding_dp_size", "mlp_dp_size",
                        "draft_mlp_dp_size", "lm_head_dp_size",
                        "all2all_backend", "ep_degree"}) {
    EXPECT_TRUE(IsKnownNeuronConfigKey(k)) << k;
  }
}

TEST(KnownKeysTest, RejectsNearMissesAndCase) {
  EXPECT_FALSE(IsKnownNeuronConfigKey("mlp_dp_szie"));
  EXPECT_FALSE(IsKnownNeuronConfigKey("TP_DEGREE"));
  EXPECT_FALSE(IsKnownNeuronConfigKey(""));
  // Top-level vLLM engine arguments are not neuron_config keys.
  EXPECT_FALSE(IsKnownNeuronConfigKey("tensor_parallel_size"));
}

TEST(KnownKeysTest, SuggestsTheIntendedKey) {
  EXPECT_EQ(SuggestNeuronConfigKey("mlp_dp_szie"), "mlp_dp_size");
  EXPECT_EQ(SuggestNeuronConfigKey("tp_degre"), "tp_degree");
  EXPECT_EQ(SuggestNeuronConfigKey("TP_DEGREE"), "tp_degree");
  EXPECT_EQ(SuggestNeuronConfigKey("attention-dp-size"), "attention_dp_size");
  EXPECT_EQ(SuggestNeuronConfigKey("lm_head_dp_sizes"), "lm_head_dp_size");
}

TEST(KnownKeysTest, NoSuggestionWhenNothingIsClose) {
  EXPECT_EQ(SuggestNeuronConfigKey("completely_unrelated"), "");
  EXPECT_EQ(SuggestNeuronConfigKey("xy"), "");  // too short to guess
  EXPECT_EQ(SuggestNeuronConfigKey(""), "");
  EXPECT_EQ(SuggestNeuronConfigKey(std::string(10000, 'a')), "");
}

}  // namespace
}  // namespace topolint::config
