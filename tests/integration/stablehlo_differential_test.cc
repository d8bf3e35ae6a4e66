// The same defect written as HLO text, as binary HLO and as StableHLO text
// gives the same findings: rule, severity and message (positions differ:
// lines in text, byte offsets in binary). The StableHLO spellings are those
// XLA's StableHLO -> HLO translation turns into the HLO text beside them
// (docs/reference/inputs.md, "StableHLO").
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "re2/re2.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using testing::RunTopolint;
using testing::TempDir;

struct Case {
  const char* name;
  const char* rule;         // the rule the case must show
  const char* hlo_result;   // f32[16,128]
  const char* hlo_op;       // the ROOT instruction
  const char* mlir_result;  // tensor<16x128xf32>
  const char* mlir_op;      // the op, result named %r
};

const Case kCases[] = {
    {"id-range", "hlo-device-id-range", "f32[16,128]",
     "ROOT %r = f32[16,128]{1,0} all-gather(f32[4,128]{1,0} %p), "
     "channel_id=1, replica_groups={{0,1,2,3},{4,5,6,8}}, dimensions={0}, "
     "use_global_device_ids=true",
     "tensor<16x128xf32>",
     "%r = \"stablehlo.all_gather\"(%p) <{all_gather_dim = 0 : i64, "
     "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
     "replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 8]]> : "
     "tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x128xf32>) -> "
     "tensor<16x128xf32>"},
    {"duplicate", "hlo-duplicate-device-id", "f32[16,128]",
     "ROOT %r = f32[16,128]{1,0} all-gather(f32[4,128]{1,0} %p), "
     "channel_id=1, replica_groups={{0,1,2,3},{4,5,6,6}}, dimensions={0}, "
     "use_global_device_ids=true",
     "tensor<16x128xf32>",
     "%r = \"stablehlo.all_gather\"(%p) {all_gather_dim = 0 : i64, "
     "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
     "replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 6]]> : "
     "tensor<2x4xi64>, use_global_device_ids} : (tensor<4x128xf32>) -> "
     "tensor<16x128xf32>"},
    {"nonuniform-padding", "hlo-nonuniform-groups", "f32[16,128]",
     "ROOT %r = f32[16,128]{1,0} all-gather(f32[4,128]{1,0} %p), "
     "channel_id=1, replica_groups={{0,1,2},{3,4,5,6,7}}, dimensions={0}, "
     "use_global_device_ids=true",
     "tensor<16x128xf32>",
     "%r = \"stablehlo.all_gather\"(%p) <{all_gather_dim = 0 : i64, "
     "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
     "replica_groups = dense<[[0, 1, 2, -1, -1], [3, 4, 5, 6, 7]]> : "
     "tensor<2x5xi64>, use_global_device_ids}> : (tensor<4x128xf32>) -> "
     "tensor<16x128xf32>"},
    {"shape", "hlo-group-size-shape", "f32[8,128]",
     "ROOT %r = f32[8,128]{1,0} all-gather(f32[4,128]{1,0} %p), "
     "channel_id=1, replica_groups={{0,1,2,3},{4,5,6,7}}, dimensions={0}, "
     "use_global_device_ids=true",
     "tensor<8x128xf32>",
     "%r = \"stablehlo.all_gather\"(%p) <{all_gather_dim = 0 : i64, "
     "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
     "replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : "
     "tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x128xf32>) -> "
     "tensor<8x128xf32>"},
    {"handle-zero", "hlo-group-mode", "f32[16,128]",
     "ROOT %r = f32[16,128]{1,0} all-gather(f32[4,128]{1,0} %p), "
     "replica_groups={{0,1,2,3},{4,5,6,7}}, dimensions={0}, "
     "use_global_device_ids=true",
     "tensor<16x128xf32>",
     "%r = \"stablehlo.all_gather\"(%p) <{all_gather_dim = 0 : i64, "
     "channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>, "
     "replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : "
     "tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x128xf32>) -> "
     "tensor<16x128xf32>"},
    {"coverage", "hlo-group-coverage", "f32[4,128]",
     "ROOT %r = f32[4,128]{1,0} all-reduce(f32[4,128]{1,0} %p), "
     "channel_id=3, replica_groups={{0,1,2,3}}, use_global_device_ids=true, "
     "to_apply=%add",
     "tensor<4x128xf32>",
     "%r = \"stablehlo.all_reduce\"(%p) <{channel_handle = "
     "#stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = "
     "dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({\n"
     "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
     "      %s = stablehlo.add %a, %b : tensor<f32>\n"
     "      stablehlo.return %s : tensor<f32>\n"
     "    }) : (tensor<4x128xf32>) -> tensor<4x128xf32>"},
    {"permute", "hlo-permute-pairs", "f32[4,128]",
     "ROOT %r = f32[4,128]{1,0} collective-permute(f32[4,128]{1,0} %p), "
     "channel_id=2, source_target_pairs={{0,1},{0,2}}",
     "tensor<4x128xf32>",
     "%r = \"stablehlo.collective_permute\"(%p) {channel_handle = "
     "#mhlo.channel_handle<handle = 2, type = 1>, source_target_pairs = "
     "dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<4x128xf32>) -> "
     "tensor<4x128xf32>"},
};

std::string HloText(const Case& c) {
  return std::string(
             "HloModule m, replica_count=1, num_partitions=8\n\n"
             "%add (x: f32[], y: f32[]) -> f32[] {\n"
             "  %x = f32[] parameter(0)\n"
             "  %y = f32[] parameter(1)\n"
             "  ROOT %s = f32[] add(f32[] %x, f32[] %y)\n"
             "}\n\n"
             "ENTRY %main (p: f32[4,128]) -> ") +
         c.hlo_result + " {\n  %p = f32[4,128]{1,0} parameter(0)\n  " +
         c.hlo_op + "\n}\n";
}

std::string MlirText(const Case& c) {
  return std::string(
             "module @m attributes {mhlo.num_partitions = 8 : i32, "
             "mhlo.num_replicas = 1 : i32} {\n"
             "  func.func public @main(%p: tensor<4x128xf32>) -> ") +
         c.mlir_result + " {\n    " + c.mlir_op +
         "\n    return %r : " + c.mlir_result + "\n  }\n}\n";
}

// Each finding as `severity: message [rule]`, without its location.
std::multiset<std::string> Findings(const std::string& out) {
  static const RE2 line(
      R"(\S.*?: (error|warning|note): (.*) \[([a-z0-9-]+)\])");
  std::multiset<std::string> found;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) {
    std::string severity, message, rule;
    if (RE2::FullMatch(l, line, &severity, &message, &rule)) {
      found.insert(severity + ": " + message + " [" + rule + "]");
    }
  }
  return found;
}

TEST(StableHloDifferentialTest, SameDefectSameFindings) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    TempDir d;
    const std::string hlo = HloText(c);
    d.Write("t/model.hlo", hlo);
    d.Write("s/model.mlir", MlirText(c));
    hlo::Module parsed = hlo::ParseHloText(hlo, "model.hlo");
    ASSERT_TRUE(parsed.syntax_errors.empty())
        << parsed.syntax_errors[0].message;
    d.Write("b/model.hlo_module.pb", testing::WriteHloProto(parsed));
    const testing::CliResult text = RunTopolint({"check", "t"}, d.path());
    const testing::CliResult mlir = RunTopolint({"check", "s"}, d.path());
    const testing::CliResult binary = RunTopolint({"check", "b"}, d.path());
    EXPECT_EQ(text.exit_code, 1) << text.err;
    EXPECT_THAT(text.out,
                ::testing::HasSubstr(std::string("[") + c.rule + "]"));
    EXPECT_EQ(mlir.exit_code, text.exit_code) << mlir.err;
    EXPECT_EQ(Findings(mlir.out), Findings(text.out))
        << "StableHLO:\n"
        << mlir.out << "HLO text:\n"
        << text.out;
    EXPECT_EQ(Findings(binary.out), Findings(text.out))
        << "binary:\n"
        << binary.out << "HLO text:\n"
        << text.out;
    // The StableHLO finding is placed in the .mlir file, on the op's line.
    EXPECT_THAT(mlir.out, ::testing::HasSubstr("s/model.mlir:3:"));
  }
}

// jax.lax.ragged_all_to_all: a custom call in StableHLO (its groups and
// channel in backend_config, as jax/_src/lax/parallel.py lowers it), the
// ragged-all-to-all opcode in HLO (as XLA's export makes it): one defect,
// the same findings from the three front ends.
TEST(StableHloDifferentialTest, RaggedAllToAllCustomCall) {
  const std::string hlo =
      "HloModule m, replica_count=1, num_partitions=4\n\n"
      "ENTRY %main (p0: f32[6], p1: f32[6], p2: s32[3], p3: s32[3], p4: "
      "s32[3], p5: s32[3]) -> f32[6] {\n"
      "  %p0 = f32[6]{0} parameter(0)\n  %p1 = f32[6]{0} parameter(1)\n"
      "  %p2 = s32[3]{0} parameter(2)\n  %p3 = s32[3]{0} parameter(3)\n"
      "  %p4 = s32[3]{0} parameter(4)\n  %p5 = s32[3]{0} parameter(5)\n"
      "  ROOT %r = f32[6]{0} ragged-all-to-all(f32[6]{0} %p0, f32[6]{0} %p1, "
      "s32[3]{0} %p2, s32[3]{0} %p3, s32[3]{0} %p4, s32[3]{0} %p5), "
      "channel_id=1, replica_groups={{0,1,2},{2,3,4}}\n}\n";
  const std::string mlir =
      "module @m attributes {mhlo.num_partitions = 4 : i32, "
      "mhlo.num_replicas = 1 : i32} {\n"
      "  func.func public @main(%p0: tensor<6xf32>, %p1: tensor<6xf32>, %p2: "
      "tensor<3xi32>, %p3: tensor<3xi32>, %p4: tensor<3xi32>, %p5: "
      "tensor<3xi32>) -> tensor<6xf32> {\n"
      "    %r = stablehlo.custom_call @ragged_all_to_all(%p0, %p1, %p2, %p3, "
      "%p4, %p5) {api_version = 4 : i32, backend_config = {channel_id = 1 : "
      "i64, replica_groups = dense<[[0, 1, 2], [2, 3, 4]]> : "
      "tensor<2x3xi64>}} : (tensor<6xf32>, tensor<6xf32>, tensor<3xi32>, "
      "tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<6xf32>\n"
      "    return %r : tensor<6xf32>\n  }\n}\n";
  TempDir d;
  d.Write("t/model.hlo", hlo);
  d.Write("s/model.mlir", mlir);
  hlo::Module parsed = hlo::ParseHloText(hlo, "model.hlo");
  ASSERT_TRUE(parsed.syntax_errors.empty()) << parsed.syntax_errors[0].message;
  d.Write("b/model.hlo_module.pb", testing::WriteHloProto(parsed));
  const testing::CliResult text = RunTopolint({"check", "t"}, d.path());
  const testing::CliResult stablehlo = RunTopolint({"check", "s"}, d.path());
  const testing::CliResult binary = RunTopolint({"check", "b"}, d.path());
  EXPECT_EQ(text.exit_code, 1) << text.err;
  EXPECT_THAT(text.out, ::testing::HasSubstr("[hlo-duplicate-device-id]"));
  EXPECT_EQ(stablehlo.exit_code, 1) << stablehlo.err;
  EXPECT_EQ(Findings(stablehlo.out), Findings(text.out))
      << "StableHLO:\n"
      << stablehlo.out << "HLO text:\n"
      << text.out;
  EXPECT_EQ(Findings(binary.out), Findings(text.out))
      << "binary:\n"
      << binary.out << "HLO text:\n"
      << text.out;
  EXPECT_THAT(stablehlo.out, ::testing::HasSubstr("s/model.mlir:3:"));
}

TEST(StableHloDifferentialTest, ExplainReadsTheSameGroups) {
  const Case& c = kCases[3];  // a clean list, a shape problem
  TempDir d;
  d.Write("t/model.hlo", HloText(c));
  d.Write("s/model.mlir", MlirText(c));
  const testing::CliResult text =
      RunTopolint({"explain", "--format", "json", "t"}, d.path());
  const testing::CliResult mlir =
      RunTopolint({"explain", "--format", "json", "s"}, d.path());
  ASSERT_LT(text.exit_code, 2) << text.err;
  ASSERT_LT(mlir.exit_code, 2) << mlir.err;
  // Everything but the directory, file names, lines and the input format
  // each module names ("stablehlo", "hlo-text").
  static const RE2 noise(
      R"re("(directory|file|format|line|column|path)": ("[^"]*"|\d+)|"[st]/model\.(mlir|hlo)")re");
  std::string a = mlir.out, b = text.out;
  RE2::GlobalReplace(&a, noise, "");
  RE2::GlobalReplace(&b, noise, "");
  EXPECT_EQ(a, b);
  EXPECT_NE(mlir.out.find(R"("format": "stablehlo")"), std::string::npos);
  EXPECT_NE(text.out.find(R"("format": "hlo-text")"), std::string::npos);
}

}  // namespace
}  // namespace topolint
