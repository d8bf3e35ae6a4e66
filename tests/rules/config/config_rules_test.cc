// CheckConfig: config-schema, config-unknown-key, config-dp-divides,
// config-mlp-dp-with-ep, config-di-recommended.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/families.h"
#include "tests/config/config_test_util.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;

std::vector<Finding> RunConfig(std::string_view text) {
  Unit unit;
  unit.configs.push_back(config::testing::ConfigFromText(text, "c.json"));
  Emitter emit([](std::string_view) { return true; },
               [](std::string_view) { return Severity::kError; });
  CheckConfig(unit, CheckOptions{}, emit);
  return emit.findings();
}

std::vector<Finding> Only(const std::vector<Finding>& all,
                          std::string_view rule) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

TEST(ConfigSchemaTest, ReportsAtTheValue) {
  const std::vector<Finding> f = RunConfig(
      "{\"tensor_parallel_size\": 8,\n"
      " \"neuron_config\": {\"mlp_dp_size\": -2}}");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "config-schema");
  EXPECT_EQ(f[0].loc, (Location{"c.json", 2, 35}));
  EXPECT_EQ(f[0].message,
            "neuron_config.mlp_dp_size is -2; expected an integer >= 1");
  EXPECT_EQ(f[0].anchor, "neuron_config.mlp_dp_size");
}

TEST(ConfigSchemaTest, CleanConfigsHaveNoFindings) {
  EXPECT_THAT(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
      "kv_transfer_config": {"kv_role": "kv_consumer"},
      "neuron_config": {"attention_dp_size": 4, "embedding_dp_size": 2,
                        "mlp_dp_size": 4, "draft_mlp_dp_size": 2,
                        "lm_head_dp_size": 1}})"),
              IsEmpty());
  EXPECT_THAT(RunConfig(R"({"neuron_config": {"tp_degree": 8, "cp_degree": 4,
      "attention_dp_degree": 2, "tkg_batch_size": 8, "world_size": 8,
      "logical_nc_config": 2, "is_continuous_batching": true,
      "quantize_clamp_bound": Infinity}})"),
              IsEmpty());
}

TEST(ConfigUnknownKeyTest, SuggestsTheNearestKey) {
  const std::vector<Finding> f = RunConfig(
      "{\"tensor_parallel_size\": 8,\n"
      " \"neuron_config\": {\"mlp_dp_szie\": 2}}");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "config-unknown-key");
  EXPECT_EQ(f[0].loc, (Location{"c.json", 2, 20}));  // the key
  EXPECT_EQ(f[0].message,
            "unknown neuron_config key 'mlp_dp_szie'; did you mean "
            "'mlp_dp_size'?");
  EXPECT_EQ(f[0].anchor, "neuron_config.mlp_dp_szie");
}

TEST(ConfigUnknownKeyTest, WithoutSuggestion) {
  const std::vector<Finding> f =
      Only(RunConfig(R"({"neuron_config": {"tp_degree": 2, "zzzz": 1}})"),
           "config-unknown-key");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message, HasSubstr("unknown neuron_config key 'zzzz'"));
  EXPECT_THAT(f[0].message, Not(HasSubstr("did you mean")));
}

TEST(ConfigUnknownKeyTest, LongKeysAreShortenedInTheMessage) {
  const std::string key(5000, 'q');
  const std::vector<Finding> f =
      RunConfig("{\"neuron_config\": {\"tp_degree\": 2, \"" + key + "\": 1}}");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_LT(f[0].message.size(), 300u);
  EXPECT_THAT(f[0].message, HasSubstr(std::string(64, 'q') + "..."));
}

TEST(ConfigUnknownKeyTest, FlatFormTopLevelIsNotChecked) {
  EXPECT_THAT(RunConfig(R"({"tp_degree": 2, "hidden_size": 4096})"), IsEmpty());
}

TEST(ConfigDpDividesTest, VllmComponentMustDivideDp) {
  const std::vector<Finding> f =
      Only(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
                    "kv_transfer_config": {"kv_role": "kv_both"},
                    "neuron_config": {"embedding_dp_size": 3}})"),
           "config-dp-divides");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message, HasSubstr("embedding_dp_size 3 does not divide "
                                      "data_parallel_size 4 (4 % 3 = 1)"));
  EXPECT_EQ(f[0].anchor, "neuron_config.embedding_dp_size");
  ASSERT_THAT(f[0].notes, SizeIs(1));
  EXPECT_EQ(f[0].notes[0].loc.line, 1);
}

TEST(ConfigDpDividesTest, DraftMlpToo) {
  const std::vector<Finding> f = Only(RunConfig(R"({"tensor_parallel_size": 8,
                    "neuron_config": {"draft_mlp_dp_size": 2}})"),
                                      "config-dp-divides");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message, HasSubstr("draft_mlp_dp_size 2 does not divide "
                                      "data_parallel_size 1 (the default)"));
  EXPECT_THAT(f[0].notes, IsEmpty());  // data_parallel_size is not written
}

TEST(ConfigDpDividesTest, NxdiTpByCpAndAttentionDpAndBatch) {
  const std::vector<Finding> f =
      Only(RunConfig(R"({"neuron_config": {"tp_degree": 8, "cp_degree": 3,
                    "attention_dp_degree": 4, "batch_size": 6,
                    "is_continuous_batching": true}})"),
           "config-dp-divides");
  ASSERT_THAT(f, SizeIs(2));
  EXPECT_THAT(f[0].message,
              HasSubstr("cp_degree 3 does not divide tp_degree 8 (8 % 3 = 2)"));
  EXPECT_EQ(f[0].anchor, "neuron_config.cp_degree");
  EXPECT_THAT(f[1].message,
              HasSubstr("batch_size 6 is not divisible by attention_dp_degree "
                        "4 (6 % 4 = 2)"));
  EXPECT_EQ(f[1].anchor, "neuron_config.batch_size");
}

TEST(ConfigDpDividesTest, NxdiAttentionDpMustDivideTp) {
  const std::vector<Finding> f = Only(
      RunConfig(R"({"neuron_config": {"tp_degree": 8, "attention_dp_degree": 3,
                    "tkg_batch_size": 9}})"),
      "config-dp-divides");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message,
              HasSubstr("attention_dp_degree 3 does not divide tp_degree 8"));
}

TEST(ConfigDpDividesTest, BatchUncheckedWhenNotWritten) {
  EXPECT_THAT(Only(RunConfig(R"({"neuron_config": {"tp_degree": 8,
                         "attention_dp_degree": 4}})"),
                   "config-dp-divides"),
              IsEmpty());
}

TEST(ConfigDpDividesTest, SamplingDpMustDivideTp) {
  const std::vector<Finding> f =
      Only(RunConfig(R"({"neuron_config": {"tp_degree": 8,
                    "on_device_sampling_config": {"sampling_dp_degree": 3}}})"),
           "config-dp-divides");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message, HasSubstr("sampling_dp_degree 3 does not divide"));
}

TEST(ConfigMlpDpWithEpTest, RejectsStaticDispatch) {
  const std::vector<Finding> f =
      Only(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
                    "neuron_config": {"ep_degree": 8, "mlp_dp_size": 4}})"),
           "config-mlp-dp-with-ep");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message, HasSubstr("mlp_dp_size 4"));
  EXPECT_THAT(f[0].message, HasSubstr("ep_degree 8"));
  EXPECT_THAT(f[0].message, HasSubstr("4 identical copies of one row block"));
  EXPECT_THAT(f[0].message, HasSubstr("draft_mlp_dp_size"));
  EXPECT_THAT(f[0].message, HasSubstr("all2all_backend \"neuron\""));
  EXPECT_EQ(f[0].anchor, "neuron_config.mlp_dp_size");
  ASSERT_THAT(f[0].notes, SizeIs(1));
  EXPECT_EQ(f[0].notes[0].message, "expert parallelism is set here");
}

TEST(ConfigMlpDpWithEpTest, EnableExpertParallelCounts) {
  const std::vector<Finding> f =
      Only(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 2,
                    "enable_expert_parallel": true, "all2all_backend": null,
                    "neuron_config": {"mlp_dp_size": 2}})"),
           "config-mlp-dp-with-ep");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message, HasSubstr("(enable_expert_parallel)"));
  EXPECT_THAT(f[0].notes, SizeIs(2));
}

TEST(ConfigMlpDpWithEpTest, AllowedCases) {
  // all2all_backend "neuron" (either place).
  EXPECT_THAT(
      Only(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
                         "neuron_config": {"ep_degree": 8, "mlp_dp_size": 4,
                                           "all2all_backend": "neuron"}})"),
           "config-mlp-dp-with-ep"),
      IsEmpty());
  EXPECT_THAT(
      Only(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
                         "enable_expert_parallel": true,
                         "all2all_backend": "neuron",
                         "neuron_config": {"mlp_dp_size": 4}})"),
           "config-mlp-dp-with-ep"),
      IsEmpty());
  // draft_mlp_dp_size is never restricted.
  EXPECT_THAT(
      Only(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
                         "neuron_config": {"ep_degree": 8,
                                           "draft_mlp_dp_size": 4}})"),
           "config-mlp-dp-with-ep"),
      IsEmpty());
  // No expert parallelism.
  EXPECT_THAT(
      Only(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
                         "enable_expert_parallel": false,
                         "neuron_config": {"mlp_dp_size": 4}})"),
           "config-mlp-dp-with-ep"),
      IsEmpty());
}

TEST(ConfigDiRecommendedTest, WarnsPerDecodeOnlyComponent) {
  const std::vector<Finding> f =
      Only(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
                    "neuron_config": {"attention_dp_size": 4,
                                      "lm_head_dp_size": 2, "mlp_dp_size": 4,
                                      "embedding_dp_size": 1}})"),
           "config-di-recommended");
  ASSERT_THAT(f, SizeIs(2));
  EXPECT_EQ(f[0].anchor, "neuron_config.attention_dp_size");
  EXPECT_THAT(f[0].message, HasSubstr("there is no kv_transfer_config"));
  EXPECT_THAT(f[0].message, HasSubstr("\"kv_consumer\" or \"kv_both\""));
  EXPECT_EQ(f[1].anchor, "neuron_config.lm_head_dp_size");
}

TEST(ConfigDiRecommendedTest, ProducerRoleIsNotEnough) {
  const std::vector<Finding> f =
      Only(RunConfig(R"({"tensor_parallel_size": 8, "data_parallel_size": 2,
                    "kv_transfer_config": {"kv_role": "kv_producer"},
                    "neuron_config": {"embedding_dp_size": 2}})"),
           "config-di-recommended");
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_THAT(f[0].message,
              HasSubstr("kv_transfer_config.kv_role is \"kv_producer\""));
  ASSERT_THAT(f[0].notes, SizeIs(1));
}

TEST(ConfigDiRecommendedTest, ConsumerOrBothIsFine) {
  for (const char* role : {"kv_consumer", "kv_both"}) {
    const std::string text =
        std::string(R"({"tensor_parallel_size": 8, "data_parallel_size": 2,
                        "kv_transfer_config": {"kv_role": ")") +
        role + R"("}, "neuron_config": {"attention_dp_size": 2}})";
    EXPECT_THAT(RunConfig(text), IsEmpty()) << role;
  }
}

}  // namespace
}  // namespace topolint
