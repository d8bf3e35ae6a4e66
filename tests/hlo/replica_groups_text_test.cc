// ReplicaGroups::Text(): the value as written, or for a list with no text
// (a binary module's) the value described on demand.
#include <cstdint>
#include <string>
#include <vector>

#include "checker/hlo/hlo_module.h"
#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

TEST(ReplicaGroupsTextTest, TheWrittenTextWins) {
  ReplicaGroups rg;
  rg.SetGroups({{0, 1}, {2, 3}});
  rg.text = "{{0,1},{2, 3}}";
  EXPECT_EQ(rg.Text(), "{{0,1},{2, 3}}");
}

TEST(ReplicaGroupsTextTest, AnExplicitListWithoutTextIsDescribed) {
  ReplicaGroups rg;
  rg.SetGroups({{0, 1}, {2, 3}});
  EXPECT_EQ(rg.Text(), "{{0,1},{2,3}}");
  rg.SetGroups({});
  EXPECT_EQ(rg.Text(), "{}");
  rg.SetGroups({{}});
  EXPECT_EQ(rg.Text(), "{{}}");
}

TEST(ReplicaGroupsTextTest, ALongListIsCutAfter256Characters) {
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < 1000; ++i) ids.push_back(i);
  ReplicaGroups rg;
  rg.SetGroups({ids, ids});
  const std::string t = rg.Text();
  EXPECT_LE(t.size(), 300u);
  EXPECT_GT(t.size(), 256u);
  EXPECT_EQ(t.substr(0, 10), "{{0,1,2,3,");
  EXPECT_EQ(t.back(), '}');
}

TEST(ReplicaGroupsTextTest, OtherFormsKeepTheirText) {
  ReplicaGroups absent;
  EXPECT_EQ(absent.Text(), "");
  ReplicaGroups iota;
  iota.form = ReplicaGroups::Form::kIota;
  iota.text = "[2,2]<=[4]";
  EXPECT_EQ(iota.Text(), "[2,2]<=[4]");
}

// A binary module's iota and mesh lists carry no text: they are described
// as XLA prints them (the text parser keeps what was written instead).
TEST(ReplicaGroupsTextTest, IotaAndMeshListsWithoutTextAreDescribed) {
  ReplicaGroups iota;
  iota.form = ReplicaGroups::Form::kIota;
  iota.iota.num_groups = 2;
  iota.iota.group_size = 4;
  iota.iota.reshape_dims = {8};
  EXPECT_EQ(iota.Text(), "[2,4]<=[8]");
  iota.iota.reshape_dims = {4, 2};
  iota.iota.perm = {1, 0};
  EXPECT_EQ(iota.Text(), "[2,4]<=[4,2]T(1,0)");
  std::vector<int64_t> many(200, 1);
  iota.iota.reshape_dims = many;
  EXPECT_EQ(iota.Text().size(), 256u);

  ReplicaGroups mesh;
  mesh.form = ReplicaGroups::Form::kMesh;
  mesh.mesh.axes = {{"x", 2}, {"y", 4}};
  mesh.mesh.grouped = {{"y", 0, 0}, {"x", 1, 2}};
  EXPECT_EQ(mesh.Text(), "mesh['x'=2,'y'=4] {'y', 'x':(1)2}");
}

}  // namespace
}  // namespace topolint::hlo
