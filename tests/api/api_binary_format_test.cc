// FormatFinding on a finding in a binary HLO module: the op and
// computation the CLI prints, not `model.hlo_module.pb:0:0:`.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/run_cli.h"
#include "topolint/topolint.h"

namespace topolint::testing {
namespace {

namespace api = ::topolint::api;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ApiBinaryFormatTest, BinaryFindingNamesOpAndComputationAsTheCliDoes) {
  TempDir d;
  const std::string path = d.Write(
      "model.hlo_module.pb", SampleAllReduceProto({{0, 0}}, /*gzip=*/false));
  api::Unit unit;
  ASSERT_TRUE(unit.AddFile(path).ok());
  std::vector<api::Finding> findings;
  ASSERT_TRUE(api::Check(unit, {}, &findings).ok());
  ASSERT_FALSE(findings.empty());
  const api::Finding& f = findings[0];
  EXPECT_EQ(f.line, 0);
  EXPECT_GE(f.byte_offset, 0);
  EXPECT_THAT(f.logical, HasSubstr("op %ar"));
  const std::string line = api::FormatFinding(f);
  EXPECT_THAT(line, Not(HasSubstr(":0:0:")));
  EXPECT_THAT(line, HasSubstr(path + ": error: "));
  EXPECT_THAT(line, HasSubstr("(in computation %main, op %ar (byte "));
  EXPECT_THAT(line, HasSubstr(" [" + f.rule + "]"));

  // The CLI's text output names the same place under the headline.
  const CliResult cli = RunTopolint({"check", "--color", "never", path});
  EXPECT_THAT(cli.out, HasSubstr("  in computation %main, op %ar (byte " +
                                 std::to_string(f.byte_offset) + ")"));
}

TEST(ApiBinaryFormatTest, TextFindingKeepsLineAndColumn) {
  api::Finding f;
  f.rule = "json-syntax";
  f.message = "expected a value";
  f.file = "a/def.json";
  f.line = 3;
  f.column = 7;
  EXPECT_EQ(api::FormatFinding(f),
            "a/def.json:3:7: error: expected a value [json-syntax]");
  f.line = 0;
  f.column = 0;
  EXPECT_EQ(api::FormatFinding(f),
            "a/def.json: error: expected a value [json-syntax]");
}

}  // namespace
}  // namespace topolint::testing
