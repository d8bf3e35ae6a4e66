#include "checker/model/group_spec_table.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace topolint::model {
namespace {

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

TEST(GroupSpecTableTest, IdenticalSpecsAreOneSpec) {
  GroupSpecTable table;
  const hlo::ReplicaGroups a = Iota(4, 2, {2, 4}, {1, 0});
  const hlo::ReplicaGroups b = Iota(4, 2, {2, 4}, {1, 0});
  const GroupSpec* sa = table.Find(a);
  ASSERT_NE(sa, nullptr);
  EXPECT_EQ(table.Find(b), sa);
  EXPECT_EQ(sa->form, hlo::ReplicaGroups::Form::kIota);
  EXPECT_EQ(sa->iota.perm, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(table.size(), 1u);
}

// Specs that differ from each other in one field or more.
std::vector<hlo::ReplicaGroups> DistinctSpecs() {
  return {Iota(4, 2, {2, 4}, {1, 0}),
          Iota(4, 2, {2, 4}),
          Iota(4, 2, {8}),
          Iota(2, 4, {8}),
          Explicit({{0, 1}}),
          Explicit({{1, 0}}),
          Explicit({{0}, {1}}),
          Explicit({}),
          Iota(1, 8, {8}),
          Iota(8, 1, {8}),
          Explicit({{0, 1, 2}})};
}

TEST(GroupSpecTableTest, DifferentSpecsAreDifferentSpecs) {
  GroupSpecTable table;
  const std::vector<hlo::ReplicaGroups> specs = DistinctSpecs();
  std::vector<uint64_t> ids;
  for (const hlo::ReplicaGroups& rg : specs) {
    const GroupSpec* s = table.Find(rg);
    ASSERT_NE(s, nullptr);
    for (uint64_t id : ids) EXPECT_NE(id, s->id);
    ids.push_back(s->id);
  }
}

// Find tries the specs found lately first, the one after the last found
// before the others: specs that take turns, in cycles shorter and longer
// than it keeps, in order or not, keep their ids, and specs that differ in
// one field only stay apart.
TEST(GroupSpecTableTest, SpecsTakingTurnsKeepTheirIds) {
  std::vector<hlo::ReplicaGroups> specs = DistinctSpecs();
  // Absent: the same spec as the empty written list before it.
  specs.insert(specs.begin() + 8, hlo::ReplicaGroups());
  for (size_t cycle : {1u, 2u, 5u, 8u, 9u, 12u}) {
    GroupSpecTable table;
    std::vector<uint64_t> ids(cycle, 0);
    for (int round = 0; round < 4; ++round) {
      for (size_t k = 0; k < cycle; ++k) {
        // Round 2 goes backwards; each round finds copies of the specs.
        const size_t i = round == 2 ? cycle - 1 - k : k;
        const hlo::ReplicaGroups rg = specs[i];
        const GroupSpec* s = table.Find(rg);
        ASSERT_NE(s, nullptr);
        if (ids[i] == 0) {
          ids[i] = s->id;
        } else {
          EXPECT_EQ(s->id, ids[i]) << "cycle " << cycle << ", spec " << i;
        }
        EXPECT_EQ(s->form,
                  i == 8 ? hlo::ReplicaGroups::Form::kExplicit : rg.form);
      }
    }
    // (The absent list, 8, is the empty written one, 7.)
    EXPECT_EQ(table.size(), cycle > 8 ? cycle - 1 : cycle);
  }
}

TEST(GroupSpecTableTest, AbsentIsTheEmptyWrittenList) {
  GroupSpecTable table;
  EXPECT_EQ(table.Find(hlo::ReplicaGroups()), table.Find(Explicit({})));
}

TEST(GroupSpecTableTest, SomeSpecsAreNotEntered) {
  GroupSpecTable table;
  hlo::ReplicaGroups mesh;
  mesh.form = hlo::ReplicaGroups::Form::kMesh;
  mesh.mesh.axes = {{"x", 2}};
  mesh.mesh.device_ids = {1, 0};
  EXPECT_EQ(table.Find(mesh), nullptr);
  std::vector<int64_t> big(static_cast<size_t>(kMaxSharedWrittenIds) + 1, 0);
  EXPECT_EQ(table.Find(Explicit({big})), nullptr);
  EXPECT_EQ(table.size(), 0u);
}

TEST(GroupSpecTableTest, PinnedObjectIsFoundWithoutHashing) {
  GroupSpecTable table;
  hlo::ReplicaGroups rg = Iota(1, 8, {8});
  const GroupSpec* before = table.Find(rg);
  {
    GroupSpecTable::Pin pin(table, rg);
    EXPECT_EQ(table.Find(rg), before);
    // Found by address: a change made while pinned (a contract breach) is
    // not seen, which shows that no hashing happened.
    rg.iota.reshape_dims = {2, 4};
    EXPECT_EQ(table.Find(rg), before);
    // Other objects are looked up as usual.
    EXPECT_NE(table.Find(Iota(1, 8, {2, 4})), before);
    EXPECT_EQ(table.Find(Iota(1, 8, {8})), before);
  }
  EXPECT_NE(table.Find(rg), before);  // unpinned: rg is now [1,8]<=[2,4]
}

TEST(GroupSpecTableTest, UnheldSpecsAreDroppedHeldOnesStay) {
  GroupSpecTable table;
  const hlo::ReplicaGroups kept = Iota(1, 1, {1});
  const GroupSpec* held = table.Find(kept);
  table.Hold(held);
  const uint64_t held_id = held->id;
  const uint64_t unheld_id = table.Find(Explicit({{0}}))->id;
  for (int64_t i = 1; i <= 3 * int64_t{GroupSpecTable::kMaxUnheldSpecs}; ++i) {
    ASSERT_NE(table.Find(Explicit({{i}})), nullptr);
    EXPECT_LE(table.size(), GroupSpecTable::kMaxUnheldSpecs + 2);
  }
  EXPECT_EQ(table.Find(kept), held);
  EXPECT_EQ(held->id, held_id);
  // Dropped, so entered afresh: a new id, never the old one.
  EXPECT_NE(table.Find(Explicit({{0}}))->id, unheld_id);
  table.Release(held);
}

TEST(GroupSpecTableTest, UnheldWrittenIdsAreBounded) {
  GroupSpecTable table;
  std::vector<int64_t> ids(static_cast<size_t>(kMaxSharedWrittenIds / 4));
  for (int64_t i = 0; i < 40; ++i) {
    ids[0] = i;
    ASSERT_NE(table.Find(Explicit({ids})), nullptr);
    // Dropped once more than kMaxUnheldWrittenIds ids are unheld.
    EXPECT_LE(table.size(), 5u) << i;
  }
}

}  // namespace
}  // namespace topolint::model
