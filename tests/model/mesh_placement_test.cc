#include "checker/model/mesh_placement.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace topolint::model {
namespace {

using Groups = std::vector<std::vector<int64_t>>;
using Names = std::vector<std::string>;

hlo::DeviceMesh Mesh(std::vector<hlo::MeshAxis> axes,
                     std::vector<int64_t> device_ids = {}) {
  hlo::DeviceMesh m;
  m.name = "@mesh";
  m.axes = std::move(axes);
  m.device_ids = std::move(device_ids);
  return m;
}

MeshPlacement Place(const hlo::DeviceMesh& mesh, const Groups& groups) {
  const std::optional<MeshLayout> layout = MeshLayout::Make(mesh);
  EXPECT_TRUE(layout.has_value());
  if (!layout.has_value()) return {};
  return layout->Place(GroupList::FromGroups(groups));
}

// The JAX FSDP+TP module of fixtures/hlo-multiple-geometries
// (sdy.mesh @mesh = <["x"=2, "y"=4]>): its all_gather runs along x, its
// reduce_scatter along y.
TEST(MeshPlacementTest, OneAxisOfAnIotaMesh) {
  const hlo::DeviceMesh mesh = Mesh({{"x", 2}, {"y", 4}});
  MeshPlacement p = Place(mesh, {{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  EXPECT_TRUE(p.matched);
  EXPECT_TRUE(p.ordered);
  EXPECT_EQ(p.axes, Names{"x"});
  p = Place(mesh, {{0, 1, 2, 3}, {4, 5, 6, 7}});
  EXPECT_TRUE(p.matched);
  EXPECT_TRUE(p.ordered);
  EXPECT_EQ(p.axes, Names{"y"});
}

TEST(MeshPlacementTest, GroupsAreComparedAsSets) {
  const hlo::DeviceMesh mesh = Mesh({{"x", 2}, {"y", 4}});
  // Same sets of devices, groups in another order: still along y.
  MeshPlacement p = Place(mesh, {{4, 5, 6, 7}, {0, 1, 2, 3}});
  EXPECT_TRUE(p.matched);
  EXPECT_EQ(p.axes, Names{"y"});
  // Within a group in another order: along y, not in the mesh's order.
  p = Place(mesh, {{1, 0, 2, 3}, {4, 5, 6, 7}});
  EXPECT_TRUE(p.matched);
  EXPECT_FALSE(p.ordered);
  EXPECT_EQ(p.axes, Names{"y"});
}

TEST(MeshPlacementTest, AxisCombinationsAndTheirOrder) {
  const hlo::DeviceMesh mesh = Mesh({{"x", 2}, {"y", 2}, {"z", 2}});
  // x and z vary, x outer: mesh['x'=2,'y'=2,'z'=2] {'x','z'}.
  MeshPlacement p = Place(mesh, {{0, 1, 4, 5}, {2, 3, 6, 7}});
  EXPECT_TRUE(p.matched);
  EXPECT_TRUE(p.ordered);
  EXPECT_EQ(p.axes, (Names{"x", "z"}));
  // z outer, x inner: {'z','x'}.
  p = Place(mesh, {{0, 4, 1, 5}, {2, 6, 3, 7}});
  EXPECT_TRUE(p.matched);
  EXPECT_TRUE(p.ordered);
  EXPECT_EQ(p.axes, (Names{"z", "x"}));
  // Every axis: one group of all devices.
  p = Place(mesh, {{0, 1, 2, 3, 4, 5, 6, 7}});
  EXPECT_TRUE(p.matched);
  EXPECT_EQ(p.axes, (Names{"x", "y", "z"}));
  // No axis: each device alone.
  p = Place(mesh, {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}});
  EXPECT_TRUE(p.matched);
  EXPECT_TRUE(p.axes.empty());
}

TEST(MeshPlacementTest, ExplicitDeviceOrder) {
  // sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>: the cells
  // (0,0) (0,1) (1,0) (1,1) hold devices 0 2 1 3, so {0,2} runs along y.
  const hlo::DeviceMesh mesh = Mesh({{"x", 2}, {"y", 2}}, {0, 2, 1, 3});
  MeshPlacement p = Place(mesh, {{0, 2}, {1, 3}});
  EXPECT_TRUE(p.matched);
  EXPECT_TRUE(p.ordered);
  EXPECT_EQ(p.axes, Names{"y"});
  p = Place(mesh, {{0, 1}, {2, 3}});
  EXPECT_TRUE(p.matched);
  EXPECT_EQ(p.axes, Names{"x"});
}

TEST(MeshPlacementTest, GroupsOfNoCombination) {
  const hlo::DeviceMesh mesh = Mesh({{"x", 2}, {"y", 4}});
  // Pairs inside y (a sub-axis): no whole axis gives them.
  EXPECT_FALSE(Place(mesh, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}).matched);
  // A diagonal.
  EXPECT_FALSE(Place(mesh, {{0, 5}, {1, 4}, {2, 7}, {3, 6}}).matched);
  // Not every device, a repeated device, an id out of range.
  EXPECT_FALSE(Place(mesh, {{0, 1, 2, 3}}).matched);
  EXPECT_FALSE(Place(mesh, {{0, 1, 2, 3}, {4, 5, 6, 6}}).matched);
  EXPECT_FALSE(Place(mesh, {{0, 1, 2, 3}, {4, 5, 6, 8}}).matched);
  EXPECT_FALSE(Place(mesh, {{0, 1, 2, 3}, {4, 5, 6}, {7}}).matched);
}

TEST(MeshPlacementTest, InvalidMeshesHaveNoLayout) {
  EXPECT_FALSE(MeshLayout::Make(Mesh({{"x", 0}})).has_value());
  EXPECT_FALSE(MeshLayout::Make(Mesh({{"x", 2}}, {0, 0})).has_value());
  EXPECT_FALSE(MeshLayout::Make(Mesh({{"x", 2}}, {0, 1, 2})).has_value());
  EXPECT_FALSE(
      MeshLayout::Make(Mesh({{"x", int64_t{1} << 40}, {"y", int64_t{1} << 40}}))
          .has_value());
  EXPECT_EQ(MeshDeviceCount(Mesh({{"x", 2}, {"y", 4}})), 8);
  EXPECT_EQ(MeshAxesText(Mesh({{"x", 2}, {"y", 4}})), "x=2, y=4");
}

}  // namespace
}  // namespace topolint::model
