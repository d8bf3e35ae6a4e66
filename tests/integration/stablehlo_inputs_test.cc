// StableHLO through the command line: on standard input (by a `.mlir`
// name, by content, and past the 1 MiB the CLI reads ahead), a mesh
// defined after the collective that names it (and one defined nowhere),
// and the `// -----` parts of one file checked as modules of their own.
// Each case failed before: stdin StableHLO without a .mlir name was
// refused ("cannot tell what kind of input"), a large one was streamed into
// the HLO text parser (hlo-syntax errors, the defect unseen), and an op
// naming a later mesh was dropped without a word.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunTopolint;
using testing::TempDir;

// A JAX-shaped module (jax.jit(f).lower(x).as_text(): counts in the
// module attributes, the generic all_gather JAX prints) whose all_gather
// lists partition 1 twice, preceded by `filler` ops and followed by its
// location aliases, as JAX prints them.
std::string JaxModule(int filler) {
  std::string text =
      "module @jit_f attributes {mhlo.num_partitions = 4 : i32, "
      "mhlo.num_replicas = 1 : i32} {\n"
      "  func.func public @main(%arg0: tensor<8xf32>) -> tensor<16xf32> {\n";
  for (int i = 0; i < filler; ++i) {
    text += "    %f" + std::to_string(i) +
            " = stablehlo.add %arg0, %arg0 : tensor<8xf32> loc(#loc1)\n";
  }
  text +=
      "    %0 = \"stablehlo.all_gather\"(%arg0) <{all_gather_dim = 0 : i64, "
      "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
      "replica_groups = dense<[[0, 1], [1, 3]]> : tensor<2x2xi64>, "
      "use_global_device_ids}> : (tensor<8xf32>) -> tensor<16xf32> "
      "loc(#loc2)\n"
      "    return %0 : tensor<16xf32>\n  }\n}\n"
      "#loc1 = loc(\"train.py\":3:5)\n"
      "#loc2 = loc(\"jit(f)/all_gather\"(#loc1))\n";
  return text;
}

TEST(StableHloInputsTest, StandardInputByNameAndByContent) {
  const std::string text = JaxModule(0);
  // By a .mlir name (the dispatcher reads it), and without a name that
  // tells the kind: by content, as HLO text is.
  for (const char* name : {"m.mlir", "stdin", "model.hlo"}) {
    SCOPED_TRACE(name);
    const testing::CliResult r = RunTopolint(
        {"check", "--stdin-filename", name, "-"}, TOPOLINT_SOURCE_DIR, text);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(r.out, HasSubstr(std::string(name) + ":3:"));
    EXPECT_THAT(r.out, HasSubstr("[hlo-duplicate-device-id]"));
    EXPECT_THAT(r.out, Not(HasSubstr("[hlo-syntax]")));
  }
  // MLIR bytecode by content: refused with the way to get text.
  const testing::CliResult bc = RunTopolint(
      {"check", "--stdin-filename", "stdin", "-"}, TOPOLINT_SOURCE_DIR,
      std::string("ML\xefR\x01StableHLO_v1.9.0", 21));
  EXPECT_EQ(bc.exit_code, 1) << bc.err;
  EXPECT_THAT(bc.out, HasSubstr("stablehlo-translate"));
}

TEST(StableHloInputsTest, StandardInputLongerThanTheReadAhead) {
  // About 1.3 MiB: the CLI reads 1 MiB ahead to tell the kind, then
  // streamed the rest into the HLO text parser whatever the kind.
  const std::string text = JaxModule(20000);
  ASSERT_GT(text.size(), size_t{1} << 20);
  for (const char* name : {"m.mlir", "stdin"}) {
    SCOPED_TRACE(name);
    const testing::CliResult r = RunTopolint(
        {"check", "--stdin-filename", name, "-"}, TOPOLINT_SOURCE_DIR, text);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(r.out, HasSubstr(std::string(name) + ":20003:"));
    EXPECT_THAT(r.out, HasSubstr("[hlo-duplicate-device-id]"));
    EXPECT_THAT(r.out, Not(HasSubstr("[hlo-syntax]")));
  }
}

// A Shardy module whose mesh is printed after the function that uses it.
std::string MeshAfterUse(const std::string& mesh_ref, const std::string& axis) {
  return "module @jit_f {\n"
         "  func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
         "    %0 = \"stablehlo.all_reduce\"(%x) <{channel_handle = "
         "#stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = "
         "#stablehlo.replica_group_mesh_axes<mesh = " +
         mesh_ref + ", axes = [#stablehlo.axis_ref<name = \"" + axis +
         "\">]>, use_global_device_ids}> ({\n"
         "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
         "      %s = stablehlo.add %a, %b : tensor<f32>\n"
         "      stablehlo.return %s : tensor<f32>\n"
         "    }) : (tensor<2xf32>) -> tensor<2xf32>\n"
         "    return %0 : tensor<2xf32>\n"
         "  }\n"
         "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n"
         "}\n";
}

TEST(StableHloInputsTest, MeshDefinedAfterTheCollective) {
  TempDir d;
  // An axis the (later) mesh does not have: found, not dropped.
  d.Write("bad/model.mlir", MeshAfterUse("@mesh", "z"));
  const testing::CliResult bad = RunTopolint({"check", "bad"}, d.path());
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_THAT(bad.out, HasSubstr("bad/model.mlir:3:"));
  EXPECT_THAT(bad.out, HasSubstr("mesh axis z is not declared; the mesh has "
                                 "axes x, y [hlo-group-coverage]"));
  // A clean one is expanded over the later mesh.
  d.Write("ok/model.mlir", MeshAfterUse("@mesh", "y"));
  const testing::CliResult ok = RunTopolint({"explain", "ok"}, d.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_THAT(ok.out, HasSubstr("groups   {{0,1,2,3},{4,5,6,7}}"));
  EXPECT_THAT(ok.out, HasSubstr("P = num_partitions = 8"));
  // A mesh defined nowhere: the op is reported as not checked, where the
  // mesh is named.
  d.Write("none/model.mlir", MeshAfterUse("@nomesh", "y"));
  const testing::CliResult none = RunTopolint({"check", "none"}, d.path());
  EXPECT_EQ(none.exit_code, 1) << none.err;
  EXPECT_THAT(none.out,
              HasSubstr("none/model.mlir:3:164: error: %0 (all-reduce) is not "
                        "checked: its mesh @nomesh is not defined in this "
                        "module"));
}

// The fixture of a shard_map body whose mesh is printed after it: the
// collective is expanded over that mesh, not dropped (its golden output,
// no finding, would be the same either way).
TEST(StableHloInputsTest, ShardMapFixtureIsExplainedOverTheLaterMesh) {
  const testing::CliResult r =
      RunTopolint({"explain",
                   "fixtures/hlo-group-coverage/"
                   "pass-stablehlo-shard-map-mesh-after"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("%2 = all-reduce (line 5)"));
  EXPECT_THAT(r.out, HasSubstr("written  mesh['x'=2,'y'=4] {'y'}"));
  EXPECT_THAT(r.out, HasSubstr("groups   {{0,1,2,3},{4,5,6,7}}"));
}

// Three modules split as stablehlo-opt -split-input-file reads them: each
// has its own counts and its own findings, and the unnamed ones are told
// apart by their place.
TEST(StableHloInputsTest, EachPartIsAModuleOfItsOwn) {
  const std::string gather =
      "\"stablehlo.all_gather\"(%x) <{all_gather_dim = 0 : i64, "
      "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
      "replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, "
      "use_global_device_ids}> : (tensor<8xf32>) -> tensor<16xf32>\n";
  const std::string body =
      "  func.func @f(%x: tensor<8xf32>) -> tensor<16xf32> {\n    %0 = " +
      gather + "    return %0 : tensor<16xf32>\n  }\n}\n";
  const std::string text =
      "module attributes {mhlo.num_partitions = 4 : i32} {\n" + body +
      "// -----\n"
      "module attributes {mhlo.num_partitions = 8 : i32} {\n" +
      body +
      "// -----\n"
      "module @named attributes {mhlo.num_partitions = 4 : i32} {\n" +
      body;
  TempDir d;
  d.Write("s/model.mlir", text);
  const testing::CliResult check = RunTopolint({"check", "s"}, d.path());
  EXPECT_EQ(check.exit_code, 1) << check.err;
  // Only the second part has 8 partitions, which its groups leave half out.
  EXPECT_THAT(check.out, HasSubstr("s/model.mlir:10:"));
  EXPECT_THAT(check.out, HasSubstr("[hlo-group-coverage]"));
  EXPECT_THAT(check.out, Not(HasSubstr("s/model.mlir:3:")));
  EXPECT_THAT(check.out, Not(HasSubstr("s/model.mlir:17:")));
  const testing::CliResult explain = RunTopolint({"explain", "s"}, d.path());
  // Named as what they are: StableHLO modules, whose counts are module
  // attributes, not an HLO header.
  EXPECT_THAT(explain.out, HasSubstr("StableHLO module part 1 (s/model.mlir)"));
  EXPECT_THAT(explain.out, HasSubstr("StableHLO module part 2 (s/model.mlir)"));
  EXPECT_THAT(explain.out, HasSubstr("StableHLO module named (s/model.mlir)"));
  EXPECT_THAT(explain.out,
              HasSubstr("P = num_partitions = 8 (mhlo.num_partitions at line "
                        "8)"));
  EXPECT_THAT(explain.out, Not(HasSubstr("\nHLO module")));
  EXPECT_THAT(explain.out, Not(HasSubstr("(header)")));
}

}  // namespace
}  // namespace topolint
