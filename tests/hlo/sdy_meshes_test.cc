#include "checker/hlo/sdy_meshes.h"

#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

TEST(SdyMeshesTest, ReadsEveryMeshOfTheAttribute) {
  Module m;
  // As XLA prints it (openxla/xla sdy_round_trip tests, JAX dumps).
  ReadSdyMeshes(
      R"({xla.sdy.meshes={mesh = #sdy.mesh<["x"=2, "y"=4]>, )"
      R"(mesh2 = #sdy.mesh<["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>, )"
      R"(maximal_mesh_0 = #sdy.mesh<[], device_ids=[0]>}})",
      TextPos{1, 40}, &m);
  ASSERT_EQ(m.meshes.size(), 3u);
  EXPECT_EQ(m.meshes[0].name, "@mesh");
  EXPECT_EQ(m.meshes[0].origin, DeviceMesh::Origin::kSdyMeshesHeader);
  ASSERT_EQ(m.meshes[0].axes.size(), 2u);
  EXPECT_EQ(m.meshes[0].axes[1].name, "y");
  EXPECT_EQ(m.meshes[0].axes[1].size, 4);
  EXPECT_TRUE(m.meshes[0].device_ids.empty());
  EXPECT_EQ(m.meshes[0].pos.column, 40);
  EXPECT_EQ(m.meshes[1].name, "@mesh2");
  EXPECT_EQ(m.meshes[1].device_ids, (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(m.meshes[2].name, "@maximal_mesh_0");
  EXPECT_TRUE(m.meshes[2].axes.empty());
  // Not a device count: the header or the shardings give that.
  EXPECT_FALSE(m.num_partitions.has_value());
}

TEST(SdyMeshesTest, EscapedStringForm) {
  Module m;
  ReadSdyMeshes(R"({xla.sdy.meshes="{mesh = #sdy.mesh<[\"x\"=8]>}"})",
                TextPos{1, 1}, &m);
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.meshes[0].axes[0].name, "x");
  EXPECT_EQ(m.meshes[0].axes[0].size, 8);
}

TEST(SdyMeshesTest, OtherAttributesAndMalformedMeshesAreSkipped) {
  Module m;
  ReadSdyMeshes(R"({_xla_stream_annotation="1"})", TextPos{1, 1}, &m);
  ReadSdyMeshes(R"({xla.sdy.meshes={}})", TextPos{1, 1}, &m);
  ReadSdyMeshes(R"({xla.sdy.meshes={m = #sdy.mesh<["x"=]>}})", TextPos{1, 1},
                &m);
  ReadSdyMeshes(
      R"({xla.sdy.meshes={m = #sdy.mesh<["x"=99999999999999999999]>}})",
      TextPos{1, 1}, &m);
  ReadSdyMeshes(R"({xla.sdy.meshes={m = #sdy.mesh<["x"=2], device_ids=[0)",
                TextPos{1, 1}, &m);
  // A mesh whose device_ids do not match its size is not kept.
  ReadSdyMeshes(R"({xla.sdy.meshes={m = #sdy.mesh<["x"=2], device_ids=[0]>}})",
                TextPos{1, 1}, &m);
  EXPECT_TRUE(m.meshes.empty());
}

}  // namespace
}  // namespace topolint::hlo
