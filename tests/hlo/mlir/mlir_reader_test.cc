// The StableHLO / MHLO text front end (checker/hlo/mlir): ops in both
// attribute forms, every replica_groups spelling, the channel handle's
// group mode, module counts, `// -----` parts, comments that quote op text,
// locations, and that the result does not depend on the window size.
#include "checker/hlo/mlir/mlir_reader.h"

#include "checker/hlo/mlir/mlir_internal.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "checker/hlo/dispatch/parse_any.h"
#include "checker/hlo/sharding/sharding_record.h"
#include "checker/model/replica_groups.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_debug.h"

namespace topolint::hlo {
namespace {

using Groups = std::vector<std::vector<int64_t>>;

std::vector<Module> Read(const std::string& text, size_t window = 1 << 16) {
  ParseOptions options;
  options.window_bytes = window;
  return ParseStableHloModules(text, "t.mlir", options);
}

Module One(const std::string& text) {
  std::vector<Module> parts = Read(text);
  EXPECT_EQ(parts.size(), 1u);
  return parts.empty() ? Module() : std::move(parts[0]);
}

TEST(MlirReaderTest, PropertiesFormWithModuleCounts) {
  const Module m = One(
      R"(module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<98x128xf32>) -> tensor<196x128xf32> {
    %1 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<98x128xf32>) -> tensor<196x128xf32>
    return %1 : tensor<196x128xf32>
  }
}
)");
  EXPECT_TRUE(m.syntax_errors.empty());
  EXPECT_TRUE(m.has_header);
  EXPECT_EQ(m.name, "jit_f");
  EXPECT_EQ(m.num_partitions, 8);
  EXPECT_EQ(m.replica_count, 1);
  EXPECT_EQ(m.num_partitions_pos.line, 1);
  ASSERT_EQ(m.collectives.size(), 1u);
  const Collective& c = m.collectives[0];
  EXPECT_EQ(c.kind, CollectiveKind::kAllGather);
  EXPECT_EQ(c.name, "%1");
  EXPECT_EQ(c.computation, "main");
  EXPECT_EQ(c.opcode, "all-gather");
  EXPECT_EQ(c.pos.line, 3);
  EXPECT_EQ(c.pos.column, 5);
  EXPECT_EQ(c.opcode_pos.column, 10);
  EXPECT_TRUE(c.has_channel_id);
  EXPECT_EQ(c.channel_id, 1);
  EXPECT_TRUE(c.use_global_device_ids);
  EXPECT_EQ(c.replica_groups.GroupVectors(),
            (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  ASSERT_EQ(c.dimensions, std::vector<int64_t>{0});
  ASSERT_EQ(c.operand_shapes.size(), 1u);
  EXPECT_EQ(c.operand_shapes[0].dims, (std::vector<int64_t>{98, 128}));
  EXPECT_EQ(c.operand_shapes[0].element_type, "f32");
  EXPECT_EQ(c.result_shape.dims, (std::vector<int64_t>{196, 128}));
  // Where id 6 (group 2, index 1) was written.
  const TextPos id = c.replica_groups.IdPos(2, 1);
  EXPECT_EQ(id.line, 3);
  EXPECT_EQ(id.column, 178);
}

TEST(MlirReaderTest, OldTrailingDictionaryAfterTheRegion) {
  const Module m = One(
      R"(func.func @all_reduce_sum(%input : tensor<2304xf32>) -> tensor<2304xf32> {
  // CHECK: %out = "stablehlo.all_reduce"(%x) {replica_groups = dense<[[9]]> : tensor<1x1xi64>}
  %out = "mhlo.all_reduce"(%input) ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %sum = mhlo.add %arg0, %arg1 : tensor<f32>
      "mhlo.return"(%sum) : (tensor<f32>) -> ()
    }) {channel_handle = {handle = 1 : i64, type = 0 : i64},
        replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>,
        use_global_device_ids} : (tensor<2304xf32>) -> tensor<2304xf32>
  return %out : tensor<2304xf32>
}
)");
  EXPECT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  EXPECT_FALSE(m.has_header);
  ASSERT_EQ(m.collectives.size(), 1u);  // not the one the comment quotes
  const Collective& c = m.collectives[0];
  EXPECT_EQ(c.kind, CollectiveKind::kAllReduce);
  EXPECT_EQ(c.name, "%out");
  EXPECT_EQ(c.computation, "all_reduce_sum");
  EXPECT_TRUE(c.has_channel_id);
  EXPECT_TRUE(c.use_global_device_ids);
  EXPECT_EQ(c.replica_groups.GroupVectors(),
            (Groups{{0, 1, 2, 3, 4, 5, 6, 7}}));
}

TEST(MlirReaderTest, HandleZeroIsNoChannel) {
  const Module m = One(R"(func.func @f(%a: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_gather"(%a) {all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  ASSERT_EQ(m.collectives.size(), 1u);
  EXPECT_FALSE(m.collectives[0].has_channel_id);
  EXPECT_EQ(m.collectives[0].channel_id, 0);
}

TEST(MlirReaderTest, EveryDenseSpelling) {
  const Module m = One(R"(func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.all_to_all"(%a) {concat_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>, split_count = 1 : i64, split_dimension = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.all_to_all"(%a) {concat_dimension = 0 : i64, replica_groups = dense<> : tensor<2x0xi64>, split_count = 1 : i64, split_dimension = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "stablehlo.collective_broadcast"(%a) {replica_groups = dense<0> : tensor<1x4xi64>} : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "stablehlo.collective_broadcast"(%a) {replica_groups = dense<"0x0000000000000000010000000000000002000000000000000300000000000000"> : tensor<2x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
  %4 = "stablehlo.collective_broadcast"(%a) {replica_groups = dense<[[0, 2, 4, -1], [1, 3, 5, 6]]> : tensor<2x4xi64>} : (tensor<8xf32>) -> tensor<8xf32>
  %5 = "stablehlo.collective_permute"(%a) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
  return %5 : tensor<8xf32>
}
)");
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  ASSERT_EQ(m.collectives.size(), 6u);
  EXPECT_EQ(m.collectives[0].replica_groups.num_groups(), 0);
  EXPECT_EQ(m.collectives[0].replica_groups.form,
            ReplicaGroups::Form::kExplicit);
  EXPECT_EQ(m.collectives[1].replica_groups.GroupVectors(), (Groups{{}, {}}));
  EXPECT_EQ(m.collectives[2].replica_groups.GroupVectors(),
            (Groups{{0, 0, 0, 0}}));
  EXPECT_EQ(m.collectives[3].replica_groups.GroupVectors(),
            (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(m.collectives[4].replica_groups.GroupVectors(),
            (Groups{{0, 2, 4}, {1, 3, 5, 6}}));
  const SourceTargetPairs& p = m.collectives[5].source_target_pairs;
  EXPECT_TRUE(p.present);
  ASSERT_EQ(p.pairs.size(), 2u);
  EXPECT_EQ(p.pairs[1], std::make_pair(int64_t{1}, int64_t{0}));
  EXPECT_TRUE(m.collectives[5].has_channel_id);
}

TEST(MlirReaderTest, VariadicAllToAllAndTupleResult) {
  const Module m = One(
      R"(func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0:2 = "stablehlo.all_to_all"(%a, %b) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xf32>
}
)");
  ASSERT_EQ(m.collectives.size(), 1u);
  const Collective& c = m.collectives[0];
  EXPECT_EQ(c.name, "%0");
  EXPECT_EQ(c.operand_count, 2);
  EXPECT_EQ(c.operand_shapes.size(), 2u);
  EXPECT_TRUE(c.result_shape.is_tuple);
  EXPECT_EQ(c.dimensions, std::vector<int64_t>{0});
}

TEST(MlirReaderTest, PartsSplitByDashes) {
  const std::vector<Module> parts =
      Read(R"(// RUN: stablehlo-opt %s -split-input-file
module @a attributes {mhlo.num_partitions = 2 : i32} {
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].num_partitions, 2);
  ASSERT_EQ(parts[0].collectives.size(), 1u);
  EXPECT_EQ(parts[0].collectives[0].pos.line, 4);
  EXPECT_FALSE(parts[1].num_partitions.has_value());
  ASSERT_EQ(parts[1].collectives.size(), 1u);
  EXPECT_EQ(parts[1].collectives[0].pos.line, 12);
  EXPECT_EQ(parts[1].collectives[0].computation, "g");
}

TEST(MlirReaderTest, SdyMeshGivesTheCountWhenNoneIsStated) {
  const Module m = One(R"(module @m {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
)");
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  EXPECT_EQ(m.num_partitions, 8);
  EXPECT_EQ(m.num_partitions_pos.line, 2);
  ASSERT_EQ(m.collectives.size(), 1u);
  const ReplicaGroups& rg = m.collectives[0].replica_groups;
  EXPECT_EQ(rg.form, ReplicaGroups::Form::kMesh);
  ASSERT_EQ(rg.mesh.axes.size(), 2u);
  EXPECT_EQ(rg.mesh.axes[1].size, 4);
  ASSERT_EQ(rg.mesh.grouped.size(), 1u);
  EXPECT_EQ(rg.mesh.grouped[0].name, "y");
}

TEST(MlirReaderTest, MhloShardingGivesTheCountWhenNoneIsStated) {
  // As torch_xla and GSPMD exports write it: no mhlo.num_partitions, the
  // count in the arguments' mhlo.sharding strings (HLO sharding syntax).
  const Module m = One(
      R"(module @SyncTensorsGraph.7 attributes {mhlo.cross_program_prefetches = [], mhlo.is_dynamic = false} {
  func.func @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<8x4xf32> {mhlo.sharding = "{devices=[1,4]0,1,2,3}"}) -> tensor<8x4xf32> {
    %0 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)");
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  // Recorded as HLO text's shardings are: the model takes the count the
  // tiled shardings agree on ("the sharding at line 2"), none if they differ.
  EXPECT_FALSE(m.num_partitions.has_value());
  const auto count = AgreedTileCount(m.sharding);
  ASSERT_TRUE(count.has_value());
  EXPECT_EQ(count->devices, 4);
  EXPECT_EQ(count->pos.line, 2);
}

TEST(MlirReaderTest, ShardingsThatNameNoCountGiveNone) {
  // Replicated, maximal and a partial tile that collapses to replicated
  // say nothing about the partition count.
  EXPECT_FALSE(mlir::DeviceCountOfSharding("{replicated}").has_value());
  EXPECT_FALSE(mlir::DeviceCountOfSharding("{maximal device=3}").has_value());
  EXPECT_FALSE(mlir::DeviceCountOfSharding(
                   "{devices=[1,1,4]0,1,2,3 last_tile_dim_replicate}")
                   .has_value());
  EXPECT_FALSE(mlir::DeviceCountOfSharding("{devices=[2,1]0").has_value());
  EXPECT_EQ(mlir::DeviceCountOfSharding("{devices=[2,4]<=[8]}"), 8);
  EXPECT_EQ(
      mlir::DeviceCountOfSharding("{{replicated}, {devices=[2,1,2]0,1,2,3 "
                                  "last_tile_dim_replicate}}"),
      4);
  // Tuple leaves that disagree: no count.
  EXPECT_FALSE(
      mlir::DeviceCountOfSharding("{{devices=[2]0,1}, {devices=[4]0,1,2,3}}")
          .has_value());
}

TEST(MlirReaderTest, FileLocationThroughAnAlias) {
  const Module m = One(R"(#loc3 = loc("train.py":42:7)
module @m attributes {mhlo.num_partitions = 2 : i32} {
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32> loc(#loc3)
    %1 = "stablehlo.collective_broadcast"(%0) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32> loc("step"("model.py":9:1))
    return %1 : tensor<2xf32>
  }
}
)");
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_EQ(m.collectives[0].source_file, "train.py");
  EXPECT_EQ(m.collectives[0].source_line, 42);
  EXPECT_EQ(m.collectives[0].source_column, 7);
  EXPECT_EQ(m.collectives[1].source_file, "model.py");
  EXPECT_EQ(m.collectives[1].source_line, 9);
  EXPECT_EQ(m.collectives[1].source_column, 1);
}

TEST(MlirReaderTest, AliasesDefinedAfterTheirUseAndPerPart) {
  const std::string text =
      R"(module @m attributes {mhlo.num_partitions = 2 : i32} {
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32> loc(#loc3)
    return %0 : tensor<2xf32>
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/home/u/train.py":42:7)
#loc2 = loc("step"(#loc1))
#loc3 = loc(callsite(#loc2 at #loc))
// -----
func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32> loc(#loc3)
  return %0 : tensor<2xf32>
}
#loc3 = loc("other.py":5:1)
)";
  for (size_t window : {1u, 5u, 1u << 16}) {
    const std::vector<Module> parts = Read(text, window);
    ASSERT_EQ(parts.size(), 2u);
    ASSERT_EQ(parts[0].collectives.size(), 1u);
    EXPECT_EQ(parts[0].collectives[0].source_file, "/home/u/train.py");
    EXPECT_EQ(parts[0].collectives[0].source_line, 42);
    ASSERT_EQ(parts[1].collectives.size(), 1u);
    EXPECT_EQ(parts[1].collectives[0].source_file, "other.py");
    EXPECT_EQ(parts[1].collectives[0].source_line, 5);
  }
  // The same through a file.
  char path[] = "/tmp/topolint_mlir_test_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, text.data(), text.size()),
            static_cast<ssize_t>(text.size()));
  close(fd);
  Module last;
  std::vector<Module> parts;
  ParseOptions options;
  options.on_module_split = [&parts](Module& m) {
    parts.push_back(std::move(m));
  };
  ASSERT_TRUE(ParseStableHloFile(path, "t.mlir", options, &last).ok());
  std::remove(path);
  ASSERT_EQ(parts.size(), 1u);
  ASSERT_EQ(parts[0].collectives.size(), 1u);
  EXPECT_EQ(parts[0].collectives[0].source_line, 42);
  ASSERT_EQ(last.collectives.size(), 1u);
  EXPECT_EQ(last.collectives[0].source_file, "other.py");
}

TEST(MlirReaderTest, SuppressionComments) {
  const Module m = One(R"(func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  // topolint: disable-next-line=hlo-duplicate-device-id
  %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)");
  ASSERT_EQ(m.suppressions.size(), 1u);
  EXPECT_EQ(m.suppressions[0].target_line, 3);
  EXPECT_EQ(m.suppressions[0].rules,
            std::vector<std::string>{"hlo-duplicate-device-id"});
}

TEST(MlirReaderTest, TheWindowSizeChangesNothing) {
  const std::string text =
      R"(module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = "stablehlo.reduce_scatter"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<4xf32> loc("x.py":3:1)
    return %0 : tensor<4xf32>
  }
}
// -----
func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "mhlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)";
  std::string whole;
  for (const Module& m : Read(text)) whole += ModuleDebugString(m);
  for (size_t window : {1u, 2u, 7u, 64u}) {
    std::string small;
    for (const Module& m : Read(text, window)) small += ModuleDebugString(m);
    EXPECT_EQ(small, whole) << "window " << window;
  }
}

TEST(MlirReaderTest, MalformedInputIsASyntaxErrorNotACrash) {
  for (const char* text : {
           "func.func @f() { %0 = \"stablehlo.all_gather\"(%a",
           "func.func @f() { %0 = \"stablehlo.all_gather\"(%a) {replica_groups "
           "= dense<[[0, 1]> : tensor<1x2xi64>}",
           "func.func @f() { %0 = \"stablehlo.all_gather\"(%a) {replica_groups "
           "= dense<\"0xZZ\"> : tensor<1x1xi64>}",
           "func.func @f() { %0 = \"stablehlo.all_gather\"(%a) {replica_groups "
           "= dense<[[0, 1]]> : tensor<1x3xi64>} : (tensor<2xf32) -> "
           "tensor<4xf32>",
           "module @m attributes {mhlo.num_partitions = "
           "99999999999999999999999 : i32} {}",
           "func.func @f() { %0 = stablehlo.custom_call @ragged_all_to_all(%a",
           "func.func @f() { %0 = stablehlo.custom_call @ragged_all_to_all(%a) "
           "{backend_config = {replica_groups = dense<[[0",
           "func.func @f() { %0 = \"stablehlo.custom_call\"(%a) "
           "<{backend_config "
           "= {channel_id = x}, call_target_name = \"ragged_all_to_all\"",
           "func.func @f() { %0 = stablehlo.custom_call @\"ragged_all_to_all",
           "module {\n  sdy.mesh @m = <[\"x\"=",
           "module {\n  \"sdy.mesh\"() <{mesh = #sdy.mesh<[\"x\"=2",
           "module {\n  \"sdy.mesh\"() <{sym_name = \"m\"}> : () -> ()\n}",
           "module {\n  sdy.mesh @m = <[\"x\"=99999999999, \"y\"=99999999999, "
           "\"z\"=99999999999]>\n}",
       }) {
    const std::vector<Module> parts = Read(text);
    ASSERT_FALSE(parts.empty()) << text;
  }
  const Module m = One(
      "func.func @f() { %0 = \"stablehlo.all_gather\"(%a) {replica_groups = "
      "dense<[[0, 1]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>");
  ASSERT_EQ(m.syntax_errors.size(), 1u);
  EXPECT_TRUE(m.collectives.empty());
}

// A file written to a temporary path, removed by the destructor.
class TempMlir {
 public:
  explicit TempMlir(const std::string& text) {
    const int fd = mkstemp(path_);
    ok_ = fd >= 0 && write(fd, text.data(), text.size()) ==
                         static_cast<ssize_t>(text.size());
    if (fd >= 0) close(fd);
  }
  ~TempMlir() { std::remove(path_); }
  bool ok() const { return ok_; }
  const char* path() const { return path_; }

 private:
  char path_[40] = "/tmp/topolint_mlir_test_XXXXXX";
  bool ok_ = false;
};

// Every module of the file at `path`, read through ParseStableHloFile (the
// pre-pass reads the file a second time).
std::vector<Module> ReadFile(const char* path) {
  std::vector<Module> parts;
  ParseOptions options;
  options.on_module_split = [&parts](Module& m) {
    parts.push_back(std::move(m));
  };
  Module last;
  EXPECT_TRUE(ParseStableHloFile(path, "t.mlir", options, &last).ok());
  parts.push_back(std::move(last));
  return parts;
}

// MLIR lets a symbol be used before its definition: Shardy's export may
// print `sdy.mesh` after the functions (the mesh is a symbol of the module,
// like a function). Such an op was dropped without a word; the pre-pass
// now finds the mesh, in its own part.
TEST(MlirReaderTest, MeshDefinedAfterItsUse) {
  const std::string text =
      R"(module @m {
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  sdy.mesh @mesh = <["x"=2, "y"=4]>
}
// -----
module @n {
  func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "b">]>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=3, "b"=2]>, sym_name = "mesh"}> : () -> ()
}
)";
  auto expect = [](const std::vector<Module>& parts) {
    ASSERT_EQ(parts.size(), 2u);
    for (const Module& m : parts) {
      ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
      ASSERT_EQ(m.collectives.size(), 1u);
    }
    // Each part's own mesh (the same name in both), and the count it gives
    // when the module states none (the ops waited for it).
    const MeshSpec& first = parts[0].collectives[0].replica_groups.mesh;
    ASSERT_EQ(first.axes.size(), 2u);
    EXPECT_EQ(first.axes[1].name, "y");
    EXPECT_EQ(first.axes[1].size, 4);
    EXPECT_EQ(parts[0].num_partitions, 8);
    EXPECT_EQ(parts[0].num_partitions_pos.line, 10);
    const MeshSpec& second = parts[1].collectives[0].replica_groups.mesh;
    ASSERT_EQ(second.axes.size(), 2u);
    EXPECT_EQ(second.axes[0].name, "a");
    EXPECT_EQ(second.axes[0].size, 3);
    ASSERT_EQ(second.grouped.size(), 1u);
    EXPECT_EQ(second.grouped[0].name, "b");
    EXPECT_EQ(parts[1].num_partitions, 6);
  };
  for (size_t window : {1u, 7u, 64u, 1u << 16}) {
    SCOPED_TRACE(window);
    expect(Read(text, window));
  }
  TempMlir file(text);
  ASSERT_TRUE(file.ok());
  expect(ReadFile(file.path()));
}

// A mesh no part defines, or a groups attribute in a form not read: the op
// is not checked, and says so where it is written (hlo-syntax), rather
// than vanishing from the check.
TEST(MlirReaderTest, AnOpThatCannotBeReadIsALocatedErrorNotASilentSkip) {
  const Module m = One(
      R"(module @m attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @other = <["x"=8]>
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x">]>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64, replica_groups = #stablehlo.future_groups<[0, 1]>}> : (tensor<2xf32>) -> tensor<4xf32>
    return %0 : tensor<2xf32>
  }
}
)");
  ASSERT_EQ(m.syntax_errors.size(), 2u);
  EXPECT_TRUE(m.collectives.empty());
  const SyntaxError& mesh = m.syntax_errors[0];
  EXPECT_EQ(mesh.pos.line, 4);
  EXPECT_EQ(mesh.pos.column, 164);  // the `@mesh`
  EXPECT_EQ(mesh.message,
            "%0 (all-reduce) is not checked: its mesh @mesh is not defined in "
            "this module (no `sdy.mesh @mesh = <...>`)");
  const SyntaxError& form = m.syntax_errors[1];
  EXPECT_EQ(form.pos.line, 9);
  EXPECT_EQ(form.message,
            "%1 (all-gather) is not checked: replica_groups "
            "#stablehlo.future_groups is a form topolint does not read");
}

// `axes = []` groups over no axis: each device alone (it was dropped
// without a word, like an op whose mesh followed it).
TEST(MlirReaderTest, MeshAxesOverNoAxisAreRead) {
  const Module m = One(
      R"(module @m {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = []>}> : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
)");
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  ASSERT_EQ(m.collectives.size(), 1u);
  const ReplicaGroups& rg = m.collectives[0].replica_groups;
  EXPECT_EQ(rg.form, ReplicaGroups::Form::kMesh);
  EXPECT_EQ(rg.mesh.axes.size(), 2u);
  EXPECT_TRUE(rg.mesh.grouped.empty());
}

// A mesh of no axes is one device: `axes = []` over it is one group of
// that device, as openxla/stablehlo's compatibility expander makes it
// (stablehlo/tests/transforms/mesh_axes_replica_group_compatibility.mlir,
// @all_reduce_sdy_mesh_max: `dense<0> : tensor<1x1xi64>`).
TEST(MlirReaderTest, MeshAxesOverAMeshOfNoAxesIsOneDevice) {
  const std::vector<Module> parts = Read(
      R"(module @m {
  sdy.mesh @maximal = <[], device_ids=[3]>
  sdy.mesh @empty = <[]>
  "sdy.mesh"() {sym_name = "max", stablehlo.mesh = {axes = [], device_ids = dense<0> : tensor<1xi64>}} : () -> ()
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @maximal, axes = []>}> : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "stablehlo.collective_broadcast"(%0) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @empty, axes = []>}> : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "stablehlo.collective_broadcast"(%1) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @max, axes = []>}> : (tensor<2xf32>) -> tensor<2xf32>
    %3 = "stablehlo.collective_broadcast"(%2) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = []>, axes = []>}> : (tensor<2xf32>) -> tensor<2xf32>
    return %3 : tensor<2xf32>
  }
}
// -----
func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = #stablehlo.replica_group_mesh_axes<axes = []>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)");
  ASSERT_EQ(parts.size(), 2u);
  const Module& m = parts[0];
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  ASSERT_EQ(m.collectives.size(), 4u);
  const Groups expected[] = {{{3}}, {{0}}, {{0}}, {{0}}};
  for (size_t i = 0; i < 4; ++i) {
    const ReplicaGroups& rg = m.collectives[i].replica_groups;
    EXPECT_EQ(rg.form, ReplicaGroups::Form::kMesh);
    absl::StatusOr<model::GroupList> groups = model::ExpandMesh(rg.mesh, 64);
    ASSERT_TRUE(groups.ok()) << i << ": " << groups.status();
    EXPECT_EQ(groups->ToVectors(), expected[i]) << i;
  }
  // No mesh at all is still not read, and said so.
  ASSERT_EQ(parts[1].syntax_errors.size(), 1u);
  EXPECT_EQ(parts[1].syntax_errors[0].message,
            "%0 (collective-broadcast) is not checked: "
            "replica_group_mesh_axes names no mesh");
  EXPECT_TRUE(parts[1].collectives.empty());
}

// Shardy's own collectives, in the custom form of openxla/shardy's
// shardy/dialect/sdy/ir/test/collective_parse_print.mlir: each becomes the
// HLO collective Shardy's lowering (sdy-convert-global-to-local) makes, its
// groups the mesh-axes expansion of its axes.
TEST(MlirReaderTest, ShardyCollectivesAreRead) {
  const Module m = One(
      R"(sdy.mesh @mesh1 = <["x"=2, "y"=2]>
sdy.mesh @mesh1_non_iota = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
sdy.mesh @mesh2 = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @mesh3 = <["x"=4, "y"=2]>

func.func @f(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh1, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT: sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh1, [{"y"}, {}]>
  %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh1, [{"y"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_gather [{"x"}, {"z"}] %0 out_sharding=<@mesh2, [{"y"}, {}]> : tensor<16x8xf32>
  %2 = sdy.all_reduce max {"y"} %1 out_sharding=<@mesh1, [{}, {"x"}]> :  tensor<16x8xf32>
  %3 = sdy.reduce_scatter [{}, {"x":(2)2}] %2 out_sharding=<@mesh3, [{"y"}, {"x":(2)2}]> : tensor<16x8xf32> loc("train.py":42:7)
  %4 = sdy.all_to_all [{"x"}: 0->2, {"y"}: 1->1] %3 out_sharding=<@mesh1, [{}, {"y"}, {"x"}]> : tensor<16x8xf32>
  %5 = sdy.all_reduce {"x"} %4 out_sharding=<@mesh1_non_iota, [{}, {}]> : tensor<16x8xf32>
  %6 = sdy.all_reduce {"x"} %5 out_sharding=<mesh<["x"=2]>, [{}, {}]> : tensor<16x8xf32>
  %7 = sdy.all_gather [{}, {}] %6 out_sharding=<@mesh1, [{}, {}]> : tensor<16x8xf32>
  %8 = sdy.all_slice [{}, {"x"}] %7 out_sharding=<@mesh1, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %8 : tensor<16x8xf32>
}
)");
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  EXPECT_EQ(m.num_partitions, 8);  // the largest mesh
  // %7 moves nothing and %8 is a local slice: no collective.
  ASSERT_EQ(m.collectives.size(), 7u);
  struct Want {
    CollectiveKind kind;
    const char* name;
    Groups groups;
    bool global_ids;
  };
  const Want want[] = {
      {CollectiveKind::kAllGather, "%0", {{0, 2}, {1, 3}}, true},
      // Several dimensions: one all-gather over all their axes, in order
      // (x major, z minor; device = 4x + 2y + z).
      {CollectiveKind::kAllGather, "%1", {{0, 1, 4, 5}, {2, 3, 6, 7}}, true},
      {CollectiveKind::kAllReduce, "%2", {{0, 1}, {2, 3}}, true},
      // The minor half of x=4: devices 2 apart along x (stride 2 * 2).
      {CollectiveKind::kReduceScatter,
       "%3",
       {{0, 2}, {1, 3}, {4, 6}, {5, 7}},
       true},
      // Parameters by target dimension: y (1->1) before x (0->2), so y is
      // the major axis of the group (device = 2x + y).
      {CollectiveKind::kAllToAll, "%4", {{0, 2, 1, 3}}, false},
      {CollectiveKind::kAllReduce, "%5", {{3, 1}, {2, 0}}, true},
      {CollectiveKind::kAllReduce, "%6", {{0, 1}}, true},
  };
  for (size_t i = 0; i < 7; ++i) {
    const Collective& c = m.collectives[i];
    EXPECT_EQ(c.kind, want[i].kind) << i;
    EXPECT_EQ(c.name, want[i].name);
    EXPECT_EQ(c.opcode, CollectiveKindName(want[i].kind));
    EXPECT_EQ(c.computation, "f");
    EXPECT_TRUE(c.has_channel_id) << i;
    EXPECT_EQ(c.channel_id, static_cast<int64_t>(i) + 1);
    EXPECT_EQ(c.use_global_device_ids, want[i].global_ids) << i;
    EXPECT_EQ(c.replica_groups.form, ReplicaGroups::Form::kMesh);
    absl::StatusOr<model::GroupList> groups =
        model::ExpandMesh(c.replica_groups.mesh, 64);
    ASSERT_TRUE(groups.ok()) << i << ": " << groups.status();
    EXPECT_EQ(groups->ToVectors(), want[i].groups) << i;
    // The type is the global one: no shapes for the shape rules.
    EXPECT_TRUE(c.operand_shapes.empty());
    EXPECT_FALSE(c.result_shape.known);
  }
  EXPECT_EQ(m.collectives[0].pos.line, 8);
  EXPECT_EQ(m.collectives[0].opcode_pos.column, 8);
  EXPECT_EQ(m.collectives[0].replica_groups.pos.column, 23);
  EXPECT_EQ(m.collectives[0].dimensions, std::vector<int64_t>{1});
  EXPECT_EQ(m.collectives[1].dimensions, std::vector<int64_t>{0});
  EXPECT_FALSE(m.collectives[2].has_dimensions);
  EXPECT_EQ(m.collectives[3].source_file, "train.py");
  EXPECT_EQ(m.collectives[3].source_line, 42);
  EXPECT_EQ(m.collectives[3].source_column, 7);
}

// The groups Shardy's own lowering gives each of its collectives, read from
// its lit tests (openxla/shardy shardy/dialect/sdy/transforms/export/test/
// convert_global_to_local/sdy_*.mlir, copied to tests/data/shardy): in
// each function, the dense replica_groups
// the default pipeline's CHECK lines (prefixes V1, COMBINED-V1 and AR-DS-V1)
// expect are the groups of the one collective read there.
Groups DenseOfCheckLine(const std::string& line) {
  Groups out;
  const size_t start = line.find("dense<[[");
  if (start == std::string::npos) return out;
  std::vector<int64_t>* group = nullptr;
  int64_t value = 0;
  bool in_number = false;
  for (size_t i = start + 6; i < line.size() && line[i] != '>'; ++i) {
    const char c = line[i];
    if (c == '[' && line[i - 1] != '<') {
      out.emplace_back();
      group = &out.back();
    } else if (c >= '0' && c <= '9') {
      value = value * 10 + (c - '0');
      in_number = true;
    } else if (in_number) {
      if (group != nullptr) group->push_back(value);
      value = 0;
      in_number = false;
    }
  }
  return out;
}

TEST(MlirReaderTest, ShardyCollectivesGiveTheGroupsOfShardysLowering) {
  int compared = 0;
  for (const char* name : {"sdy_all_gather", "sdy_all_reduce",
                           "sdy_reduce_scatter", "sdy_all_to_all"}) {
    const std::string path = std::string(TOPOLINT_SOURCE_DIR) +
                             "/tests/data/shardy/" + name + ".mlir";
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::stringstream text;
    text << in.rdbuf();
    // Expected groups by the line of the function they are in.
    std::vector<std::pair<int64_t, Groups>> expected;
    std::vector<int64_t> funcs;
    std::string line;
    int64_t n = 0;
    for (std::istringstream lines(text.str()); std::getline(lines, line);) {
      ++n;
      if (line.rfind("func.func", 0) == 0) funcs.push_back(n);
      const bool default_pipeline =
          line.find("// V1-SAME{LITERAL}") != std::string::npos ||
          line.find("// COMBINED-V1-SAME{LITERAL}") != std::string::npos ||
          line.find("// AR-DS-V1-SAME{LITERAL}") != std::string::npos;
      if (default_pipeline &&
          line.find("replica_groups = dense<[[") != std::string::npos) {
        expected.emplace_back(funcs.empty() ? 0 : funcs.back(),
                              DenseOfCheckLine(line));
      }
    }
    const Module m = One(text.str());
    ASSERT_TRUE(m.syntax_errors.empty())
        << name << ": " << m.syntax_errors[0].message;
    for (const auto& [func_line, groups] : expected) {
      // The collective of that function: the first after its line.
      const Collective* found = nullptr;
      for (const Collective& c : m.collectives) {
        if (c.pos.line > func_line) {
          found = &c;
          break;
        }
      }
      ASSERT_NE(found, nullptr) << name << ": function at line " << func_line;
      absl::StatusOr<model::GroupList> got =
          model::ExpandMesh(found->replica_groups.mesh, 1 << 12);
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(got->ToVectors(), groups)
          << name << ": " << found->name << " at line " << found->pos.line;
      ++compared;
    }
  }
  EXPECT_GE(compared, 8);
}

// What Shardy's collectives cannot give is said, at the op, never dropped
// without a word: a collective_permute whose operand's sharding is not
// found, a generic op without out_sharding and a form not understood are
// unchecked-input notes (the module may be valid); a mesh the module does
// not define is an error (no such module is valid).
TEST(MlirReaderTest, ShardyCollectivesThatCannotBeReadAreSaid) {
  const Module m = One(
      R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0 : tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@other, [{}, {}]> : tensor<16x8xf32>
  %2 = "sdy.all_gather"(%1) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"x"}, {}]>}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = sdy.all_gather [{"x"}, {} %2 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  %4 = "sdy.all_gather"(%3) <{gathering_axes = [{"x"}, {}], out_sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %4 : tensor<16x8xf32>
}
)");
  EXPECT_TRUE(m.collectives.empty());
  ASSERT_EQ(m.syntax_errors.size(), 1u) << m.syntax_errors[0].message;
  EXPECT_EQ(m.syntax_errors[0].pos.line, 4);
  EXPECT_EQ(m.syntax_errors[0].pos.column, 46);  // the `@other`
  EXPECT_EQ(m.syntax_errors[0].message,
            "%1 (all-reduce) is not checked: its mesh @other is not defined in "
            "this module (no `sdy.mesh @other = <...>`)");
  ASSERT_EQ(m.unchecked.size(), 4u);
  EXPECT_EQ(m.unchecked[0].pos.line, 3);
  EXPECT_EQ(m.unchecked[0].pos.column, 8);
  EXPECT_EQ(m.unchecked[0].anchor, "shardy-op-not-checked:%0");
  EXPECT_EQ(m.unchecked[0].message,
            "%0 (collective-permute) is not checked: its source-target pairs "
            "follow from the sharding of its operand %arg0, which topolint "
            "did not find (it reads the sdy.sharding of a func.func argument, "
            "of an op printed on one line, of an sdy.sharding_constraint or "
            "sdy.reshard, and a Shardy collective's out_sharding)");
  EXPECT_EQ(m.unchecked[1].pos.line, 5);
  EXPECT_EQ(m.unchecked[1].message,
            "%2 (all-gather) is not checked: it has no out_sharding "
            "attribute");
  EXPECT_EQ(m.unchecked[2].pos.line, 6);
  EXPECT_EQ(m.unchecked[2].message,
            "%3 (all-gather) is not checked: its text is not understood "
            "here: expected '{' with a list of axes");
  EXPECT_EQ(m.unchecked[3].pos.line, 7);
  EXPECT_EQ(m.unchecked[3].message,
            "%4 (all-gather) is not checked: its text is not understood "
            "here: expected #sdy<list_of_axis_ref_lists...> for "
            "gathering_axes");
}

// The generic form (mlir-opt --mlir-print-op-generic) of each Shardy
// collective, its attributes printed whole (openxla/shardy
// shardy/dialect/sdy/ir/attrs.td: `#sdy<list_of_axis_ref_lists[...]>`,
// `#sdy<axis_ref_list{...}>`, `#sdy<all_to_all_param_list[...]>`,
// `#sdy.sharding<...>`; the I32EnumAttr reduction_op an integer), in
// properties or in the older attribute dictionary, is read as the custom
// form is.
TEST(MlirReaderTest, ShardyGenericFormIsReadAsTheCustomForm) {
  const std::string meshes =
      R"(sdy.mesh @mesh1 = <["x"=2, "y"=2]>
sdy.mesh @mesh2 = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @mesh3 = <["x"=4, "y"=2]>
)";
  const Module pretty = One(meshes + R"(
func.func @f(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh1, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh1, [{"y"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_gather [{"x"}, {"z"}] %0 out_sharding=<@mesh2, [{"y"}, {}]> : tensor<16x8xf32>
  %2 = sdy.all_reduce max {"y"} %1 out_sharding=<@mesh1, [{}, {"x"}]> : tensor<16x8xf32>
  %3 = sdy.reduce_scatter [{}, {"x":(2)2}] %2 out_sharding=<@mesh3, [{"y"}, {"x":(2)2}]> : tensor<16x8xf32>
  %4 = sdy.all_to_all [{"x"}: 0->2, {"y"}: 1->1] %3 out_sharding=<@mesh1, [{}, {"y"}, {"x"}]> : tensor<16x8xf32>
  %5 = sdy.all_reduce {"x"} %4 out_sharding=<mesh<["x"=2]>, [{}, {}]> : tensor<16x8xf32>
  %6 = sdy.collective_permute %arg0 out_sharding=<@mesh1, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %6 : tensor<16x8xf32>
}
)");
  const Module generic = One(meshes + R"(
func.func @f(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh1, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  %0 = "sdy.all_gather"(%arg0) <{gathering_axes = #sdy<list_of_axis_ref_lists[{}, {"x"}]>, out_sharding = #sdy.sharding<@mesh1, [{"y"}, {}]>}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = "sdy.all_gather"(%0) {gathering_axes = #sdy<list_of_axis_ref_lists[{"x"}, {"z"}]>, out_sharding = #sdy.sharding<@mesh2, [{"y"}, {}]>} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = "sdy.all_reduce"(%1) <{out_sharding = #sdy.sharding<@mesh1, [{}, {"x"}]>, reduction_axes = #sdy<axis_ref_list{"y"}>, reduction_op = 1 : i32}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = "sdy.reduce_scatter"(%2) <{out_sharding = #sdy.sharding<@mesh3, [{"y"}, {"x":(2)2}]>, reduce_scatter_axes = #sdy<list_of_axis_ref_lists[{}, {"x":(2)2}]>, reduction_op = 0 : i32}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %4 = "sdy.all_to_all"(%3) <{out_sharding = #sdy.sharding<@mesh1, [{}, {"y"}, {"x"}]>, params = #sdy<all_to_all_param_list[{"x"}: 0->2, {"y"}: 1->1]>}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %5 = "sdy.all_reduce"(%4) <{out_sharding = #sdy.sharding<mesh<["x"=2]>, [{}, {}]>, reduction_axes = #sdy<axis_ref_list{"x"}>}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %6 = "sdy.collective_permute"(%arg0) <{out_sharding = #sdy.sharding<@mesh1, [{"x"}, {"y"}]>}> : (tensor<16x8xf32>) -> tensor<16x8xf32> loc("train.py":9:3)
  "func.return"(%6) : (tensor<16x8xf32>) -> ()
}
)");
  for (const Module* m : {&pretty, &generic}) {
    ASSERT_TRUE(m->syntax_errors.empty()) << m->syntax_errors[0].message;
    ASSERT_TRUE(m->unchecked.empty()) << m->unchecked[0].message;
  }
  ASSERT_EQ(pretty.collectives.size(), 7u);
  ASSERT_EQ(generic.collectives.size(), pretty.collectives.size());
  for (size_t i = 0; i < pretty.collectives.size(); ++i) {
    const Collective& a = pretty.collectives[i];
    const Collective& b = generic.collectives[i];
    EXPECT_EQ(a.kind, b.kind) << i;
    EXPECT_EQ(a.name, b.name) << i;
    EXPECT_EQ(a.channel_id, b.channel_id) << i;
    EXPECT_EQ(a.has_dimensions, b.has_dimensions) << i;
    EXPECT_EQ(a.dimensions, b.dimensions) << i;
    EXPECT_EQ(a.use_global_device_ids, b.use_global_device_ids) << i;
    EXPECT_TRUE(b.operand_shapes.empty()) << i;
    EXPECT_FALSE(b.result_shape.known) << i;
    if (a.kind == CollectiveKind::kCollectivePermute) {
      // {y, x} -> {x, y} over x=2, y=2: devices 1 and 2 swap shards.
      const std::vector<std::pair<int64_t, int64_t>> swap = {
          {0, 0}, {1, 2}, {2, 1}, {3, 3}};
      EXPECT_EQ(a.source_target_pairs.pairs, swap);
      EXPECT_EQ(b.source_target_pairs.pairs, swap);
      continue;
    }
    absl::StatusOr<model::GroupList> ga =
        model::ExpandMesh(a.replica_groups.mesh, 64);
    absl::StatusOr<model::GroupList> gb =
        model::ExpandMesh(b.replica_groups.mesh, 64);
    ASSERT_TRUE(ga.ok() && gb.ok()) << i;
    EXPECT_EQ(ga->ToVectors(), gb->ToVectors()) << i;
  }
  EXPECT_EQ(generic.collectives[2].replica_groups.pos.line, 8);
  EXPECT_EQ(generic.collectives[2].replica_groups.pos.column, 99);
  EXPECT_EQ(generic.collectives[6].source_file, "train.py");
  EXPECT_EQ(generic.collectives[6].source_line, 9);
  EXPECT_EQ(generic.collectives[6].source_column, 3);
}

// The source-target pairs of each sdy.collective_permute of Shardy's own
// lowering test (tests/data/shardy/sdy_collective_permute.mlir: axes
// swapped between dimensions, reversed, regrouped into sub-axes, a
// replicated axis replaced, and a mesh of other device ids), derived from
// its operand's sharding (the func argument's) and its out_sharding, are
// the pairs of the CHECK lines.
TEST(MlirReaderTest, ShardyCollectivePermuteGivesThePairsOfShardysLowering) {
  const std::string path = std::string(TOPOLINT_SOURCE_DIR) +
                           "/tests/data/shardy/sdy_collective_permute.mlir";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream text;
  text << in.rdbuf();
  std::vector<Groups> expected;
  std::string line;
  for (std::istringstream lines(text.str()); std::getline(lines, line);) {
    if (line.find("source_target_pairs = dense<[[") != std::string::npos) {
      expected.push_back(DenseOfCheckLine(line));
    }
  }
  ASSERT_EQ(expected.size(), 6u);
  const Module m = One(text.str());
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  ASSERT_TRUE(m.unchecked.empty()) << m.unchecked[0].message;
  ASSERT_EQ(m.collectives.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const Collective& c = m.collectives[i];
    EXPECT_EQ(c.kind, CollectiveKind::kCollectivePermute);
    EXPECT_TRUE(c.has_channel_id);
    EXPECT_EQ(c.channel_id, static_cast<int64_t>(i) + 1);  // handle = i + 1
    EXPECT_FALSE(c.has_use_global_device_ids);
    ASSERT_TRUE(c.source_target_pairs.present);
    Groups got;
    for (const auto& [src, tgt] : c.source_target_pairs.pairs) {
      got.push_back({src, tgt});
    }
    EXPECT_EQ(got, expected[i]) << c.name << " in function " << i;
    EXPECT_EQ(c.source_target_pairs.pair_pos.size(), got.size());
  }
}

// The operand's sharding, wherever Shardy's getSharding finds it: an op's
// sdy.sharding_per_value (result #1 of a two-result op too), an
// sdy.sharding_constraint, an sdy.reshard, a Shardy collective's
// out_sharding; names are a function's own.
TEST(MlirReaderTest, ShardyCollectivePermuteFindsItsOperandsSharding) {
  const Module m = One(
      R"(sdy.mesh @m = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  %1 = sdy.collective_permute %0 out_sharding=<@m, [{"y"}, {"x"}]> : tensor<8x8xf32>
  %2:2 = stablehlo.custom_call @two(%1) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}]>, <@m, [{"x", "y"}, {}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %3 = sdy.collective_permute %2#1 out_sharding=<@m, [{"y", "x"}, {}]> : tensor<8x8xf32>
  %4 = sdy.sharding_constraint %3 <@m, [{}, {"x", "y"}]> : tensor<8x8xf32>
  %5 = sdy.collective_permute %4 out_sharding=<@m, [{}, {"y", "x"}]> : tensor<8x8xf32>
  %6 = sdy.all_gather [{}, {"x"}] %5 out_sharding=<@m, [{}, {"y"}]> : tensor<8x8xf32>
  %7 = sdy.collective_permute %6 out_sharding=<@m, [{}, {"x"}]> : tensor<8x8xf32>
  %8 = sdy.reshard %7 <@m, [{"y"}, {}]> : tensor<8x8xf32>
  %9 = sdy.collective_permute %8 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %9 : tensor<8x8xf32>
}
func.func @g(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %1 = sdy.collective_permute %0 out_sharding=<@m, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)");
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  // Device d = 2x + y. Swapping x and y between dimensions, or reversing
  // them in one, moves the shard of (x, y) to the device (y, x): 1 <-> 2.
  const std::vector<std::pair<int64_t, int64_t>> swap = {
      {0, 0}, {1, 2}, {2, 1}, {3, 3}};
  std::vector<std::string> names;
  for (const Collective& c : m.collectives) {
    names.push_back(c.name);
    if (c.kind == CollectiveKind::kCollectivePermute) {
      EXPECT_EQ(c.source_target_pairs.pairs, swap) << c.name;
    }
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"%1", "%3", "%5", "%6", "%7", "%9"}));
  // @g's %0 is no value of @g.
  ASSERT_EQ(m.unchecked.size(), 1u);
  EXPECT_EQ(m.unchecked[0].pos.line, 16);
  EXPECT_NE(m.unchecked[0].message.find("of its operand %0, which topolint "
                                        "did not find"),
            std::string::npos)
      << m.unchecked[0].message;
}

// What jax.lax.ragged_all_to_all lowers to (jax/_src/lax/parallel.py,
// _ragged_all_to_all_lowering): a custom call with api_version 4 whose
// backend_config holds the groups and, under SPMD, a channel_id; XLA's
// export turns it into the HLO ragged-all-to-all (the mhlo spelling is
// openxla/xla xla/hlo/translate/mhlo_to_hlo/tests/export.mlir's).
TEST(MlirReaderTest, RaggedAllToAllCustomCall) {
  const std::string text =
      R"(module @jit_ragged attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>, %arg2: tensor<3xi32>, %arg3: tensor<3xi32>, %arg4: tensor<3xi32>, %arg5: tensor<3xi32>) -> tensor<6xf32> {
    %0 = stablehlo.custom_call @ragged_all_to_all(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) {api_version = 4 : i32, backend_config = {channel_id = 1 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}} : (tensor<6xf32>, tensor<6xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<6xf32>
    %1 = "stablehlo.custom_call"(%arg0, %0, %arg2, %arg3, %arg4, %arg5) <{api_version = 4 : i32, backend_config = {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}, call_target_name = "ragged_all_to_all"}> : (tensor<6xf32>, tensor<6xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<6xf32>
    %2 = mhlo.custom_call @ragged_all_to_all(%arg0, %1, %arg2, %arg3, %arg4, %arg5) {api_version = 4 : i32, backend_config = {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}} : (tensor<6xf32>, tensor<6xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<6xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<6xf32>) -> tensor<6xf32>
    %4 = "stablehlo.custom_call"(%3) <{backend_config = "", call_target_name = "SPMDFullToShardShape"}> {replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<6xf32>) -> tensor<6xf32>
    %5 = stablehlo.custom_call @tpu_custom_call(%4) {backend_config = "ragged_all_to_all"} : (tensor<6xf32>) -> tensor<6xf32>
    return %5 : tensor<6xf32>
  }
}
)";
  // The same whatever the read window (the generic form looks at its line
  // for the target before reading the op).
  std::string whole;
  for (const Module& part : Read(text)) whole += ModuleDebugString(part);
  for (size_t window : {1u, 7u, 64u}) {
    std::string small;
    for (const Module& part : Read(text, window)) {
      small += ModuleDebugString(part);
    }
    EXPECT_EQ(small, whole) << "window " << window;
  }
  const Module m = One(text);
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  ASSERT_EQ(m.collectives.size(), 3u);
  const Collective& pretty = m.collectives[0];
  EXPECT_EQ(pretty.kind, CollectiveKind::kRaggedAllToAll);
  EXPECT_EQ(pretty.opcode, "ragged-all-to-all");
  EXPECT_EQ(pretty.name, "%0");
  EXPECT_EQ(pretty.pos.line, 3);
  EXPECT_TRUE(pretty.has_channel_id);
  EXPECT_EQ(pretty.channel_id, 1);
  EXPECT_EQ(pretty.replica_groups.GroupVectors(), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(pretty.operand_count, 6);
  ASSERT_EQ(pretty.operand_shapes.size(), 6u);
  EXPECT_EQ(pretty.result_shape.dims, std::vector<int64_t>{6});
  const Collective& generic = m.collectives[1];
  EXPECT_EQ(generic.kind, CollectiveKind::kRaggedAllToAll);
  EXPECT_FALSE(generic.has_channel_id);  // no channel: cross-replica
  EXPECT_EQ(generic.replica_groups.GroupVectors(), (Groups{{0, 1, 2, 3}}));
  EXPECT_EQ(m.collectives[2].name, "%2");
  EXPECT_EQ(m.collectives[2].replica_groups.GroupVectors(),
            (Groups{{0, 1, 2}}));
}

// Each `// -----` part is a module of its own; a part with no name is
// named by its place, and a repeated name is told apart, so that explain
// and messages that name a module are not ambiguous.
TEST(MlirReaderTest, PartsAreNamedWhenTheirNamesWouldBeAmbiguous) {
  const std::string op =
      "  %0 = \"stablehlo.collective_broadcast\"(%x) {replica_groups = "
      "dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> "
      "tensor<2xf32>\n";
  const std::string text =
      "module @a attributes {mhlo.num_partitions = 2 : i32} {\nfunc.func "
      "@f(%x: tensor<2xf32>) -> tensor<2xf32> {\n" +
      op + "  return %0 : tensor<2xf32>\n}\n}\n// -----\nfunc.func @g(%x: " +
      "tensor<2xf32>) -> tensor<2xf32> {\n" + op +
      "  return %0 : tensor<2xf32>\n}\n// -----\nmodule @a {\nfunc.func "
      "@h(%x: tensor<2xf32>) -> tensor<2xf32> {\n" +
      op + "  return %0 : tensor<2xf32>\n}\n}\n";
  const std::vector<Module> parts = Read(text);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].name, "a");
  EXPECT_EQ(parts[0].num_partitions, 2);
  EXPECT_EQ(parts[1].name, "part 2");
  EXPECT_FALSE(parts[1].num_partitions.has_value());
  EXPECT_EQ(parts[2].name, "a (part 3)");
  for (const Module& m : parts) EXPECT_EQ(m.collectives.size(), 1u);
  // A file of one module keeps its name, or none.
  EXPECT_EQ(
      One("func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {\n" + op + "}\n")
          .name,
      "");
}

// Collectives inside a Shardy manual computation (shard_map's body) are read
// and checked like any other; the shape is tt-mlir's
// test/ttmlir/Conversion/StableHLOToTTIR/ccl/ccl_ops_shardy.mlir (a JAX
// Shardy export), plus the mesh-axes groups JAX now writes in shard_map.
TEST(MlirReaderTest, CollectivesInsideAManualComputation) {
  const Module m = One(
      R"(module @jit_matmul_shardy0 attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=1, "y"=2]>
  func.func public @main(%arg0: tensor<8192x784xf32>, %arg1: tensor<784x16384xf32>) -> (tensor<8192x16384xf32> {jax.result_info = ""}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"y", "x"} (%arg2: tensor<8192x392xf32>, %arg3: tensor<392x16384xf32>) {
      %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8192x392xf32>, tensor<392x16384xf32>) -> tensor<8192x16384xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %3 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %3 : tensor<f32>
      }) : (tensor<8192x16384xf32>) -> tensor<8192x16384xf32>
      %4 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %3 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %3 : tensor<f32>
      }) : (tensor<8192x16384xf32>) -> tensor<8192x16384xf32>
      sdy.return %4 : tensor<8192x16384xf32>
    } : (tensor<8192x784xf32>, tensor<784x16384xf32>) -> tensor<8192x16384xf32>
    return %0 : tensor<8192x16384xf32>
  }
}
)");
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_EQ(m.collectives[0].name, "%2");
  EXPECT_EQ(m.collectives[0].computation, "main");
  EXPECT_EQ(m.collectives[0].replica_groups.GroupVectors(), (Groups{{0, 1}}));
  const ReplicaGroups& rg = m.collectives[1].replica_groups;
  EXPECT_EQ(rg.form, ReplicaGroups::Form::kMesh);
  ASSERT_EQ(rg.mesh.axes.size(), 2u);
  ASSERT_EQ(rg.mesh.grouped.size(), 1u);
  EXPECT_EQ(rg.mesh.grouped[0].name, "y");
}

TEST(MlirSniffTest, TellsTextBytecodeAndOtherDialects) {
  EXPECT_EQ(SniffMlir(std::string("ML\xefR\x00StableHLO_v1.0", 19)),
            MlirSniff::kBytecode);
  EXPECT_EQ(SniffMlir("module @m {\n  %0 = \"ttir.all_gather\"(%a)\n}\n"),
            MlirSniff::kOtherDialect);
  EXPECT_EQ(SniffMlir("// RUN: x\nfunc.func @f() {\n  %0 = stablehlo.add "
                      "%a, %a : tensor<f32>\n}\n"),
            MlirSniff::kStableHlo);
  EXPECT_EQ(SniffMlir("HloModule m\n"), MlirSniff::kNotMlir);
  EXPECT_TRUE(LooksLikeMlirModule("#loc = loc(unknown)\nmodule @jit_f {\n"));
  EXPECT_FALSE(LooksLikeMlirModule("# Title\nmodule text\n"));
  EXPECT_FALSE(LooksLikeMlirModule("func.func @f() {\n"));
  EXPECT_TRUE(LooksLikeMlirText("func.func @f() {\n"));
}

TEST(MlirDispatchTest, ParseHloAnyTakesStableHloAndRefusesBytecode) {
  Module m;
  ParseHloAny(
      "module @m attributes {mhlo.num_partitions = 2 : i32} {\n"
      "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %0 = \"stablehlo.collective_broadcast\"(%x) {replica_groups = "
      "dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> "
      "tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n}\n",
      "m.mlir", ParseOptions{}, &m);
  EXPECT_TRUE(m.syntax_errors.empty());
  EXPECT_EQ(m.collectives.size(), 1u);
  ParseHloAny(std::string("ML\xefR\x01StableHLO_v1.9.0", 21), "m.mlirbc",
              ParseOptions{}, &m);
  ASSERT_EQ(m.syntax_errors.size(), 1u);
  EXPECT_NE(m.syntax_errors[0].message.find("stablehlo-translate"),
            std::string::npos);
}

}  // namespace
}  // namespace topolint::hlo
