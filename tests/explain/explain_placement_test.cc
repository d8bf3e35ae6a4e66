// `topolint explain` places each collective's groups on the mesh the module
// records (an sdy.mesh, a named sharding's mesh, a tiled sharding's tile
// grid), and says where the device count came from.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(ExplainPlacementTest, SdyMeshGivesTheCountAndTheAxes) {
  CliResult r = RunTopolint({"explain", "fixtures/explain/placement-sdy-mesh"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Issue 45: a count from sdy.mesh is not labelled "(header)".
  EXPECT_THAT(r.out, HasSubstr("  P = num_partitions = 8 (sdy.mesh @mesh at "
                               "line 9)"));
  EXPECT_THAT(r.out, Not(HasSubstr("= 8 (header)")));
  EXPECT_THAT(r.out, HasSubstr("  mesh @mesh x=2, y=4 (sdy.mesh at line 9)"));
  const std::string mesh = "mesh @mesh x=2, y=4 (sdy.mesh at line 9)";
  EXPECT_THAT(r.out,
              HasSubstr("    mesh     groups run along axis `x` of " + mesh));
  EXPECT_THAT(r.out,
              HasSubstr("    mesh     groups run along axis `y` of " + mesh));
  EXPECT_THAT(r.out,
              HasSubstr("    mesh     groups run along axes `x` then `y` "
                        "(outer to inner) of " +
                        mesh));
  EXPECT_THAT(r.out, HasSubstr("    note     groups match no combination of "
                               "the axes of " +
                               mesh));
}

TEST(ExplainPlacementTest, JsonCarriesThePlacement) {
  CliResult r = RunTopolint(
      {"explain", "--format", "json", "fixtures/explain/placement-sdy-mesh"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  const nlohmann::json& m = doc["units"][0]["hlo_modules"][0];
  EXPECT_EQ(m["num_partitions_source"], "sdy.mesh @mesh at line 9");
  EXPECT_EQ(m["meshes"][0], "@mesh x=2, y=4 (sdy.mesh at line 9)");
  const nlohmann::json& ops = m["collectives"];
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0]["placement"]["axes"], nlohmann::json({"x"}));
  EXPECT_EQ(ops[0]["placement"]["matched"], true);
  EXPECT_EQ(ops[0]["placement"]["mesh"], "@mesh x=2, y=4");
  EXPECT_EQ(ops[0]["placement"]["mesh_source"], "sdy.mesh at line 9");
  EXPECT_EQ(ops[2]["placement"]["axes"], nlohmann::json({"x", "y"}));
  EXPECT_EQ(ops[2]["placement"]["ordered"], true);
  EXPECT_EQ(ops[3]["placement"]["matched"], false);
}

TEST(ExplainPlacementTest, NamedShardingMeshAndInGroupOrder) {
  CliResult r =
      RunTopolint({"explain", "fixtures/explain/placement-named-mesh"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string mesh = "mesh x=2, y=4 (named sharding at line 15)";
  EXPECT_THAT(r.out, HasSubstr("groups run along axis `x` of " + mesh + "\n"));
  EXPECT_THAT(r.out, HasSubstr("groups run along axis `y` of " + mesh));
  EXPECT_THAT(r.out, HasSubstr("groups run along axis `x` of " + mesh +
                               ", in another order within each group"));
  EXPECT_THAT(r.out, HasSubstr("groups run along axes `y` then `x` (outer to "
                               "inner) of " +
                               mesh));
}

TEST(ExplainPlacementTest, TileGridOfTheSharding) {
  CliResult r = RunTopolint({"explain", "fixtures/explain/sharding-5655"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // {devices=[1,1,2,1]0,1}: one axis of 2 devices, dimension 2.
  EXPECT_THAT(r.out, HasSubstr("groups run along axis `d2` of mesh d2=2 (tile "
                               "grid of the sharding at line 15)"));
}

TEST(ExplainPlacementTest, HtmlAndSvgShowThePlacement) {
  for (const char* format : {"html", "svg"}) {
    CliResult r = RunTopolint(
        {"explain", "--format", format, "fixtures/explain/placement-sdy-mesh"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("groups run along axis `y` of mesh @mesh "
                                 "x=2, y=4 (sdy.mesh at line 9)"))
        << format;
  }
}

TEST(ExplainPlacementTest, NoMeshNoPlacement) {
  CliResult r = RunTopolint(
      {"explain", "--format", "json", "fixtures/explain/rank-model-example"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  const nlohmann::json& m = doc["units"][0]["hlo_modules"][0];
  EXPECT_TRUE(m["meshes"].empty());
  EXPECT_TRUE(m["collectives"][0]["placement"].is_null());
}

TEST(ExplainPlacementTest, XlaSdyMeshesOfAnHloHeader) {
  CliResult r =
      RunTopolint({"explain", "fixtures/explain/placement-sdy-meshes-hlo"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string mesh =
      "mesh @mesh data=2, model=4 (xla.sdy.meshes at line 1)";
  EXPECT_THAT(r.out, HasSubstr("groups run along axis `model` of " + mesh));
  EXPECT_THAT(r.out, HasSubstr("groups run along axis `data` of " + mesh));
  EXPECT_THAT(r.out, HasSubstr("@maximal_mesh_0 (no axes) (xla.sdy.meshes at "
                               "line 1): 1 device, not the module's"));
  CliResult check =
      RunTopolint({"check", "fixtures/explain/placement-sdy-meshes-hlo"});
  EXPECT_THAT(check.out, Not(HasSubstr("error:")));
}

}  // namespace
}  // namespace topolint::testing
