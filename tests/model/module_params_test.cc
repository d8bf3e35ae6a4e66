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

}  // namespace
}  // namespace topolint::model
