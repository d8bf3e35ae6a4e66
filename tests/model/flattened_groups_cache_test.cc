#include <cstdint>
#include <vector>

#include "checker/model/flattened_groups.h"
#include "gtest/gtest.h"

namespace topolint::model {
namespace {

hlo::Collective Op(hlo::ReplicaGroups rg, bool channel, bool global) {
  hlo::Collective op;
  op.kind = hlo::CollectiveKind::kAllReduce;
  op.replica_groups = std::move(rg);
  op.has_channel_id = channel;
  op.has_use_global_device_ids = global;
  op.use_global_device_ids = global;
  return op;
}

hlo::ReplicaGroups Iota(int64_t g, int64_t s, std::vector<int64_t> dims,
                        std::vector<int64_t> perm = {}) {
  hlo::ReplicaGroups rg;
  rg.form = hlo::ReplicaGroups::Form::kIota;
  rg.iota.num_groups = g;
  rg.iota.group_size = s;
  rg.iota.reshape_dims = std::move(dims);
  rg.iota.perm = std::move(perm);
  return rg;
}

hlo::ReplicaGroups Explicit(const std::vector<std::vector<int64_t>>& groups) {
  hlo::ReplicaGroups rg;
  rg.SetGroups(groups);
  return rg;
}

const ModuleParams kParams{2, 4};  // 8 devices

// Every result is FlattenedIdGroupsOf's, hit or miss.
void ExpectSameAsUncached(FlattenedGroupsCache& cache,
                          const hlo::Collective& op) {
  const FlattenedGroupsCache::Result r = cache.Flatten(op);
  absl::StatusOr<GroupList> want = FlattenedIdGroupsOf(op, kParams, 8);
  ASSERT_EQ(r.status.ok(), want.ok()) << r.status;
  if (!want.ok()) {
    EXPECT_EQ(r.status, want.status());
    return;
  }
  ASSERT_NE(r.groups, nullptr);
  EXPECT_EQ(*r.groups, *want);
}

TEST(FlattenedGroupsCacheTest, AnswersAsFlattenedIdGroupsOf) {
  FlattenedGroupsCache cache(kParams, 8);
  const std::vector<hlo::Collective> ops = {
      Op(Iota(4, 2, {2, 4}, {1, 0}), true, true),
      Op(Iota(1, 2, {2}), false, false),
      Op(Iota(1, 2, {2}), true, false),
      Op(Explicit({{0, 1}}), false, false),
      Op(Explicit({{0, 1}}), true, false),
      Op(Explicit({}), false, false),
      Op(Explicit({}), true, true),        // flattened-id needs groups
      Op(Explicit({{0, 9}}), true, true),  // id out of range
      Op(Iota(4, 4, {16}), true, true),    // above the cap
      Op(Iota(4, 2, {3, 3}), true, true),  // invalid
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (const hlo::Collective& op : ops) ExpectSameAsUncached(cache, op);
  }
}

TEST(FlattenedGroupsCacheTest, IdsNameOneListPerMode) {
  FlattenedGroupsCache cache(kParams, 8);
  const hlo::Collective a = Op(Iota(1, 2, {2}), false, false);
  const hlo::Collective a2 = Op(Iota(1, 2, {2}), false, false);
  const hlo::Collective a_other_mode = Op(Iota(1, 2, {2}), true, false);
  const hlo::Collective b = Op(Explicit({{0, 1}}), false, false);
  // Results are copied: a reference is only valid until the next call.
  const FlattenedGroupsCache::Result ra = cache.Flatten(a);
  EXPECT_NE(ra.id, 0u);
  const FlattenedGroupsCache::Result ra2 = cache.Flatten(a2);
  EXPECT_EQ(ra2.id, ra.id);
  EXPECT_EQ(ra2.groups.get(), ra.groups.get());
  EXPECT_NE(cache.Flatten(a_other_mode).id, ra.id);
  const FlattenedGroupsCache::Result rb = cache.Flatten(b);
  EXPECT_NE(rb.id, ra.id);  // another spec, even if the same groups
  EXPECT_EQ(*rb.groups, *ra.groups);
}

TEST(FlattenedGroupsCacheTest, BeyondTheBudgetFlattensAfreshUnshared) {
  FlattenedGroupsCache cache(kParams, 8, nullptr, /*budget=*/8);
  const hlo::Collective a = Op(Iota(4, 2, {8}), true, true);
  const hlo::Collective b = Op(Iota(2, 4, {8}), true, true);
  EXPECT_NE(cache.Flatten(a).id, 0u);
  const FlattenedGroupsCache::Result r = cache.Flatten(b);  // over budget
  EXPECT_EQ(r.id, 0u);
  ExpectSameAsUncached(cache, b);
  ExpectSameAsUncached(cache, a);  // still cached
  EXPECT_NE(cache.Flatten(a).id, 0u);
}

TEST(FlattenedGroupsCacheTest, RetentionIsBounded) {
  constexpr int64_t kIds = 4096;
  FlattenedGroupsCache cache({kIds, 1}, kIds);
  std::vector<int64_t> ids(kIds);
  for (int64_t i = 0; i < kIds; ++i) ids[static_cast<size_t>(i)] = i;
  bool emptied = false;
  int64_t before = 0;
  for (int64_t i = 0; i < 200; ++i) {
    std::swap(ids[static_cast<size_t>(i % kIds)],
              ids[static_cast<size_t>((i + 1) % kIds)]);
    const FlattenedGroupsCache::Result r =
        cache.Flatten(Op(Explicit({ids}), false, false));
    ASSERT_TRUE(r.status.ok()) << r.status;
    ASSERT_LE(cache.retained_ids(), kMaxRetainedFlattenedIds);
    emptied = emptied || cache.retained_ids() < before;
    before = cache.retained_ids();
  }
  EXPECT_TRUE(emptied);
}

}  // namespace
}  // namespace topolint::model
