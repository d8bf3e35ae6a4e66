// The hlo-* family over modules whose ops share replica-group lists: shared
// expansions (model::ExpansionCache) give each op the findings it would get
// alone, geometries are compared exactly (by size and hash above 2^18 ids),
// and ops beyond the module's expansion budget are reported (hlo-syntax).
#include <string>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "checker/model/expansion_cache.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/rules/hlo/hlo_test_util.h"

namespace topolint::testing_hlo {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Kind = hlo::CollectiveKind;

// Flattened-id all-reduces over R=1, P=`devices`, one per iota spec.
struct Spec {
  int64_t g, s;
  std::vector<int64_t> dims, perm;
};
hlo::Module Iotas(const std::vector<Spec>& specs, int64_t devices) {
  ModuleBuilder b(1, devices);
  for (size_t i = 0; i < specs.size(); ++i) {
    hlo::Collective& op = b.Add(Kind::kAllReduce, fmt::format("%ar{}", i));
    SetIota(op, specs[i].g, specs[i].s, specs[i].dims, specs[i].perm);
    SetChannel(op);
    SetGlobal(op);
  }
  return b.module();
}

TEST(HloExpansionCacheRulesTest, SharedListReportsEveryOp) {
  // 8 ids over 4 devices: ids 4..7 out of range, in each op alike.
  const std::vector<Finding> f =
      Only(RunHlo(Iotas({{2, 4, {8}, {}}, {2, 4, {8}, {}}}, 4)),
           "hlo-device-id-range");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].message,
            "flattened id 4 is out of range (should be in [0, 4)) in %ar0's "
            "replica groups; flattened_id mode has 4 flattened IDs");
  EXPECT_EQ(f[1].message,
            "flattened id 4 is out of range (should be in [0, 4)) in %ar1's "
            "replica groups; flattened_id mode has 4 flattened IDs");
  EXPECT_EQ(f[1].loc, (Location{"model.hlo", 2, kGroupsCol}));
}

TEST(HloExpansionCacheRulesTest, ListsSpelledDifferentlyAreOneGeometry) {
  EXPECT_THAT(RunHlo(Iotas({{2, 4, {8}, {}}, {2, 4, {2, 4}, {0, 1}}}, 8)),
              IsEmpty());
}

TEST(HloExpansionCacheRulesTest, ExplicitAndIotaOfOneListAreOneGeometry) {
  ModuleBuilder b(1, 4);
  hlo::Collective& a = b.Add(Kind::kAllReduce, "%a");
  SetIota(a, 2, 2, {2, 2}, {1, 0});
  SetChannel(a);
  SetGlobal(a);
  hlo::Collective& c = b.Add(Kind::kAllReduce, "%c");
  SetGroups(c, {{0, 2}, {1, 3}});
  SetChannel(c);
  SetGlobal(c);
  EXPECT_THAT(RunHlo(b.module()), IsEmpty());
}

TEST(HloExpansionCacheRulesTest, DifferentListsAreCountedOnce) {
  const std::vector<Finding> f = Only(RunHlo(Iotas({{2, 4, {8}, {}},
                                                    {4, 2, {8}, {}},
                                                    {4, 2, {8}, {}},
                                                    {2, 4, {4, 2}, {1, 0}},
                                                    {2, 4, {8}, {}}},
                                                   8)),
                                      "hlo-multiple-geometries");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message, HasSubstr("%ar1 uses replica groups "
                                      "{{0,1},{2,3},{4,5},{6,7}} but %ar0 "
                                      "uses {{0,1,2,3},{4,5,6,7}}; 3 different "
                                      "data-moving group lists"));
}

TEST(HloExpansionCacheRulesTest, LargeListsAreComparedBySizeAndHash) {
  const int64_t n = int64_t{1} << 19;  // above the 2^18 ids kept for compare
  // Equal lists spelled differently: no finding.
  EXPECT_THAT(RunHlo(Iotas({{1, n, {n}, {}}, {1, n, {2, n / 2}, {0, 1}}}, n)),
              IsEmpty());
  // Same size, other order: a finding.
  const std::vector<Finding> f =
      RunHlo(Iotas({{1, n, {n}, {}}, {1, n, {2, n / 2}, {1, 0}}}, n));
  EXPECT_THAT(Rules(f), ElementsAre("hlo-multiple-geometries"));
}

TEST(HloExpansionCacheRulesTest, OpsBeyondTheBudgetAreReportedOnce) {
  const int64_t cap = hlo::kMaxExpandedIds;
  std::vector<Spec> specs;
  for (int64_t i = 0; i * cap < model::kMaxModuleExpandedIds; ++i) {
    specs.push_back({int64_t{1} << i, cap >> i, {cap}, {}});
  }
  specs.push_back({2, cap / 2, {cap / 2, 2}, {1, 0}});  // over the budget
  const std::vector<Finding> f = Only(RunHlo(Iotas(specs, cap)), "hlo-syntax");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", static_cast<int64_t>(specs.size()),
                                kGroupsCol}));
  EXPECT_EQ(f[0].anchor, fmt::format("%ar{} in %main", specs.size() - 1));
  EXPECT_THAT(f[0].message,
              HasSubstr(fmt::format("they expand to {} ids but this module's "
                                    "iota and mesh lists have already "
                                    "expanded to {} of the {} ids",
                                    cap, model::kMaxModuleExpandedIds,
                                    model::kMaxModuleExpandedIds)));
}

}  // namespace
}  // namespace topolint::testing_hlo
