#include "checker/config/parallel_config.h"

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/config/config_test_util.h"

namespace topolint::config {
namespace {

using testing::ConfigFromText;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::vector<std::string> Messages(const ParallelConfig& pc) {
  std::vector<std::string> out;
  for (const SchemaProblem& p : pc.problems) out.push_back(p.message);
  return out;
}

// A config many units inherit is copied into each: the copies share the
// document and its reading, which is read once, by whichever copy asks
// first, from any thread, and outlives them all when shared.
TEST(ParallelConfigTest, CopiesShareOneReading) {
  std::optional<ComponentConfig> first = ConfigFromText(
      R"({"tensor_parallel_size": 8, "neuron_config": {"mlp_dp_size": 2}})");
  std::vector<ComponentConfig> copies(8, *first);
  std::vector<const std::vector<ParallelConfig>*> seen(copies.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < copies.size(); ++i) {
    threads.emplace_back([&, i] { seen[i] = &ReadParallelConfigs(copies[i]); });
  }
  for (std::thread& t : threads) t.join();
  for (const auto* s : seen) EXPECT_EQ(s, seen[0]);
  EXPECT_EQ(&ReadParallelConfigs(*first), seen[0]);
  EXPECT_EQ(&copies[0].root(), &first->root());

  const std::shared_ptr<const std::vector<ParallelConfig>> kept =
      SharedParallelConfigs(*first);
  first.reset();
  copies.clear();
  ASSERT_EQ(kept->size(), 1u);
  const ParallelConfig& pc = kept->front();
  EXPECT_EQ(pc.tensor_parallel_size.value, 8);
  ASSERT_NE(pc.neuron_config, nullptr);  // still points into the document
  EXPECT_EQ(pc.neuron_config->object.size(), 1u);
  EXPECT_EQ(pc.file, "cfg.json");
}

TEST(ParallelConfigTest, ReadsVllmFormWithLocations) {
  const ComponentConfig c = ConfigFromText(
      "{\n"
      "  \"tensor_parallel_size\": 8,\n"
      "  \"data_parallel_size\": 4,\n"
      "  \"neuron_config\": {\"attention_dp_size\": 4, \"mlp_dp_size\": 2}\n"
      "}\n");
  const ParallelConfig pc = ReadParallelConfig(c);
  EXPECT_EQ(pc.form, ConfigForm::kVllm);
  EXPECT_THAT(pc.problems, IsEmpty());
  EXPECT_EQ(pc.neuron_config_path, "neuron_config");
  ASSERT_NE(pc.neuron_config, nullptr);
  EXPECT_EQ(pc.tensor_parallel_size.value, 8);
  EXPECT_EQ(pc.tensor_parallel_size.value_pos.line, 2);
  EXPECT_EQ(pc.tensor_parallel_size.value_pos.column, 27);
  EXPECT_EQ(pc.tensor_parallel_size.key_pos.column, 3);
  EXPECT_EQ(pc.attention_dp_size.value, 4);
  EXPECT_EQ(pc.attention_dp_size.path, "neuron_config.attention_dp_size");
  EXPECT_EQ(pc.attention_dp_size.value_pos.line, 4);
  EXPECT_EQ(pc.attention_dp_size.value_pos.column, 42);
  EXPECT_EQ(pc.mlp_dp_size.value, 2);
  // Absent fields keep their defaults.
  EXPECT_FALSE(pc.embedding_dp_size.present);
  EXPECT_EQ(pc.embedding_dp_size.value, 1);
  EXPECT_EQ(pc.draft_mlp_dp_size.value, 1);
  EXPECT_EQ(pc.WorldSize(), 32);
  EXPECT_EQ(pc.EffectiveEp(), 1);
  EXPECT_FALSE(pc.ExpertParallel());
  EXPECT_TRUE(pc.LayoutFieldsOk());
}

TEST(ParallelConfigTest, ReadsAdditionalConfigNeuronConfig) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"tensor_parallel_size": 2, "additional_config":
          {"neuron_config": {"lm_head_dp_size": 2}}})"));
  EXPECT_EQ(pc.form, ConfigForm::kVllm);
  EXPECT_EQ(pc.neuron_config_path, "additional_config.neuron_config");
  EXPECT_EQ(pc.lm_head_dp_size.value, 2);
  EXPECT_EQ(pc.lm_head_dp_size.path,
            "additional_config.neuron_config.lm_head_dp_size");
}

TEST(ParallelConfigTest, ReadsNxdiSavedFormWithInfinity) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"hidden_size": 2048, "neuron_config": {
            "tp_degree": 2, "world_size": 2, "logical_nc_config": 1,
            "quantize_clamp_bound": Infinity, "batch_size": 4,
            "is_continuous_batching": true, "on_device_sampling_config":
            {"do_sample": false, "sampling_dp_degree": 2}}})"));
  EXPECT_EQ(pc.form, ConfigForm::kNxdi);
  EXPECT_THAT(Messages(pc), IsEmpty());
  EXPECT_EQ(pc.tp_degree.value, 2);
  EXPECT_EQ(pc.Tp().value, 2);
  EXPECT_EQ(pc.WorldSize(), 2);
  EXPECT_EQ(pc.tkg_batch_size.value, 4);  // defaults to batch_size
  EXPECT_TRUE(pc.is_continuous_batching.value);
  EXPECT_EQ(pc.sampling_dp_degree.value, 2);
  EXPECT_EQ(pc.sampling_dp_degree.path,
            "neuron_config.on_device_sampling_config.sampling_dp_degree");
  EXPECT_EQ(pc.WorldSizeField(), &pc.world_size);
}

TEST(ParallelConfigTest, NxdiWorldSizeDefaultsToTpPpEp) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"neuron_config": {"tp_degree": 8, "pp_degree": 2, "ep_degree": 2,
                            "world_size": null}})"));
  EXPECT_THAT(pc.problems, IsEmpty());
  EXPECT_FALSE(pc.world_size.present);
  EXPECT_EQ(pc.WorldSize(), 32);
  EXPECT_EQ(pc.WorldSizeField(), &pc.tp_degree);
  EXPECT_EQ(pc.WorldSizeExplanation(),
            "tp_degree 8 x pp_degree 2 x ep_degree 2");
}

TEST(ParallelConfigTest, FlatNxdiFormHasNoNeuronConfigObject) {
  const ParallelConfig pc = ReadParallelConfig(
      ConfigFromText(R"({"tp_degree": 8, "attention_dp_degree": 2})"));
  EXPECT_EQ(pc.form, ConfigForm::kNxdi);
  EXPECT_EQ(pc.neuron_config, nullptr);
  EXPECT_EQ(pc.attention_dp_degree.path, "attention_dp_degree");
  EXPECT_EQ(pc.attention_dp_degree.value, 2);
}

TEST(ParallelConfigTest, WorldSizeOverflowIsNullopt) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"tensor_parallel_size": 4611686018427387904,
          "data_parallel_size": 4})"));
  EXPECT_EQ(pc.WorldSize(), std::nullopt);
}

TEST(ParallelConfigTest, EnableExpertParallelSpansTheWorld) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"tensor_parallel_size": 8, "data_parallel_size": 2,
          "enable_expert_parallel": true})"));
  EXPECT_TRUE(pc.ExpertParallel());
  EXPECT_EQ(pc.EffectiveEp(), 16);
}

TEST(ParallelConfigTest, SizesMustBePositiveIntegers) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"tensor_parallel_size": 4.0, "neuron_config": {
            "mlp_dp_size": 0, "ep_degree": true, "lm_head_dp_size": "2",
            "attention_dp_size": 18446744073709551615}})"));
  EXPECT_THAT(
      Messages(pc),
      ElementsAre(
          "tensor_parallel_size is 4.0 (a number); expected an integer >= 1",
          "neuron_config.attention_dp_size is 18446744073709551615, too "
          "large; expected an integer >= 1",
          "neuron_config.mlp_dp_size is 0; expected an integer >= 1",
          "neuron_config.lm_head_dp_size is \"2\" (a string); expected an "
          "integer >= 1",
          "neuron_config.ep_degree is true (a boolean); expected an integer "
          ">= 1"));
  // Invalid values fall back to the defaults.
  EXPECT_FALSE(pc.mlp_dp_size.ok);
  EXPECT_TRUE(pc.mlp_dp_size.present);
  EXPECT_FALSE(pc.mlp_dp_size.IsSet());
  EXPECT_EQ(pc.mlp_dp_size.value, 1);
  EXPECT_EQ(pc.tensor_parallel_size.value, 1);
  EXPECT_FALSE(pc.LayoutFieldsOk());
  // Each problem points at the offending value.
  EXPECT_EQ(pc.problems[0].pos.column, 26);
  EXPECT_EQ(pc.problems[0].path, "tensor_parallel_size");
}

TEST(ParallelConfigTest, BooleansEnumsAndLnc) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"kv_transfer_config": {"kv_role": "consumer"},
          "enable_expert_parallel": 1,
          "neuron_config": {"all2all_backend": 5, "mlp_dp_size": 2,
                            "is_continuous_batching": "true",
                            "logical_nc_config": 3}})"));
  EXPECT_THAT(
      Messages(pc),
      ElementsAre(
          "enable_expert_parallel is 1 (an integer); expected true or false",
          "neuron_config.all2all_backend is 5 (an integer); expected null "
          "or a string",
          "kv_transfer_config.kv_role is \"consumer\"; expected "
          "\"kv_producer\", \"kv_consumer\" or \"kv_both\"",
          "neuron_config.is_continuous_batching is \"true\" (a string); "
          "expected true or false",
          "neuron_config.logical_nc_config is 3; expected 1 or 2"));
  EXPECT_TRUE(pc.all2all_backend.is_null);
  EXPECT_EQ(pc.logical_nc_config.value, 1);
}

TEST(ParallelConfigTest, All2AllBackendNullOrNeuronIsFine) {
  ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"all2all_backend": null, "neuron_config": {"mlp_dp_size": 2}})"));
  EXPECT_THAT(pc.problems, IsEmpty());
  EXPECT_TRUE(pc.all2all_backend.present);
  EXPECT_TRUE(pc.all2all_backend.is_null);
  pc = ReadParallelConfig(ConfigFromText(
      R"({"all2all_backend": null,
          "neuron_config": {"all2all_backend": "neuron", "mlp_dp_size": 2}})"));
  EXPECT_THAT(pc.problems, IsEmpty());
  EXPECT_EQ(pc.all2all_backend.value, "neuron");  // neuron_config wins
  EXPECT_EQ(pc.all2all_backend.path, "neuron_config.all2all_backend");
}

TEST(ParallelConfigTest, NeuronConfigMustBeAnObject) {
  const ParallelConfig pc = ReadParallelConfig(
      ConfigFromText(R"({"tp_degree": 2, "neuron_config": [1]})"));
  EXPECT_THAT(Messages(pc),
              ElementsAre("neuron_config is [...] (an array); expected an "
                          "object"));
  EXPECT_EQ(pc.tp_degree.value, 2);  // read from the top level
}

TEST(ParallelConfigTest, DeprecatedLncAlias) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"neuron_config": {"tp_degree": 2, "logical_neuron_cores": 2}})"));
  EXPECT_EQ(pc.logical_nc_config.value, 2);
  EXPECT_EQ(pc.logical_nc_config.path, "neuron_config.logical_neuron_cores");
}

TEST(ComponentConfigTest, LooksLikeComponentConfig) {
  EXPECT_TRUE(LooksLikeComponentConfig(
      ConfigFromText(R"({"neuron_config": {"tp_degree": 2}})").root()));
  EXPECT_TRUE(LooksLikeComponentConfig(
      ConfigFromText(R"({"tensor_parallel_size": 2})").root()));
  EXPECT_TRUE(LooksLikeComponentConfig(
      ConfigFromText(
          R"({"additional_config": {"neuron_config": {"mlp_dp_size": 2}}})")
          .root()));
  EXPECT_FALSE(LooksLikeComponentConfig(
      ConfigFromText(R"({"CCInfo": {}, "neuron_config": {"x": 1}})").root()));
}

}  // namespace
}  // namespace topolint::config
