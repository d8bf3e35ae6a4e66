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

hlo::ReplicaGroups Explicit(const std::vector<std::vector<int64_t>>& groups) {
  hlo::ReplicaGroups rg;
  rg.SetGroups(groups);
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

TEST(ExpansionCacheTest, IdenticalWrittenListsShareAnEntryWithoutCharge) {
  ExpansionCache cache(/*budget=*/1);
  ExpansionCache::Result a = cache.Expand(Explicit({{0, 1}, {2, 3}}));
  ExpansionCache::Result b = cache.Expand(Explicit({{0, 1}, {2, 3}}));
  ASSERT_NE(a.groups, nullptr);
  ASSERT_NE(b.groups, nullptr);
  EXPECT_EQ(a.groups.get(), b.groups.get());
  EXPECT_TRUE(a.groups->key.empty());
  EXPECT_EQ(cache.spent(), 0);
  EXPECT_EQ(cache.hits(), 0);  // hits and misses count charged lists only
  EXPECT_EQ(a.groups->groups.ToString(), "{{0,1},{2,3}}");
  EXPECT_EQ(cache.retained_written_ids(), 4 + kWrittenEntryOverheadIds);
}

TEST(ExpansionCacheTest, DifferentWrittenListsNeverShareAnEntry) {
  ExpansionCache cache;
  const std::vector<hlo::ReplicaGroups> lists = {Explicit({{0, 1}, {2, 3}}),
                                                 Explicit({{0, 1, 2, 3}}),
                                                 Explicit({{0, 1}, {3, 2}}),
                                                 Explicit({{2, 3}, {0, 1}}),
                                                 Explicit({{0, 1}, {2}, {3}}),
                                                 Explicit({{0, 1}, {2, 3}, {}}),
                                                 Explicit({{}}),
                                                 Explicit({})};
  std::vector<const ExpandedGroups*> entries;
  for (const hlo::ReplicaGroups& rg : lists) {
    ExpansionCache::Result r = cache.Expand(rg);
    ASSERT_NE(r.groups, nullptr);
    EXPECT_EQ(r.groups->groups, *ExpandReplicaGroups(rg));
    for (const ExpandedGroups* e : entries) EXPECT_NE(e, r.groups.get());
    entries.push_back(r.groups.get());
  }
  // Each is found again.
  for (size_t i = 0; i < lists.size(); ++i) {
    EXPECT_EQ(cache.Expand(lists[i]).groups.get(), entries[i]) << i;
  }
}

TEST(ExpansionCacheTest, AbsentAndEmptyListsShareTheEmptyEntry) {
  ExpansionCache cache;
  ExpansionCache::Result absent = cache.Expand(hlo::ReplicaGroups());
  ExpansionCache::Result empty = cache.Expand(Explicit({}));
  ASSERT_NE(absent.groups, nullptr);
  EXPECT_TRUE(absent.groups->groups.empty());
  EXPECT_EQ(absent.groups.get(), empty.groups.get());
}

TEST(ExpansionCacheTest, WrittenListsAboveTheCapFail) {
  ExpansionCache cache;
  EXPECT_TRUE(cache.Expand(Explicit({{0, 1, 2}}), 3).status.ok());
  ExpansionCache::Result r = cache.Expand(Explicit({{0, 1, 2}}), 2);
  EXPECT_TRUE(absl::IsResourceExhausted(r.status)) << r.status;
  EXPECT_EQ(r.groups, nullptr);
}

TEST(ExpansionCacheTest, WrittenRetentionIsBounded) {
  ExpansionCache cache;
  for (int64_t i = 0; i < 5000; ++i) {
    ASSERT_NE(cache.Expand(Explicit({{i, i + 1}})).groups, nullptr);
    EXPECT_LE(cache.retained_written_ids(), kMaxRetainedWrittenIds);
  }
  // Too large to keep: handed out, not retained, still correct.
  std::vector<int64_t> big(static_cast<size_t>(kMaxRetainedWrittenIds));
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<int64_t>(i);
  ExpansionCache::Result a = cache.Expand(Explicit({big}));
  ExpansionCache::Result b = cache.Expand(Explicit({big}));
  ASSERT_NE(a.groups, nullptr);
  EXPECT_NE(a.groups.get(), b.groups.get());
  EXPECT_EQ(a.groups->groups, b.groups->groups);
}

TEST(ExpansionCacheTest, DifferentIotaSpecsNeverShareAnEntry) {
  ExpansionCache cache;
  // Each differs from the first in one field; several expand to the same
  // groups, but a spec is only ever found by an identical spec.
  const std::vector<hlo::ReplicaGroups> specs = {
      Iota(2, 4, {2, 4}, {1, 0}),
      Iota(4, 2, {2, 4}, {1, 0}),
      Iota(2, 4, {4, 2}, {1, 0}),
      Iota(2, 4, {2, 4}, {0, 1}),
      Iota(2, 4, {2, 4}),
      Iota(2, 4, {8}),
      Iota(2, 4, {2, 2, 2}, {2, 1, 0})};
  std::vector<const ExpandedGroups*> entries;
  for (const hlo::ReplicaGroups& rg : specs) {
    ExpansionCache::Result r = cache.Expand(rg);
    ASSERT_NE(r.groups, nullptr) << r.status;
    EXPECT_EQ(r.groups->groups, *ExpandReplicaGroups(rg));
    for (const ExpandedGroups* e : entries) EXPECT_NE(e, r.groups.get());
    entries.push_back(r.groups.get());
  }
  EXPECT_EQ(cache.misses(), static_cast<int64_t>(specs.size()));
  for (size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(cache.Expand(specs[i]).groups.get(), entries[i]) << i;
  }
  EXPECT_EQ(cache.hits(), static_cast<int64_t>(specs.size()));
}

TEST(ExpansionCacheTest, EachCapKeepsItsOwnEntry) {
  ExpansionCache cache;
  ExpansionCache::Result a = cache.Expand(Iota(2, 4, {8}), 8);
  ExpansionCache::Result b = cache.Expand(Iota(2, 4, {8}), 16);
  ASSERT_NE(a.groups, nullptr);
  ASSERT_NE(b.groups, nullptr);
  EXPECT_NE(a.groups.get(), b.groups.get());
  EXPECT_EQ(cache.Expand(Iota(2, 4, {8}), 8).groups.get(), a.groups.get());
  EXPECT_EQ(cache.Expand(Iota(2, 4, {8}), 16).groups.get(), b.groups.get());
  EXPECT_EQ(cache.spent(), 16);
}

TEST(ExpansionCacheTest, MeshesDifferingInOneFieldNeverShareAnEntry) {
  ExpansionCache cache;
  hlo::ReplicaGroups base = Mesh({{"x", 2}, {"y", 4}}, {{"y", 0, 0}});
  std::vector<hlo::ReplicaGroups> specs(6, base);
  specs[1].mesh.axes[0].name = "z";
  specs[1].mesh.grouped[0].name = "y";
  specs[2].mesh.grouped[0] = {"y", 2, 2};
  specs[3].mesh.device_ids_dims = {8};
  specs[4].mesh.device_ids_dims = {2, 4};
  specs[4].mesh.device_ids_perm = {1, 0};
  specs[5].mesh.grouped = {{"x", 0, 0}};
  std::vector<const ExpandedGroups*> entries;
  for (const hlo::ReplicaGroups& rg : specs) {
    ExpansionCache::Result r = cache.Expand(rg);
    ASSERT_NE(r.groups, nullptr) << r.status;
    for (const ExpandedGroups* e : entries) EXPECT_NE(e, r.groups.get());
    entries.push_back(r.groups.get());
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(cache.Expand(specs[i]).groups.get(), entries[i]) << i;
  }
}

TEST(ExpansionCacheTest, MeshOverExplicitDeviceIdsIsChargedNotKept) {
  ExpansionCache cache;
  hlo::ReplicaGroups rg = Mesh({{"x", 2}, {"y", 2}}, {{"x", 0, 0}});
  rg.mesh.device_ids = {3, 2, 1, 0};
  ExpansionCache::Result a = cache.Expand(rg);
  ExpansionCache::Result b = cache.Expand(rg);
  ASSERT_NE(a.groups, nullptr) << a.status;
  EXPECT_NE(a.groups.get(), b.groups.get());
  EXPECT_EQ(a.groups->groups, *ExpandReplicaGroups(rg));
  EXPECT_TRUE(a.groups->key.empty());
  EXPECT_EQ(cache.spent(), 8);
}

TEST(ExpansionCacheTest, EntryIdsAreNeverReused) {
  ExpansionCache cache(/*budget=*/1000, /*retained=*/4);
  const uint64_t first = cache.Expand(Iota(1, 4, {4})).groups->id;
  cache.Expand(Iota(2, 2, {4}));  // evicts the first
  const uint64_t again = cache.Expand(Iota(1, 4, {4})).groups->id;
  EXPECT_NE(first, again);
  EXPECT_NE(cache.Expand(Explicit({{0}})).groups->id, again);
}

TEST(ExpansionCacheTest, CachesSharingATableKeepTheirOwnBudgetsAndEntries) {
  GroupSpecTable specs;
  ExpansionCache a(/*budget=*/100, kMaxRetainedIds, &specs);
  ExpansionCache b(/*budget=*/8, kMaxRetainedIds, &specs);
  const hlo::ReplicaGroups x = Iota(2, 4, {8});
  const hlo::ReplicaGroups y = Iota(1, 8, {8});
  {
    GroupSpecTable::Pin pin(specs, x);
    ExpansionCache::Result ra = a.Expand(x);
    ExpansionCache::Result rb = b.Expand(x);
    ASSERT_NE(ra.groups, nullptr);
    ASSERT_NE(rb.groups, nullptr);
    EXPECT_NE(ra.groups.get(), rb.groups.get());  // each cache its own
    EXPECT_EQ(ra.groups->groups, rb.groups->groups);
  }
  {
    GroupSpecTable::Pin pin(specs, y);
    EXPECT_NE(a.Expand(y).groups, nullptr);
    EXPECT_TRUE(b.Expand(y).over_budget);  // b's budget, not a's
  }
  EXPECT_EQ(a.spent(), 16);
  EXPECT_EQ(b.spent(), 8);
  EXPECT_EQ(a.Expand(x).groups.get(), a.Expand(Iota(2, 4, {8})).groups.get());
  EXPECT_EQ(b.hits(), 0);
  b.Expand(x);
  EXPECT_EQ(b.hits(), 1);
}

TEST(ExpansionCacheTest, MeshListsAreCachedByTheirSpec) {
  ExpansionCache cache;
  const hlo::ReplicaGroups x = Mesh({{"x", 2}, {"y", 2}}, {{"x", 0, 0}});
  const hlo::ReplicaGroups y = Mesh({{"x", 2}, {"y", 2}}, {{"y", 0, 0}});
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
  EXPECT_EQ(ExpandedIdCount(Iota(int64_t{1} << 40, int64_t{1} << 40, {1})), -1);
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
