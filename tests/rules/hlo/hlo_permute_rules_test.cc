// hlo-permute-pairs: CheckDuplicatedSourceOrTarget, 2026-02 semantics.
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/rules/hlo/hlo_test_util.h"

namespace topolint::testing_hlo {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Kind = hlo::CollectiveKind;

hlo::Module Permute(std::vector<std::pair<int64_t, int64_t>> pairs,
                    std::optional<int64_t> r = std::nullopt,
                    std::optional<int64_t> p = std::nullopt,
                    bool channel = false, int64_t slice_sizes = 0) {
  ModuleBuilder b(r, p);
  hlo::Collective& op = b.Add(Kind::kCollectivePermute, "%permute");
  op.source_target_pairs.present = true;
  op.source_target_pairs.pos = {1, 80};
  for (size_t i = 0; i < pairs.size(); ++i) {
    op.source_target_pairs.pair_pos.push_back(
        {1, 81 + 6 * static_cast<int64_t>(i)});
  }
  op.source_target_pairs.pairs = std::move(pairs);
  op.slice_sizes_count = slice_sizes;
  if (channel) SetChannel(op);
  return b.module();
}

TEST(HloPermutePairsTest, SameSourceTwice) {
  std::vector<Finding> f = RunHlo(Permute({{0, 1}, {0, 2}, {1, 0}}, 3));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-permute-pairs"));
  EXPECT_THAT(f[0].message,
              HasSubstr("source 0 appears more than once in %permute's "
                        "source_target_pairs (pair 1 {0,2})"));
  EXPECT_EQ(f[0].loc, (Location{"model.hlo", 1, 87}));
}

TEST(HloPermutePairsTest, SameTargetTwice) {
  std::vector<Finding> f = RunHlo(Permute({{0, 2}, {1, 2}, {2, 0}}));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-permute-pairs"));
  EXPECT_THAT(f[0].message, HasSubstr("target 2 appears more than once"));
}

TEST(HloPermutePairsTest, InPlaceAllowsOneRepeatPerOffsetTuple) {
  // CollectivePermuteSameSourceTooManyTimes: slice_sizes has 2 tuples.
  std::vector<Finding> f = RunHlo(
      Permute({{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 3}, {0, 2}, {2, 1}, {1, 0}},
              std::nullopt, std::nullopt, false, 2));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-permute-pairs"));
  EXPECT_THAT(f[0].message, HasSubstr("source 0 appears more than 2 times"));
  // CollectivePermuteSameTargetTooManyTimes.
  f = RunHlo(
      Permute({{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 3}, {3, 2}, {2, 3}, {1, 0}},
              std::nullopt, std::nullopt, false, 2));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-permute-pairs"));
  EXPECT_THAT(f[0].message, HasSubstr("target 3 appears more than 2 times"));
  // Two of each is fine.
  EXPECT_THAT(RunHlo(Permute({{0, 1}, {1, 0}, {0, 1}, {1, 0}}, std::nullopt,
                             std::nullopt, false, 2)),
              IsEmpty());
}

TEST(HloPermutePairsTest, RangeAgainstReplicasOrPartitions) {
  std::vector<Finding> f = RunHlo(Permute({{0, 1}, {1, 4}}, 4));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-permute-pairs"));
  EXPECT_THAT(f[0].message,
              HasSubstr("target 4 in %permute's source_target_pairs (pair 1 "
                        "{1,4}) must be < 4, the number of replicas"));
  // With a channel the limit is the partition count.
  f = RunHlo(Permute({{0, 3}}, 4, 2, true));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-permute-pairs"));
  EXPECT_THAT(f[0].message, HasSubstr("must be < 2, the number of "
                                      "partitions"));
  EXPECT_THAT(RunHlo(Permute({{0, 1}, {1, 0}}, 4, 2, true)), IsEmpty());
}

TEST(HloPermutePairsTest, NegativeIdsAlwaysChecked) {
  // Limit 1 becomes the pairs' own span (2026-02), so only >= 0 can fail.
  std::vector<Finding> f = RunHlo(Permute({{0, 1}, {-1, 0}}));
  ASSERT_THAT(Rules(f), ElementsAre("hlo-permute-pairs"));
  EXPECT_THAT(f[0].message, HasSubstr("source -1 in %permute's "
                                      "source_target_pairs (pair 1 {-1,0}) "
                                      "must be >= 0"));
  EXPECT_THAT(RunHlo(Permute({{0, 1000000}, {1000000, 0}})), IsEmpty());
}

TEST(HloPermutePairsTest, SparseHugeIdsDoNotAllocate) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_THAT(RunHlo(Permute({{0, big}, {big, 0}})), IsEmpty());
  EXPECT_THAT(Rules(RunHlo(Permute({{5, big}, {big, 5}, {big, 7}}))),
              ElementsAre("hlo-permute-pairs"));
}

TEST(HloPermutePairsTest, SelfPairsCyclesAndEmptyAreAllowed) {
  EXPECT_THAT(RunHlo(Permute({{0, 0}, {1, 2}, {2, 1}}, 3)), IsEmpty());
  EXPECT_THAT(RunHlo(Permute({}, 4)), IsEmpty());
}

TEST(HloPermutePairsTest, OnlyFirstProblemReported) {
  EXPECT_EQ(RunHlo(Permute({{0, 1}, {0, 1}, {-1, 9}}, 2)).size(), 1u);
}

// A module repeats one ring over many ops: the pairs found clean are not
// checked again (CleanPairsMemo), but every op that differs is, and every
// problem is reported, however the ops interleave.
TEST(HloPermutePairsTest, RepeatedRingsAreCheckedOnceAndEveryProblemReported) {
  ModuleBuilder b(4, std::nullopt);
  const std::vector<std::pair<int64_t, int64_t>> ring = {
      {0, 1}, {1, 2}, {2, 3}, {3, 0}};
  const std::vector<std::pair<int64_t, int64_t>> bad = {{0, 1}, {0, 2}};
  const std::vector<std::pair<int64_t, int64_t>> repeat = {{0, 1}, {0, 1}};
  const auto add = [&](const std::string& name,
                       const std::vector<std::pair<int64_t, int64_t>>& pairs,
                       int64_t slice_sizes) {
    hlo::Collective& op = b.Add(Kind::kCollectivePermute, name);
    op.source_target_pairs.present = true;
    op.source_target_pairs.pairs = pairs;
    op.slice_sizes_count = slice_sizes;
  };
  add("%a", ring, 0);
  b.Add(Kind::kAllReduce, "%ar");  // no pairs: changes nothing
  add("%b", ring, 0);
  add("%c", bad, 0);
  add("%d", ring, 0);
  add("%e", bad, 0);
  // Clean only because of slice_sizes (in place): not clean without it.
  add("%f", repeat, 2);
  add("%g", repeat, 0);
  add("%h", repeat, 2);
  std::vector<std::string> reported;
  for (const Finding& f : Only(RunHlo(b.module()), "hlo-permute-pairs")) {
    reported.push_back(f.message);
  }
  ASSERT_EQ(reported.size(), 3u);
  EXPECT_THAT(reported[0], HasSubstr("in %c's"));
  EXPECT_THAT(reported[1], HasSubstr("in %e's"));
  EXPECT_THAT(reported[2], HasSubstr("in %g's"));
}

}  // namespace
}  // namespace topolint::testing_hlo
