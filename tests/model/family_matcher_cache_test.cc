// model::SharedFamilyMatcher: one matcher per distinct layout, equal to
// building it directly, shared between callers and threads.
#include "checker/model/family_matcher_cache.h"

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "checker/config/parallel_config.h"
#include "checker/model/component_groups.h"
#include "gtest/gtest.h"
#include "tests/config/config_test_util.h"

namespace topolint::model {
namespace {

using config::testing::ConfigFromText;

config::ParallelConfig Layout(const std::string& json, const char* file) {
  // The config must outlive the ParallelConfig that points into it.
  static std::vector<std::unique_ptr<config::ComponentConfig>> kept;
  kept.push_back(
      std::make_unique<config::ComponentConfig>(ConfigFromText(json, file)));
  return config::ReadParallelConfig(*kept.back());
}

std::vector<std::string> Names(const FamilyMatcher& m) {
  std::vector<std::string> out;
  for (const GroupFamily& f : m.families()) out.push_back(f.DisplayName());
  return out;
}

TEST(FamilyMatcherCacheTest, OneLayoutIsBuiltOnceWhateverTheFile) {
  const std::string json =
      R"({"tensor_parallel_size": 16, "data_parallel_size": 3,
          "neuron_config": {"attention_dp_size": 3}})";
  const config::ParallelConfig a = Layout(json, "a/vllm_config.json");
  const config::ParallelConfig b = Layout(json, "b/vllm_config.json");
  EXPECT_EQ(LayoutKey(a), LayoutKey(b));
  const size_t builds = FamilyMatcherBuilds();
  auto ma = SharedFamilyMatcher(a);
  auto mb = SharedFamilyMatcher(b);
  ASSERT_TRUE(ma.ok() && mb.ok());
  EXPECT_EQ(ma->get(), mb->get());
  EXPECT_EQ(FamilyMatcherBuilds(), builds + 1);
  // The same families as building them directly.
  absl::StatusOr<std::vector<GroupFamily>> direct = GroupFamiliesOf(a);
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(Names(**ma), Names(FamilyMatcher(*std::move(direct))));
}

TEST(FamilyMatcherCacheTest, LayoutsThatDifferGetTheirOwnFamilies) {
  const config::ParallelConfig a = Layout(
      R"({"tensor_parallel_size": 8, "data_parallel_size": 5})", "c.json");
  const config::ParallelConfig b = Layout(
      R"({"tensor_parallel_size": 8, "data_parallel_size": 5,
          "neuron_config": {"mlp_dp_size": 5}})",
      "d.json");
  const config::ParallelConfig nxdi = Layout(
      R"({"neuron_config": {"tp_degree": 8, "world_size": 40}})", "e.json");
  EXPECT_NE(LayoutKey(a), LayoutKey(b));
  EXPECT_NE(LayoutKey(a), LayoutKey(nxdi));
  auto ma = SharedFamilyMatcher(a);
  auto mb = SharedFamilyMatcher(b);
  ASSERT_TRUE(ma.ok() && mb.ok());
  EXPECT_NE(ma->get(), mb->get());
  EXPECT_NE(Names(**ma), Names(**mb));
}

TEST(FamilyMatcherCacheTest, ALayoutThatDoesNotDivideKeepsItsError) {
  const config::ParallelConfig bad = Layout(
      R"({"tensor_parallel_size": 8, "data_parallel_size": 4,
          "neuron_config": {"attention_dp_size": 3}})",
      "f.json");
  EXPECT_EQ(SharedFamilyMatcher(bad).status(), GroupFamiliesOf(bad).status());
  EXPECT_FALSE(SharedFamilyMatcher(bad).ok());
}

TEST(FamilyMatcherCacheTest, ThreadsAskingAtOnceGetEqualFamilies) {
  const config::ParallelConfig cfg = Layout(
      R"({"tensor_parallel_size": 4, "data_parallel_size": 7})", "g.json");
  std::vector<std::vector<std::string>> names(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < names.size(); ++t) {
    threads.emplace_back([&, t] {
      auto m = SharedFamilyMatcher(cfg);
      if (m.ok()) names[t] = Names(**m);
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& n : names) {
    EXPECT_FALSE(n.empty());
    EXPECT_EQ(n, names[0]);
  }
}

}  // namespace
}  // namespace topolint::model
