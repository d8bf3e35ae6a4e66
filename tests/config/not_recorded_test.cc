// What a config file records (TP, DP, disaggregated inference), the form a
// lone `{"neuron_config": ...}` is read as, and the rules that check only
// what is recorded: config-dp-divides, config-di-recommended,
// config-world-size and xref-config-groups.
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "checker/config/disaggregation.h"
#include "checker/config/known_keys.h"
#include "checker/config/parallel_config.h"
#include "checker/core/project_config.h"
#include "checker/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/families.h"
#include "tests/config/config_test_util.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Optional;
using ::testing::SizeIs;

config::ParallelConfig Read(std::string_view text) {
  // A ParallelConfig points into its document: keep every one.
  static std::deque<config::ComponentConfig>* keep =
      new std::deque<config::ComponentConfig>();
  keep->push_back(config::testing::ConfigFromText(text, "c.json"));
  return config::ReadParallelConfig(keep->back());
}

std::vector<Finding> Check(std::string_view text, std::string_view rule,
                           const CheckOptions& options = {}) {
  Unit unit;
  unit.configs.push_back(config::testing::ConfigFromText(text, "c.json"));
  Emitter emit([](std::string_view) { return true; },
               [](std::string_view) { return Severity::kError; });
  CheckConfig(unit, options, emit);
  std::vector<Finding> out;
  for (const Finding& f : emit.findings()) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

constexpr char kLoneComponentDp[] =
    R"({"neuron_config": {"attention_dp_size": 4, "embedding_dp_size": 4,
                          "mlp_dp_size": 4, "lm_head_dp_size": 4}})";

TEST(RecordedLayoutTest, AdditionalConfigAloneRecordsNoTpOrDp) {
  const config::ParallelConfig pc = Read(kLoneComponentDp);
  EXPECT_EQ(pc.form, config::ConfigForm::kVllm);
  EXPECT_FALSE(pc.records_engine_args);
  EXPECT_EQ(pc.KnownTp(), std::nullopt);
  EXPECT_EQ(pc.KnownDp(), std::nullopt);
  EXPECT_FALSE(pc.WorldRecorded());
  EXPECT_EQ(pc.WorldSizeExplanation(),
            "tensor_parallel_size not recorded x data_parallel_size not "
            "recorded");
}

TEST(RecordedLayoutTest, EngineArgumentsRecordTheirDefaults) {
  const config::ParallelConfig pc = Read(
      R"({"tensor_parallel_size": 8,
          "additional_config": {"neuron_config": {"mlp_dp_size": 2}}})");
  EXPECT_TRUE(pc.records_engine_args);
  EXPECT_THAT(pc.KnownTp(), Optional(8));
  EXPECT_THAT(pc.KnownDp(), Optional(1));
  EXPECT_TRUE(pc.WorldRecorded());
  // An override tp_degree records TP, not DP.
  const config::ParallelConfig ov =
      Read(R"({"override_neuron_config": {"tp_degree": 32}})");
  EXPECT_THAT(ov.KnownTp(), Optional(32));
  EXPECT_EQ(ov.KnownDp(), std::nullopt);
  // NxDI records its own layout.
  EXPECT_TRUE(Read(R"({"tp_degree": 8, "ep_degree": 2})").WorldRecorded());
}

TEST(RecordedLayoutTest, WithDataParallelSizeFillsOnlyWhatIsNotWritten) {
  const config::ParallelConfig pc = Read(kLoneComponentDp);
  const std::optional<config::ParallelConfig> dp =
      config::WithDataParallelSize(pc, 4, "--data-parallel-size");
  ASSERT_TRUE(dp.has_value());
  EXPECT_THAT(dp->KnownDp(), Optional(4));
  EXPECT_EQ(dp->data_parallel_size_origin, "--data-parallel-size");
  EXPECT_FALSE(config::WithDataParallelSize(pc, std::nullopt, "").has_value());
  EXPECT_FALSE(config::WithDataParallelSize(
                   Read(R"({"data_parallel_size": 2, "neuron_config": {}})"), 4,
                   "--data-parallel-size")
                   .has_value());
  EXPECT_FALSE(config::WithDataParallelSize(Read(R"({"tp_degree": 8})"), 4,
                                            "--data-parallel-size")
                   .has_value());
}

TEST(ConfigFormTest, LoneNeuronConfigIsTheVllmAdditionalConfig) {
  const config::ParallelConfig ep =
      Read(R"({"neuron_config": {"ep_degree": 2}})");
  EXPECT_EQ(ep.form, config::ConfigForm::kVllm);
  EXPECT_EQ(ep.kind, config::NeuronDictKind::kPlugin);
  EXPECT_FALSE(ep.WorldRecorded());
  // Beside it only additional-config keys.
  EXPECT_EQ(Read(R"({"neuron_config": {"ep_degree": 2},
                     "vision_neuron_config": {"tp_size": 2},
                     "mm_language_model_only": true})")
                .form,
            config::ConfigForm::kVllm);
  // tp_degree inside, or model fields beside: NxD Inference.
  EXPECT_EQ(Read(R"({"neuron_config": {"tp_degree": 8, "ep_degree": 2}})").form,
            config::ConfigForm::kNxdi);
  const config::ParallelConfig saved =
      Read(R"({"model_type": "llama", "neuron_config": {"ep_degree": 2}})");
  EXPECT_EQ(saved.form, config::ConfigForm::kNxdi);
  EXPECT_THAT(saved.WorldSize(), Optional(2));
}

TEST(KnownKeysTest, DocumentedPluginKeys) {
  for (const char* k :
       {"apply_prefill_dcp", "prefill_sequence_buckets", "decode_batch_buckets",
        "num_batched_tokens_buckets", "num_seqs_buckets",
        "kv_segment_size_buckets", "decode_context_length_buckets",
        "quantization", "enable_structured_outputs"}) {
    EXPECT_TRUE(config::IsKnownNeuronConfigKey(k)) << k;
  }
  EXPECT_TRUE(config::IsNxdiOnlyNeuronConfigKey("tp_degree"));
  EXPECT_FALSE(config::IsNxdiOnlyNeuronConfigKey("ep_degree"));
  EXPECT_THAT(Check(R"({"neuron_config": {"apply_prefill_dcp": true}})",
                    "config-unknown-key"),
              IsEmpty());
}

TEST(DpDividesRecordedTest, UnknownDpIsNotOne) {
  EXPECT_THAT(Check(kLoneComponentDp, "config-dp-divides"), IsEmpty());
  // Nor is an unknown TP: an override dict without tp_degree.
  EXPECT_THAT(Check(R"({"override_neuron_config": {"attention_dp_degree": 4,
                        "cp_degree": 2, "on_device_sampling_config":
                        {"sampling_dp_degree": 2}}})",
                    "config-dp-divides"),
              IsEmpty());
  EXPECT_THAT(Check(R"({"neuron_config": {"on_device_sampling_config":
                        {"sampling_dp_degree": 4}}})",
                    "config-dp-divides"),
              IsEmpty());
}

TEST(DpDividesRecordedTest, GivenDpIsChecked) {
  CheckOptions options;
  options.data_parallel_size = 2;
  options.data_parallel_size_origin = ".topolint.json";
  const std::vector<Finding> f =
      Check(kLoneComponentDp, "config-dp-divides", options);
  ASSERT_THAT(f, SizeIs(4));
  EXPECT_THAT(f[0].message,
              HasSubstr("attention_dp_size 4 does not divide "
                        "data_parallel_size 2 (from .topolint.json)"));
  EXPECT_THAT(f[0].notes, IsEmpty());
  options.data_parallel_size = 4;
  EXPECT_THAT(Check(kLoneComponentDp, "config-dp-divides", options), IsEmpty());
  // The engine arguments' default DP 1 is recorded.
  EXPECT_THAT(Check(R"({"tensor_parallel_size": 8,
                        "additional_config": {"neuron_config":
                        {"attention_dp_size": 2}}})",
                    "config-dp-divides"),
              SizeIs(1));
}

TEST(DiRecordedTest, AdditionalConfigAloneIsNotWarned) {
  EXPECT_THAT(Check(kLoneComponentDp, "config-di-recommended"), IsEmpty());
  const config::DiReading di =
      config::ReadDisaggregation(Read(kLoneComponentDp));
  EXPECT_EQ(di.state, config::DiState::kNotRecorded);
  EXPECT_EQ(config::DecodeOnlyDpSizes(Read(kLoneComponentDp)),
            "attention_dp_size 4, embedding_dp_size 4, lm_head_dp_size 4");
}

TEST(DiRecordedTest, WhatTheConfigShowsIsWarned) {
  struct Case {
    const char* text;
    const char* shown;
  } cases[] = {
      {R"({"tensor_parallel_size": 8, "data_parallel_size": 2,
           "kv_transfer_config": null,
           "additional_config": {"neuron_config": {"attention_dp_size": 2}}})",
       "kv_transfer_config is null"},
      {R"({"kv_transfer_config": null,
           "additional_config": {"neuron_config": {"attention_dp_size": 2}}})",
       "kv_transfer_config is null"},
      {R"({"neuron_config": {"attention_dp_size": 2,
                             "apply_prefill_dcp": true}})",
       "apply_prefill_dcp is true"},
      {R"({"data_parallel_size": 2,
           "additional_config": {"neuron_config": {"attention_dp_size": 2}}})",
       "there is no kv_transfer_config"},
  };
  for (const Case& c : cases) {
    const std::vector<Finding> f = Check(c.text, "config-di-recommended");
    ASSERT_THAT(f, SizeIs(1)) << c.text;
    EXPECT_THAT(f[0].message, HasSubstr(c.shown));
  }
  // apply_prefill_dcp false shows nothing.
  EXPECT_THAT(Check(R"({"neuron_config": {"attention_dp_size": 2,
                                          "apply_prefill_dcp": false}})",
                    "config-di-recommended"),
              IsEmpty());
}

std::vector<Finding> Xref(std::string_view config, const std::string& header,
                          const std::string& groups,
                          const CheckOptions& options = {}) {
  Unit unit;
  unit.configs.push_back(config::testing::ConfigFromText(config, "c.json"));
  unit.hlo_modules.push_back(hlo::ParseHloText(
      header +
          "\n\nENTRY %main (p: f32[8]) -> f32[8] {\n"
          "  %p = f32[8]{0} parameter(0)\n"
          "  ROOT %ar = f32[8]{0} all-reduce(f32[8]{0} %p), replica_groups=" +
          groups + ", to_apply=%add\n}\n",
      "m.hlo"));
  Emitter emit([](std::string_view) { return true; },
               [](std::string_view) { return Severity::kError; });
  CheckConfigXref(unit, options, emit);
  return emit.findings();
}

TEST(ConfigXrefRecordedTest, UnrecordedWorldIsNotCompared) {
  // NxDI would read ep_degree 2 as a world of 2; vLLM's world is TP x DP,
  // which this file does not record.
  constexpr char kTpRows[] = "{{0,1,2,3,4,5,6,7},{8,9,10,11,12,13,14,15}}";
  EXPECT_THAT(Xref(R"({"neuron_config": {"ep_degree": 2}})",
                   "HloModule m, replica_count=16", kTpRows),
              IsEmpty());
  CheckOptions dp;
  dp.data_parallel_size = 2;
  EXPECT_THAT(Xref(R"({"neuron_config": {"ep_degree": 2}})",
                   "HloModule m, replica_count=16", kTpRows, dp),
              IsEmpty());
  // TP written (DP: the engine default 1): compared, and 8 is not 16.
  const std::vector<Finding> f =
      Xref(R"({"tensor_parallel_size": 8, "neuron_config": {"ep_degree": 2}})",
           "HloModule m, replica_count=16", kTpRows);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "config-world-size");
  EXPECT_THAT(f[0].message, HasSubstr("world size is 8"));
  // With DP 2 given, the world is TP x DP = 16 (ep_degree does not multiply
  // it) and the TP rows are a family.
  EXPECT_THAT(Xref(R"({"tensor_parallel_size": 8,
                       "neuron_config": {"ep_degree": 2}})",
                   "HloModule m, replica_count=16", kTpRows, dp),
              IsEmpty());
}

TEST(ConfigXrefRecordedTest, HeaderlessModuleIsNotOneDevice) {
  constexpr char kTp8[] = R"({"tensor_parallel_size": 8})";
  EXPECT_THAT(Xref(kTp8, "HloModule m", "{}"), IsEmpty());
  EXPECT_THAT(Xref(kTp8, "HloModule m", "{{0,1,2,3,4,5,6,7}}"), IsEmpty());
  CheckOptions r4;
  r4.replica_count = 4;
  const std::vector<Finding> f = Xref(kTp8, "HloModule m", "{}", r4);
  ASSERT_THAT(f, SizeIs(1));
  EXPECT_EQ(f[0].rule, "config-world-size");
  // A header that records replica_count=1 is a device count of 1.
  EXPECT_THAT(Xref(kTp8, "HloModule m, replica_count=1", "{}"), SizeIs(1));
}

TEST(ProjectConfigTest, DataParallelSizeKey) {
  absl::StatusOr<ProjectConfig> cfg =
      ParseProjectConfig(R"({"data_parallel_size": 4})", ".topolint.json");
  ASSERT_TRUE(cfg.ok()) << cfg.status();
  EXPECT_THAT(cfg->data_parallel_size, Optional(4));
  RuleSelection selection;
  CheckOptions check;
  ASSERT_TRUE(ApplyProjectConfig(*cfg, &selection, &check).ok());
  EXPECT_THAT(check.data_parallel_size, Optional(4));
  EXPECT_EQ(check.data_parallel_size_origin, ".topolint.json");
  EXPECT_FALSE(
      ParseProjectConfig(R"({"data_parallel_size": 0})", "t.json").ok());
  const absl::StatusOr<ProjectConfig> typo =
      ParseProjectConfig(R"({"data_paralel_size": 4})", "t.json");
  ASSERT_FALSE(typo.ok());
  EXPECT_THAT(std::string(typo.status().message()),
              HasSubstr("did you mean \"data_parallel_size\""));
}

}  // namespace
}  // namespace topolint
