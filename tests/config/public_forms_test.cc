// The public config forms (fixtures/configs-public: the vLLM-on-Neuron
// `--additional-config` examples, vllm-neuron override dicts, NxDI recipes)
// give no false alarm; what a file does not record (TP, DP, disaggregated
// inference, a header-less module's device count) is said by `explain`, and
// DP can be given with --data-parallel-size / .topolint.json.
#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kPublic[] = "fixtures/configs-public";

std::vector<std::string> Rules(const CliResult& r) {
  std::vector<std::string> out;
  for (const nlohmann::json& f : nlohmann::json::parse(r.out)) {
    out.push_back(f["rule"].get<std::string>());
  }
  return out;
}

TEST(PublicFormsTest, NoFalseAlarmOnAnyPublicForm) {
  const CliResult r = RunTopolint({"check", "--format", "json", kPublic});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const std::string& rule : Rules(r)) {
    for (const char* kind :
         {"config-dp-divides", "config-di-recommended", "config-unknown-key",
          "config-world-size", "xref-config-groups"}) {
      EXPECT_NE(rule, kind) << r.out;
    }
  }
  // Every case was read as a config (and each HLO module beside one as a
  // module): none was skipped as another kind.
  int cases = 0;
  int modules = 0;
  for (const auto& e : std::filesystem::directory_iterator(
           std::string(TOPOLINT_SOURCE_DIR) + "/" + kPublic)) {
    if (!e.is_directory()) continue;
    ++cases;
    if (std::filesystem::exists(e.path() / "model.hlo")) ++modules;
  }
  EXPECT_GE(cases, 19);
  const CliResult text = RunTopolint({"check", kPublic});
  EXPECT_THAT(text.err, HasSubstr(std::to_string(cases) + " units"));
  EXPECT_THAT(text.err,
              HasSubstr(std::to_string(cases + modules) + " files checked"));
}

TEST(PublicFormsTest, DataParallelSizeFlagChecksTheComponentSizes) {
  const std::string dir =
      std::string(kPublic) + "/pass-mixed-component-dp";  // attention 8
  const CliResult r = RunTopolint({"check", "--data-parallel-size", "4", dir});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("attention_dp_size 8 does not divide "
                               "data_parallel_size 4 (from "
                               "--data-parallel-size)"));
  EXPECT_THAT(r.out, HasSubstr("[config-dp-divides]"));
  // mlp 4, embedding 2, lm_head 2 divide 4.
  EXPECT_THAT(r.out, Not(HasSubstr("mlp_dp_size 4 does not divide")));
  const CliResult ok = RunTopolint({"check", "--data-parallel-size", "8", dir});
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  const CliResult bad =
      RunTopolint({"check", "--data-parallel-size", "0", dir});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(PublicFormsTest, DataParallelSizeInTopolintJson) {
  const std::filesystem::path tmp = std::filesystem::temp_directory_path() /
                                    ("topolint-dp-" + std::to_string(getpid()));
  std::filesystem::remove_all(tmp);
  WriteAll((tmp / "additional_config.json").string(),
           R"({"neuron_config": {"attention_dp_size": 8}})");
  WriteAll((tmp / ".topolint.json").string(), R"({"data_parallel_size": 4})");
  const CliResult r = RunTopolint({"check", tmp.string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("data_parallel_size 4 (from .topolint.json)"));
  // The command line wins over .topolint.json.
  EXPECT_EQ(RunTopolint({"check", "--data-parallel-size", "8", tmp.string()})
                .exit_code,
            0);
  // A value written in the config wins over both.
  WriteAll((tmp / "additional_config.json").string(),
           R"({"data_parallel_size": 8, "tensor_parallel_size": 2,
               "additional_config": {"neuron_config": {"attention_dp_size": 8}},
               "kv_transfer_config": {"kv_role": "kv_consumer"}})");
  const CliResult written =
      RunTopolint({"check", "--data-parallel-size", "4", tmp.string()});
  EXPECT_EQ(written.exit_code, 0) << written.out;
  // A bad value is a usage error that names the key.
  WriteAll((tmp / ".topolint.json").string(), R"({"data_parallel_size": 0})");
  const CliResult bad = RunTopolint({"check", tmp.string()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("data_parallel_size"));
  std::filesystem::remove_all(tmp);
}

TEST(PublicFormsTest, ExplainSaysWhatIsNotRecorded) {
  const CliResult r = RunTopolint(
      {"explain", std::string(kPublic) + "/pass-component-dp-all-four"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("TP = not recorded, DP = not recorded, world = "
                               "not recorded"));
  EXPECT_THAT(r.out, HasSubstr("DP: not recorded"));
  EXPECT_THAT(r.out, HasSubstr("--data-parallel-size N or "
                               "\"data_parallel_size\": N in .topolint.json"));
  EXPECT_THAT(r.out, HasSubstr("disaggregated inference: not recorded"));
  EXPECT_THAT(r.out, HasSubstr("--kv-transfer-config"));
  // With DP given, DP is shown and no longer "not recorded".
  const CliResult given =
      RunTopolint({"explain", "--data-parallel-size", "4",
                   std::string(kPublic) + "/pass-component-dp-all-four"});
  EXPECT_THAT(given.out, HasSubstr("DP = 4"));
  EXPECT_THAT(given.out, Not(HasSubstr("DP: not recorded")));
  const CliResult json =
      RunTopolint({"explain", "--format", "json",
                   std::string(kPublic) + "/pass-component-dp-all-four"});
  const nlohmann::json cfg =
      nlohmann::json::parse(json.out)["units"][0]["configs"][0];
  EXPECT_TRUE(cfg["dp"].is_null());
  EXPECT_TRUE(cfg["world"].is_null());
  EXPECT_EQ(cfg["not_recorded"].size(), 3u);
}

TEST(PublicFormsTest, LoneEpDegreeIsVllmWithTheWorldNotRecorded) {
  const CliResult r = RunTopolint(
      {"explain", std::string(kPublic) + "/pass-ep-degree-with-module"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("additional_config.json (vLLM-on-Neuron)"));
  EXPECT_THAT(r.out, Not(HasSubstr("NxD Inference")));
  EXPECT_THAT(r.out, Not(HasSubstr("world = 2")));
  EXPECT_THAT(r.out, HasSubstr("world = not recorded"));
}

TEST(PublicFormsTest, HeaderlessAllDevicesGroupIsNotOneDevice) {
  const std::string dir = std::string(kPublic) + "/pass-headerless-module";
  const CliResult r = RunTopolint({"explain", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("{{0}}")));
  EXPECT_THAT(r.out, Not(HasSubstr("1 devices")));
  EXPECT_THAT(r.out, Not(HasSubstr("ids 0..")));
  EXPECT_THAT(r.out, HasSubstr("devices: not recorded; no collective lists an "
                               "id"));
  EXPECT_THAT(r.out, HasSubstr("the module does not record how many devices"));
  const CliResult json = RunTopolint({"explain", "--format", "json", dir});
  EXPECT_TRUE(
      nlohmann::json::parse(json.out)["units"][0]["hlo_modules"][0]["devices"]
          .is_null());
  // Given the count, the config is compared again: 8 replicas match the
  // config's TP 8, 4 do not.
  EXPECT_EQ(RunTopolint({"check", "--replica-count", "8", dir}).exit_code, 0);
  const CliResult four = RunTopolint({"check", "--replica-count", "4", dir});
  EXPECT_EQ(four.exit_code, 1);
  EXPECT_THAT(four.out, HasSubstr("[config-world-size]"));
}

}  // namespace
}  // namespace topolint::testing
