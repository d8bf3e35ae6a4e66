// SharedInputs: a config that several units inherit is read and parsed
// once per run, and every unit checks exactly what it would have checked
// reading the file itself.
#include "checker/core/shared_inputs.h"

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "checker/core/discovery.h"
#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/diag/temp_dir.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;

// attention_dp_size 3 does not divide data_parallel_size 4: a finding of
// the config that each unit reports.
const char kConfig[] =
    R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
  "neuron_config": {"attention_dp_size": 3}})";
const char kModule[] =
    "HloModule m, replica_count=32\n\nENTRY %main () -> f32[] {\n"
    "  ROOT %c = f32[] constant(0)\n}\n";

InputFile Found(std::string path, InputKind kind) {
  InputFile f;
  f.path = std::move(path);
  f.kind = kind;
  f.seen_regular = true;
  return f;
}

std::vector<UnitSpec> Entries(const TempDir& dir, int n,
                              const std::string& config) {
  std::vector<UnitSpec> specs;
  for (int i = 0; i < n; ++i) {
    UnitSpec s;
    s.directory = dir.Path("e" + std::to_string(i));
    std::filesystem::create_directories(s.directory);
    s.files.push_back(
        Found(dir.Write("e" + std::to_string(i) + "/model.hlo", kModule),
              InputKind::kHlo));
    s.files.push_back(Found(config, InputKind::kJson));
    specs.push_back(std::move(s));
  }
  return specs;
}

// The units' config (their second file) shared, as a streamed search
// shares an inherited config.
std::unique_ptr<SharedInputs> SharedConfig(const std::vector<UnitSpec>& specs,
                                           SharedInputs::LoadFn load) {
  auto shared = std::make_unique<SharedInputs>(std::move(load));
  shared->Share(specs[0].files[1]);
  return shared;
}

absl::Status LoadJson(const InputFile& f, Unit* u) {
  return LoadJsonInput(f, {}, u);
}

std::string Check(const UnitSpec& spec, const SharedInputs* shared,
                  absl::Status* status = nullptr) {
  Unit unit;
  std::vector<Finding> findings;
  absl::Status st = LoadAndCheckUnit(spec, {}, CheckOptions{}, RuleSelection(),
                                     &unit, &findings, shared);
  if (status != nullptr) *status = st;
  std::string s;
  for (const Finding& f : findings) {
    s += f.loc.file + ":" + std::to_string(f.loc.line) + ": " + f.rule + " " +
         f.message + "\n";
  }
  return s;
}

TEST(SharedInputsTest, AnInheritedConfigIsLoadedOnceForEveryUnit) {
  TempDir dir;
  const std::string config = dir.Write("vllm_config.json", kConfig);
  const std::vector<UnitSpec> specs = Entries(dir, 5, config);
  std::atomic<int> reads{0};
  auto shared_config = SharedConfig(specs, [&](const InputFile& f, Unit* u) {
    ++reads;
    return LoadJson(f, u);
  });
  const SharedInputs& shared = *shared_config;
  EXPECT_EQ(shared.size(), 1u);
  EXPECT_TRUE(shared.Holds(specs[0].files[1]));
  EXPECT_FALSE(shared.Holds(specs[0].files[0]));  // one unit's module
  for (const UnitSpec& s : specs) {
    const std::string alone = Check(s, nullptr);
    EXPECT_THAT(alone, HasSubstr("config-dp-divides"));
    EXPECT_EQ(Check(s, &shared), alone);
  }
  EXPECT_EQ(reads.load(), 1);
  EXPECT_EQ(shared.loads(), 1u);
}

TEST(SharedInputsTest, UnitsCheckedInParallelShareOneLoad) {
  TempDir dir;
  const std::string config = dir.Write("vllm_config.json", kConfig);
  const std::vector<UnitSpec> specs = Entries(dir, 16, config);
  const std::string expected = Check(specs[0], nullptr);
  auto shared_config = SharedConfig(specs, LoadJson);
  const SharedInputs& shared = *shared_config;
  std::vector<std::string> got(specs.size());
  std::vector<std::thread> threads;
  for (size_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < specs.size(); i += 4) {
        got[i] = Check(specs[i], &shared);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < specs.size(); ++i) {
    // Only the module's path differs between units.
    EXPECT_THAT(got[i], HasSubstr("config-dp-divides")) << i;
  }
  EXPECT_EQ(got[0], expected);
  EXPECT_EQ(shared.loads(), 1u);
}

TEST(SharedInputsTest, AConfigThatCannotBeReadFailsEveryUnitThatListsIt) {
  TempDir dir;
  const std::vector<UnitSpec> specs =
      Entries(dir, 3, dir.Path("vllm_config.json"));  // never written
  auto shared_config = SharedConfig(specs, LoadJson);
  const SharedInputs& shared = *shared_config;
  for (const UnitSpec& s : specs) {
    absl::Status alone, with_shared;
    Check(s, nullptr, &alone);
    Check(s, &shared, &with_shared);
    EXPECT_FALSE(with_shared.ok());
    EXPECT_EQ(with_shared, alone);
    EXPECT_THAT(std::string(with_shared.message()),
                HasSubstr("no such file or directory"));
  }
  EXPECT_EQ(shared.loads(), 1u);
}

TEST(SharedInputsTest, OnlyFilesNotNamedAreSharedAndHeldWithTheirSettings) {
  TempDir dir;
  const std::string config = dir.Write("vllm_config.json", kConfig);
  std::vector<UnitSpec> specs = Entries(dir, 2, config);
  specs[1].files[1].named = true;  // named on the command line there
  SharedInputs shared(LoadJson);
  shared.Share(specs[1].files[1]);  // a named file is read by its unit
  EXPECT_EQ(shared.size(), 0u);
  shared.Share(specs[0].files[1]);
  shared.Share(specs[0].files[1]);  // shared once
  EXPECT_EQ(shared.size(), 1u);
  EXPECT_TRUE(shared.Holds(specs[0].files[1]));
  // Listed with other settings there: loaded by that unit itself.
  EXPECT_FALSE(shared.Holds(specs[1].files[1]));
}

// A config discovery knew by its content is loaded from the document it
// parsed then: the file is not parsed a second time (issue 46, item 6).
TEST(SharedInputsTest, AConfigFoundByContentIsParsedOnceAtDiscovery) {
  TempDir dir;
  std::filesystem::create_directories(dir.Path("r"));
  dir.Write("r/vllm_config.json", kConfig);
  dir.Write("r/model.hlo", kModule);
  std::vector<UnitSpec> units;
  DiscoveryReport report;
  ASSERT_TRUE(
      DiscoverUnits({dir.Path("r")}, DiscoveryLimits{}, &units, &report).ok());
  ASSERT_EQ(units.size(), 1u);
  const std::string found = Check(units[0], nullptr);
  EXPECT_THAT(found, HasSubstr("config-dp-divides"));
  // Not read again: what the file says now does not matter.
  dir.Write("r/vllm_config.json", "{ not json");
  EXPECT_EQ(Check(units[0], nullptr), found);
}

}  // namespace
}  // namespace topolint
