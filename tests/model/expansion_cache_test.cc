#include "checker/model/expansion_cache.h"

#include <string>
#include <vector>

#include "checker/model/id_scan.h"
#include "checker/model/replica_groups.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::model {
namespace {

using ::testing::HasSubstr;

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

hlo::ReplicaGroups Mesh(std::vector<hlo::MeshAxis> axes,
                        std::vector<hlo::MeshAxisRef> grouped) {
  hlo::ReplicaGroups rg;
  rg.form = hlo::ReplicaGroups::Form::kMesh;
  rg.mesh.axes = std::move(axes);
  rg.mesh.grouped = std::move(grouped);
  return rg;
}

hlo::ReplicaGroups Explicit(std::vector<std::vector<int64_t>> groups) {
  hlo::ReplicaGroups rg;
  rg.form = hlo::ReplicaGroups::Form::kExplicit;
  rg.groups = std::move(groups);
  return rg;
}

TEST(ExpansionCacheTest, ExpandsLikeExpandReplicaGroups) {
  ExpansionCache cache;
  const hlo::ReplicaGroups rg = Iota(4, 2, {2, 4}, {1, 0});
  ExpansionCache::Result r = cache.Expand(rg);
  ASSERT_TRUE(r.status.ok()) << r.status;
  ASSERT_NE(r.groups, nullptr);
  EXPECT_EQ(r.groups->groups, *ExpandReplicaGroups(rg));
  EXPECT_EQ(r.groups->groups.ToString(), "{{0,4},{1,5},{2,6},{3,7}}");
  EXPECT_EQ(cache.spent(), 8);
}

TEST(ExpansionCacheTest, IdenticalListsShareOneEntryAndOneCharge) {
  ExpansionCache cache;
  ExpansionCache::Result a = cache.Expand(Iota(2, 4, {8}));
  ExpansionCache::Result b = cache.Expand(Iota(2, 4, {8}));
  ASSERT_NE(a.groups, nullptr);
  EXPECT_EQ(a.groups.get(), b.groups.get());
  EXPECT_EQ(cache.spent(), 8);
  EXPECT_EQ(cache.hits(), 1);
  EXPECT_EQ(cache.misses(), 1);
}

TEST(ExpansionCacheTest, DifferentSpellingsAreDifferentEntries) {
  ExpansionCache cache;
  ExpansionCache::Result a = cache.Expand(Iota(2, 4, {8}));
  ExpansionCache::Result b = cache.Expand(Iota(2, 4, {2, 4}, {0, 1}));
  ASSERT_NE(a.groups, nullptr);
  ASSERT_NE(b.groups, nullptr);
  EXPECT_NE(a.groups.get(), b.groups.get());
  EXPECT_EQ(a.groups->groups, b.groups->groups);
  EXPECT_EQ(a.groups->hash, b.groups->hash);
  EXPECT_EQ(cache.spent(), 16);
}

TEST(ExpansionCacheTest, CapIsPartOfTheKey) {
  ExpansionCache cache;
  EXPECT_TRUE(cache.Expand(Iota(2, 4, {8}), 8).status.ok());
  ExpansionCache::Result r = cache.Expand(Iota(2, 4, {8}), 4);
  EXPECT_TRUE(absl::IsResourceExhausted(r.status)) << r.status;
  EXPECT_EQ(r.groups, nullptr);
}

TEST(ExpansionCacheTest, RefusesBeyondTheBudgetWithoutCharging) {
  ExpansionCache cache(/*budget=*/10);
  EXPECT_NE(cache.Expand(Iota(2, 4, {8})).groups, nullptr);
  ExpansionCache::Result over = cache.Expand(Iota(1, 4, {4}));
  EXPECT_TRUE(over.status.ok());
  EXPECT_TRUE(over.over_budget);
  EXPECT_EQ(over.groups, nullptr);
  EXPECT_EQ(cache.spent(), 8);
  // What fits still expands, and cached lists stay free.
  EXPECT_NE(cache.Expand(Iota(1, 2, {2})).groups, nullptr);
  EXPECT_EQ(cache.spent(), 10);
  ExpansionCache::Result again = cache.Expand(Iota(2, 4, {8}));
  EXPECT_FALSE(again.over_budget);
  EXPECT_NE(again.groups, nullptr);
}

TEST(ExpansionCacheTest, InvalidListsAreNotChargedOrCached) {
  ExpansionCache cache(/*budget=*/8);
  ExpansionCache::Result r = cache.Expand(Iota(2, 4, {4, 4}, {1, 0}));
  EXPECT_TRUE(absl::IsInvalidArgument(r.status)) << r.status;
  EXPECT_EQ(cache.spent(), 0);
  EXPECT_NE(cache.Expand(Iota(2, 4, {8})).groups, nullptr);
}

TEST(ExpansionCacheTest, ExplicitListsAreNeitherChargedNorCached) {
  ExpansionCache cache(/*budget=*/1);
  ExpansionCache::Result a = cache.Expand(Explicit({{0, 1}, {2, 3}}));
  ExpansionCache::Result b = cache.Expand(Explicit({{0, 1}, {2, 3}}));
  ASSERT_NE(a.groups, nullptr);
  ASSERT_NE(b.groups, nullptr);
  EXPECT_NE(a.groups.get(), b.groups.get());
  EXPECT_TRUE(a.groups->key.empty());
  EXPECT_EQ(cache.spent(), 0);
  EXPECT_EQ(a.groups->groups.ToString(), "{{0,1},{2,3}}");
}

TEST(ExpansionCacheTest, MeshListsAreCachedByTheirSpec) {
  ExpansionCache cache;
  const hlo::ReplicaGroups x =
      Mesh({{"x", 2}, {"y", 2}}, {{"x", 0, 0}});
  const hlo::ReplicaGroups y =
      Mesh({{"x", 2}, {"y", 2}}, {{"y", 0, 0}});
  ExpansionCache::Result a = cache.Expand(x);
  ExpansionCache::Result b = cache.Expand(y);
  ExpansionCache::Result c = cache.Expand(x);
  ASSERT_NE(a.groups, nullptr);
  ASSERT_NE(b.groups, nullptr);
  EXPECT_EQ(a.groups->groups.ToString(), "{{0,2},{1,3}}");
  EXPECT_EQ(b.groups->groups.ToString(), "{{0,1},{2,3}}");
  EXPECT_EQ(a.groups.get(), c.groups.get());
  EXPECT_EQ(cache.spent(), 8);
}

TEST(ExpansionCacheTest, RetentionIsBoundedAndEvictsWholesale) {
  ExpansionCache cache(/*budget=*/1000, /*retained=*/8);
  cache.Expand(Iota(1, 4, {4}));
  cache.Expand(Iota(2, 2, {4}));
  EXPECT_EQ(cache.retained_ids(), 8);
  cache.Expand(Iota(4, 1, {4}));  // does not fit: the cache is emptied
  EXPECT_EQ(cache.retained_ids(), 4);
  cache.Expand(Iota(1, 4, {4}));  // evicted: expanded and charged again
  EXPECT_EQ(cache.spent(), 16);
  EXPECT_EQ(cache.hits(), 0);
  // A list larger than the retention bound is expanded but never kept.
  ExpansionCache::Result big = cache.Expand(Iota(1, 16, {16}));
  ASSERT_NE(big.groups, nullptr);
  EXPECT_LE(cache.retained_ids(), 8);
}

TEST(ExpansionCacheTest, KeysNameTheSpecAndTheCap) {
  EXPECT_EQ(CanonicalGroupsKey(Iota(4, 2, {2, 4}, {1, 0}), 64),
            "iota 4,2 <= 2,4 T 1,0 cap 64");
  EXPECT_EQ(CanonicalGroupsKey(Explicit({{0}}), 64), "");
  // Length-prefixed names: an axis named "x=2" is not axes x and 2.
  EXPECT_NE(CanonicalGroupsKey(Mesh({{"x=2", 2}}, {{"x=2", 0, 0}}), 64),
            CanonicalGroupsKey(Mesh({{"x", 2}}, {{"x", 0, 0}}), 64));
  EXPECT_THAT(CanonicalGroupsKey(Mesh({{"x", 2}}, {{"x", 0, 0}}), 64),
              HasSubstr("cap 64"));
}

TEST(ExpansionCacheTest, ExpandedIdCountNeedsNoExpansion) {
  EXPECT_EQ(ExpandedIdCount(Iota(4096, 4096, {16777216})), 16777216);
  EXPECT_EQ(ExpandedIdCount(Mesh({{"x", 3}, {"y", 5}}, {})), 15);
  EXPECT_EQ(ExpandedIdCount(Iota(int64_t{1} << 40, int64_t{1} << 40, {1})),
            -1);
  EXPECT_EQ(ExpandedIdCount(Explicit({{0, 1}})), -1);
}

TEST(ExpandedGroupsTest, ScanIsMemoisedPerLimit) {
  ExpansionCache cache;
  ExpansionCache::Result r = cache.Expand(Iota(2, 4, {8}));
  ASSERT_NE(r.groups, nullptr);
  const IdScan& full = r.groups->Scan(8);
  EXPECT_TRUE(full.clean());
  const IdScan& part = r.groups->Scan(5);
  EXPECT_EQ(part.range_group, 1);
  EXPECT_EQ(part.range_index, 1);  // {4,5,6,7}: 5 is the first id >= 5
  EXPECT_EQ(&r.groups->Scan(8), &r.groups->scans[0]);
  EXPECT_EQ(r.groups->scans.size(), 2u);
}

}  // namespace
}  // namespace topolint::model
