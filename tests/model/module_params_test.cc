#include "checker/model/module_params.h"

#include "gtest/gtest.h"

namespace topolint::model {
namespace {

TEST(ModuleParamsTest, HeaderThenFlagThenOne) {
  hlo::Module m;
  ModuleParams p = EffectiveModuleParams(m, std::nullopt, std::nullopt);
  EXPECT_EQ(p.replica_count, 1);
  EXPECT_EQ(p.num_partitions, 1);

  p = EffectiveModuleParams(m, 4, 2);
  EXPECT_EQ(p.replica_count, 4);
  EXPECT_EQ(p.num_partitions, 2);

  m.replica_count = 8;
  m.num_partitions = 16;
  p = EffectiveModuleParams(m, 4, 2);
  EXPECT_EQ(p.replica_count, 8);
  EXPECT_EQ(p.num_partitions, 16);
}

TEST(ModuleParamsTest, HeaderOneDoesNotOverrideFlag) {
  hlo::Module m;
  m.replica_count = 1;
  m.num_partitions = 1;
  ModuleParams p = EffectiveModuleParams(m, 4, std::nullopt);
  EXPECT_EQ(p.replica_count, 4);
  EXPECT_EQ(p.num_partitions, 1);
}

TEST(ModuleParamsTest, NonPositiveValuesAreIgnored) {
  hlo::Module m;
  m.replica_count = 0;
  m.num_partitions = -3;
  ModuleParams p = EffectiveModuleParams(m, -1, 0);
  EXPECT_EQ(p.replica_count, 1);
  EXPECT_EQ(p.num_partitions, 1);
}

TEST(ModuleParamsTest, CountFromAnSdyMeshNamesTheMesh) {
  hlo::Module m;
  hlo::DeviceMesh mesh;
  mesh.name = "@mesh";
  mesh.axes = {{"x", 2}, {"y", 4}};
  mesh.pos = TextPos{6, 3};
  ASSERT_TRUE(m.AddMesh(mesh));
  EXPECT_FALSE(m.AddMesh(mesh));  // the same mesh is kept once
  // The StableHLO reader sets num_partitions at the mesh's position.
  m.num_partitions = 8;
  m.num_partitions_pos = TextPos{6, 3};
  ModuleParams p = EffectiveModuleParams(m, std::nullopt, std::nullopt);
  EXPECT_EQ(p.num_partitions, 8);
  EXPECT_EQ(p.num_partitions_source, CountSource::kMesh);
  EXPECT_EQ(NumPartitionsSourceText(p), "sdy.mesh @mesh at line 6");
  EXPECT_EQ(DeviceCountOrigin(p),
            "replica_count 1 (default) x num_partitions 8 (sdy.mesh @mesh at "
            "line 6)");
  // mhlo.num_partitions elsewhere: the header.
  m.num_partitions_pos = TextPos{1, 30};
  p = EffectiveModuleParams(m, std::nullopt, std::nullopt);
  EXPECT_EQ(p.num_partitions_source, CountSource::kHeader);
  EXPECT_EQ(NumPartitionsSourceText(p), "header");
}

}  // namespace
}  // namespace topolint::model
