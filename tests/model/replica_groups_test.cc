#include "checker/model/replica_groups.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::model {
namespace {

using ::testing::HasSubstr;
using Groups = std::vector<std::vector<int64_t>>;

hlo::IotaSpec Iota(int64_t g, int64_t s, std::vector<int64_t> dims,
                   std::vector<int64_t> perm = {}) {
  hlo::IotaSpec spec;
  spec.num_groups = g;
  spec.group_size = s;
  spec.reshape_dims = std::move(dims);
  spec.perm = std::move(perm);
  return spec;
}

Groups ExpandIotaOrDie(const hlo::IotaSpec& spec) {
  absl::StatusOr<GroupList> list = ExpandIota(spec);
  EXPECT_TRUE(list.ok()) << list.status();
  return list.ok() ? list->ToVectors() : Groups{};
}

// The examples of XLA's replica_group_test.cc / IotaTileAssignment.
TEST(ExpandIotaTest, XlaExamples) {
  EXPECT_EQ(ExpandIotaOrDie(Iota(2, 4, {8})),
            (Groups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(ExpandIotaOrDie(Iota(4, 2, {2, 4}, {1, 0})),
            (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(ExpandIotaOrDie(Iota(2, 4, {4, 2}, {1, 0})),
            (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  EXPECT_EQ(ExpandIotaOrDie(Iota(2, 4, {2, 2, 2}, {0, 2, 1})),
            (Groups{{0, 2, 1, 3}, {4, 6, 5, 7}}));
  EXPECT_EQ(ExpandIotaOrDie(Iota(3, 10, {6, 5}, {1, 0})),
            (Groups{{0, 5, 10, 15, 20, 25, 1, 6, 11, 16},
                    {21, 26, 2, 7, 12, 17, 22, 27, 3, 8},
                    {13, 18, 23, 28, 4, 9, 14, 19, 24, 29}}));
}

TEST(ExpandIotaTest, IdentityPermEqualsNoPerm) {
  EXPECT_EQ(ExpandIotaOrDie(Iota(4, 2, {2, 4}, {0, 1})),
            ExpandIotaOrDie(Iota(4, 2, {8})));
}

TEST(ExpandIotaTest, ThreeDimTranspose) {
  // arange(24).reshape(2,3,4).transpose(2,0,1): element [k][i][j] = i*12+j*4+k.
  Groups g = ExpandIotaOrDie(Iota(4, 6, {2, 3, 4}, {2, 0, 1}));
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g[0], (std::vector<int64_t>{0, 4, 8, 12, 16, 20}));
  EXPECT_EQ(g[3], (std::vector<int64_t>{3, 7, 11, 15, 19, 23}));
}

TEST(ExpandIotaTest, LargeIotaIsCompactAndUniform) {
  absl::StatusOr<GroupList> list = ExpandIota(Iota(1, 65536, {65536}));
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->num_groups(), 1);
  EXPECT_EQ(list->num_ids(), 65536);
  EXPECT_TRUE(list->is_uniform());
  EXPECT_EQ(list->ids()[65535], 65535);
}

TEST(ExpandIotaTest, RejectsSizeMismatch) {
  absl::StatusOr<GroupList> list = ExpandIota(Iota(2, 4, {6}));
  EXPECT_EQ(list.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(list.status().message(), HasSubstr("hold 6 ids"));
}

TEST(ExpandIotaTest, RejectsBadPermutations) {
  EXPECT_THAT(ExpandIota(Iota(4, 2, {2, 4}, {0, 0})).status().message(),
              HasSubstr("not a permutation"));
  EXPECT_THAT(ExpandIota(Iota(4, 2, {2, 4}, {0, 2})).status().message(),
              HasSubstr("transpose entry 2 is out of range"));
  EXPECT_THAT(ExpandIota(Iota(4, 2, {2, 4}, {1})).status().message(),
              HasSubstr("1 entries but there are 2 reshape dims"));
  EXPECT_THAT(ExpandIota(Iota(4, 2, {2, 4}, {-1, 0})).status().message(),
              HasSubstr("transpose entry -1 is out of range"));
}

TEST(ExpandIotaTest, RejectsNonPositiveSizes) {
  EXPECT_EQ(ExpandIota(Iota(0, 4, {0})).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ExpandIota(Iota(2, -4, {8})).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ExpandIota(Iota(2, 4, {8, 0}, {0, 1})).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ExpandIotaTest, CapRefusesHugeAndOverflowingShapes) {
  EXPECT_EQ(ExpandIota(Iota(1 << 13, 1 << 12, {1 << 25})).status().code(),
            absl::StatusCode::kResourceExhausted);
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(ExpandIota(Iota(big, big, {big, big}, {1, 0})).status().code(),
            absl::StatusCode::kResourceExhausted);
  // A small explicit cap applies too.
  EXPECT_EQ(ExpandIota(Iota(2, 4, {8}), /*cap=*/7).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(ExpandIota(Iota(2, 4, {8}), /*cap=*/8).ok());
}

hlo::MeshSpec Mesh(std::vector<hlo::MeshAxis> axes,
                   std::vector<hlo::MeshAxisRef> grouped) {
  hlo::MeshSpec m;
  m.axes = std::move(axes);
  m.grouped = std::move(grouped);
  return m;
}

Groups ExpandMeshOrDie(const hlo::MeshSpec& mesh) {
  absl::StatusOr<GroupList> list = ExpandMesh(mesh);
  EXPECT_TRUE(list.ok()) << list.status();
  return list.ok() ? list->ToVectors() : Groups{};
}

TEST(ExpandMeshTest, XlaTwoByTwoExamples) {
  EXPECT_EQ(ExpandMeshOrDie(Mesh({{"x", 2}, {"y", 2}}, {{"x", 0, 0}})),
            (Groups{{0, 2}, {1, 3}}));
  EXPECT_EQ(ExpandMeshOrDie(Mesh({{"x", 2}, {"y", 2}}, {{"y", 0, 0}})),
            (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(
      ExpandMeshOrDie(Mesh({{"x", 2}, {"y", 2}}, {{"x", 0, 0}, {"y", 0, 0}})),
      (Groups{{0, 1, 2, 3}}));
  // Listed order decides the order inside a group.
  EXPECT_EQ(
      ExpandMeshOrDie(Mesh({{"x", 2}, {"y", 2}}, {{"y", 0, 0}, {"x", 0, 0}})),
      (Groups{{0, 2, 1, 3}}));
  // No grouped axis: every device alone.
  EXPECT_EQ(ExpandMeshOrDie(Mesh({{"x", 2}, {"y", 2}}, {})),
            (Groups{{0}, {1}, {2}, {3}}));
}

TEST(ExpandMeshTest, XlaSubAxisExamples) {
  Groups pre1 = ExpandMeshOrDie(Mesh({{"a", 6}, {"b", 6}}, {{"a", 1, 2}}));
  ASSERT_EQ(pre1.size(), 18u);
  EXPECT_EQ(pre1[0], (std::vector<int64_t>{0, 18}));
  EXPECT_EQ(pre1[1], (std::vector<int64_t>{1, 19}));
  EXPECT_EQ(pre1[17], (std::vector<int64_t>{17, 35}));

  Groups pre3 = ExpandMeshOrDie(Mesh({{"a", 6}, {"b", 6}}, {{"a", 3, 2}}));
  ASSERT_EQ(pre3.size(), 18u);
  EXPECT_EQ(pre3[0], (std::vector<int64_t>{0, 6}));
  EXPECT_EQ(pre3[1], (std::vector<int64_t>{1, 7}));
  EXPECT_EQ(pre3[6], (std::vector<int64_t>{12, 18}));
}

TEST(ExpandMeshTest, TwoSubAxesOfOneAxis) {
  // a=8 splits into [2 (a:(1)2), 2 (unselected), 2 (a:(4)2)], so device
  // a = i0*4 + i1*2 + i2 and each group runs over (i0, i2) for one i1.
  Groups g = ExpandMeshOrDie(Mesh({{"a", 8}}, {{"a", 1, 2}, {"a", 4, 2}}));
  EXPECT_EQ(g, (Groups{{0, 1, 4, 5}, {2, 3, 6, 7}}));
}

TEST(ExpandMeshTest, ExplicitAndIotaDeviceIds) {
  hlo::MeshSpec m = Mesh({{"x", 2}, {"y", 2}}, {{"x", 0, 0}});
  m.device_ids = {3, 2, 1, 0};
  EXPECT_EQ(ExpandMeshOrDie(m), (Groups{{3, 1}, {2, 0}}));
  m.device_ids.clear();
  m.device_ids_dims = {2, 2};
  m.device_ids_perm = {1, 0};  // device array 0,2,1,3
  EXPECT_EQ(ExpandMeshOrDie(m), (Groups{{0, 1}, {2, 3}}));
}

TEST(ExpandMeshTest, RejectsInvalidMeshes) {
  EXPECT_THAT(ExpandMesh(Mesh({{"x", 2}}, {{"z", 0, 0}})).status().message(),
              HasSubstr("mesh axis z is not declared"));
  EXPECT_THAT(ExpandMesh(Mesh({{"x", 2}}, {{"x", 0, 0}, {"x", 0, 0}}))
                  .status()
                  .message(),
              HasSubstr("grouped twice"));
  EXPECT_THAT(ExpandMesh(Mesh({{"a", 6}}, {{"a", 4, 2}})).status().message(),
              HasSubstr("does not fit"));
  EXPECT_THAT(ExpandMesh(Mesh({{"a", 8}}, {{"a", 1, 4}, {"a", 2, 2}}))
                  .status()
                  .message(),
              HasSubstr("overlaps"));
  EXPECT_THAT(ExpandMesh(Mesh({{"x", 2}, {"x", 2}}, {})).status().message(),
              HasSubstr("declared twice"));
  hlo::MeshSpec m = Mesh({{"x", 2}, {"y", 2}}, {{"x", 0, 0}});
  m.device_ids = {0, 1, 2};
  EXPECT_THAT(ExpandMesh(m).status().message(),
              HasSubstr("list 3 ids but the mesh has 4"));
  EXPECT_EQ(
      ExpandMesh(Mesh({{"x", 1 << 20}, {"y", 1 << 20}}, {})).status().code(),
      absl::StatusCode::kResourceExhausted);
}

TEST(ExpandReplicaGroupsTest, AllForms) {
  hlo::ReplicaGroups absent;
  absl::StatusOr<GroupList> a = ExpandReplicaGroups(absent);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->empty());

  hlo::ReplicaGroups expl;
  expl.SetGroups({{0, 1, 2}, {3}, {}});
  absl::StatusOr<GroupList> e = ExpandReplicaGroups(expl);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->ToVectors(), expl.GroupVectors());
  // The written ids are shared with the instruction, not copied.
  EXPECT_TRUE(e->is_shared());
  EXPECT_EQ(e->ids().data(), expl.ids().data());
  EXPECT_FALSE(e->is_uniform());

  hlo::ReplicaGroups iota;
  iota.form = hlo::ReplicaGroups::Form::kIota;
  iota.iota = Iota(4, 2, {2, 4}, {1, 0});
  absl::StatusOr<GroupList> i = ExpandReplicaGroups(iota);
  ASSERT_TRUE(i.ok());
  // An iota and the explicit list it stands for compare equal.
  EXPECT_EQ(*i, GroupList::FromGroups({{0, 4}, {1, 5}, {2, 6}, {3, 7}}));

  hlo::ReplicaGroups mesh;
  mesh.form = hlo::ReplicaGroups::Form::kMesh;
  mesh.mesh = Mesh({{"x", 2}, {"y", 2}}, {{"x", 0, 0}});
  absl::StatusOr<GroupList> m = ExpandReplicaGroups(mesh);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->ToVectors(), (Groups{{0, 2}, {1, 3}}));

  expl.SetGroups({{0, 1, 2, 3, 4, 5, 6, 7, 8}});
  EXPECT_EQ(ExpandReplicaGroups(expl, /*cap=*/8).status().code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace topolint::model
