#include "checker/config/config_sections.h"

#include <string>
#include <vector>

#include "checker/config/parallel_config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/config/config_test_util.h"

namespace topolint::config {
namespace {

using testing::ConfigFromText;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Names(const std::vector<ParallelConfig>& pcs) {
  std::vector<std::string> out;
  for (const ParallelConfig& pc : pcs) out.push_back(pc.section);
  return out;
}

TEST(ConfigSectionsTest, AdditionalConfigAloneIsAConfig) {
  const ComponentConfig c =
      ConfigFromText(R"({"override_neuron_config": {"skip_warmup": true}})");
  EXPECT_TRUE(LooksLikeComponentConfig(c.root()));
  const ParallelConfig pc = ReadParallelConfig(c);
  EXPECT_EQ(pc.kind, NeuronDictKind::kOverride);
  EXPECT_EQ(pc.neuron_config_path, "override_neuron_config");
  EXPECT_EQ(pc.form, ConfigForm::kVllm);
  ASSERT_NE(pc.neuron_config, nullptr);
}

TEST(ConfigSectionsTest, OverrideTpDegreeWinsOverEngineArgument) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"tensor_parallel_size": 8, "data_parallel_size": 2,
          "additional_config": {"override_neuron_config": {"tp_degree": 4}}})"));
  EXPECT_EQ(pc.neuron_config_path, "additional_config.override_neuron_config");
  EXPECT_EQ(pc.Tp().value, 4);
  EXPECT_EQ(pc.WorldSize(), 8);
}

TEST(ConfigSectionsTest, WrappedEngineArguments) {
  const ComponentConfig c = ConfigFromText(
      R"({"name": "x", "vllm_flags": {"tensor_parallel_size": 4,
          "data_parallel_size": 2, "enable_expert_parallel": true,
          "additional_config": {"neuron_config": {"mlp_dp_size": 2}}}})");
  EXPECT_TRUE(LooksLikeComponentConfig(c.root()));
  const ParallelConfig pc = ReadParallelConfig(c);
  EXPECT_EQ(pc.tensor_parallel_size.path, "vllm_flags.tensor_parallel_size");
  EXPECT_EQ(pc.tensor_parallel_size.value, 4);
  EXPECT_TRUE(pc.enable_expert_parallel.value);
  EXPECT_EQ(pc.mlp_dp_size.path,
            "vllm_flags.additional_config.neuron_config.mlp_dp_size");
  EXPECT_EQ(pc.WorldSize(), 8);
}

TEST(ConfigSectionsTest, WrapperBesideTopLevelOverride) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"server": {"tensor_parallel_size": 16},
          "override_neuron_config": {"cp_degree": 4}})"));
  EXPECT_EQ(pc.tensor_parallel_size.value, 16);
  EXPECT_EQ(pc.cp_degree.value, 4);
  EXPECT_EQ(pc.cp_degree.path, "override_neuron_config.cp_degree");
}

TEST(ConfigSectionsTest, DashedOverrideKeyIsReadAndReported) {
  const ComponentConfig c = ConfigFromText(
      R"({"tensor_parallel_size": 8, "additional_config":
          {"override-neuron-config": {"cp_degree": 2}}})");
  const ConfigSections cs = LocateSections(c.root());
  ASSERT_EQ(cs.misspelled.size(), 1u);
  EXPECT_EQ(cs.misspelled[0].key, "override-neuron-config");
  EXPECT_EQ(cs.misspelled[0].expected, "override_neuron_config");
  EXPECT_EQ(cs.misspelled[0].path, "additional_config.override-neuron-config");
  EXPECT_EQ(ReadParallelConfig(c).cp_degree.value, 2);
}

TEST(ConfigSectionsTest, NxdiSubModelSections) {
  const ComponentConfig c = ConfigFromText(
      R"({"text_config": {"neuron_config": {"tp_degree": 8}},
          "vision_config": {"tp_degree": 4, "world_size": 4}})");
  EXPECT_TRUE(LooksLikeComponentConfig(c.root()));
  const std::vector<ParallelConfig> pcs = ReadParallelConfigs(c);
  EXPECT_THAT(Names(pcs), ElementsAre("", "text_config", "vision_config"));
  EXPECT_EQ(pcs[1].tp_degree.value, 8);
  EXPECT_EQ(pcs[1].tp_degree.path, "text_config.neuron_config.tp_degree");
  EXPECT_EQ(pcs[1].form, ConfigForm::kNxdi);
  EXPECT_EQ(pcs[2].tp_degree.value, 4);
  EXPECT_EQ(pcs[2].neuron_config, nullptr);  // flat: keys not checked
}

TEST(ConfigSectionsTest, VllmSubModelOverrides) {
  const std::vector<ParallelConfig> pcs = ReadParallelConfigs(ConfigFromText(
      R"({"tensor_parallel_size": 16, "additional_config":
          {"override_neuron_config": {
             "text_neuron_config": {"attention_dp_degree": 4},
             "vision_neuron_config": {"tp_degree": 8}},
           "vision_neuron_config": {"dp_size": 2}}})"));
  EXPECT_THAT(Names(pcs),
              ElementsAre("", "text_neuron_config", "vision_neuron_config",
                          "vision_neuron_config"));
  EXPECT_EQ(pcs[1].tensor_parallel_size.value, 16);  // inherited
  EXPECT_EQ(pcs[1].attention_dp_degree.value, 4);
  EXPECT_EQ(pcs[2].Tp().value, 8);
  EXPECT_EQ(pcs[3].kind, NeuronDictKind::kVisionPlugin);
}

TEST(ConfigSectionsTest, UnrelatedJsonIsNotAConfig) {
  EXPECT_FALSE(LooksLikeComponentConfig(
      ConfigFromText(R"({"architectures": ["X"], "text_config":
                         {"hidden_size": 8}})")
          .root()));
  EXPECT_FALSE(LooksLikeComponentConfig(
      ConfigFromText(R"({"additional_config": {"foo": 1}})").root()));
  EXPECT_FALSE(LooksLikeComponentConfig(ConfigFromText("[1, 2]").root()));
  EXPECT_THAT(LocateSections(ConfigFromText("3").root()).misspelled, IsEmpty());
}

TEST(ConfigSectionsTest, All2AllBackendAnyString) {
  const ParallelConfig pc = ReadParallelConfig(ConfigFromText(
      R"({"tensor_parallel_size": 2, "all2all_backend": "pplx"})"));
  EXPECT_THAT(pc.problems, IsEmpty());
  EXPECT_EQ(pc.all2all_backend.value, "pplx");
  const ParallelConfig bad = ReadParallelConfig(
      ConfigFromText(R"({"tensor_parallel_size": 2, "all2all_backend": 3})"));
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_EQ(bad.problems[0].message,
            "all2all_backend is 3 (an integer); expected null or a string");
}

}  // namespace
}  // namespace topolint::config
