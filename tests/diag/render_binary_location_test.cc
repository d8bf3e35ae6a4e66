// Findings in binary inputs (HLO protos): no line, a byte offset and a
// logical place ("computation %main, op %ar"), shown by every renderer.
#include <cstdlib>
#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "checker/diag/source_cache.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/diag/finding_samples.h"
#include "tests/diag/temp_dir.h"

namespace topolint {
namespace {

using Json = nlohmann::json;

Location BinaryAt(int64_t offset, std::string logical) {
  Location loc{"cache/MODULE_1+abc/model.hlo_module.pb", 0, 0};
  loc.byte_offset = offset;
  loc.logical = std::move(logical);
  return loc;
}

std::vector<Finding> Findings() {
  Finding f = SampleFinding("hlo-duplicate-device-id",
                            BinaryAt(142, "computation %main, op %ar"),
                            "replica 0 is repeated in %ar's replica groups");
  f.notes.push_back({BinaryAt(57, "computation %main, op %ag"), "see also"});
  Finding syntax = SampleFinding("hlo-syntax", BinaryAt(1, ""), "truncated");
  return {f, syntax};
}

TEST(RenderBinaryLocationTest, TextNamesTheOpAndByteWithoutExcerpt) {
  SourceCache sources;
  const std::string out = RenderText(Findings(), sources, /*color=*/false);
  EXPECT_EQ(out,
            "cache/MODULE_1+abc/model.hlo_module.pb: error: replica 0 is "
            "repeated in %ar's replica groups [hlo-duplicate-device-id]\n"
            "  in computation %main, op %ar (byte 142)\n"
            "cache/MODULE_1+abc/model.hlo_module.pb: note: see also\n"
            "  in computation %main, op %ag (byte 57)\n"
            "cache/MODULE_1+abc/model.hlo_module.pb: error: truncated "
            "[hlo-syntax]\n"
            "  at byte 1\n");
}

TEST(RenderBinaryLocationTest, JsonCarriesByteOffsetAndLogicalLocation) {
  const Json doc = Json::parse(RenderJson(Findings()));
  EXPECT_EQ(doc[0]["line"], 0);
  EXPECT_EQ(doc[0]["byte_offset"], 142);
  EXPECT_EQ(doc[0]["logical_location"], "computation %main, op %ar");
  EXPECT_EQ(doc[0]["notes"][0]["byte_offset"], 57);
  EXPECT_EQ(doc[1]["logical_location"], "");
}

// For GitHub code scanning (repository-rooted URIs) a result needs a
// region.startLine, and a region with a line and a byte offset must name
// the same bytes: the whole file, with the op and offset in the message.
TEST(RenderBinaryLocationTest, RootedSarifPlacesTheWholeFileAndSaysWhere) {
  const SarifRoots roots{"/repo", "/repo"};
  const Json doc = Json::parse(RenderSarif(Findings(), {}, "0.1.0", roots));
  const Json& result = doc["runs"][0]["results"][0];
  const Json& pl = result["locations"][0]["physicalLocation"];
  EXPECT_EQ(pl["region"], Json({{"startLine", 1}}));
  EXPECT_EQ(result["message"]["text"],
            "replica 0 is repeated in %ar's replica groups (see [see "
            "also](1)) (in computation %main, op %ar, byte 142)");
  EXPECT_EQ(result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
            "computation %main, op %ar");
  EXPECT_EQ(result["relatedLocations"][0]["message"]["text"],
            "see also (in computation %main, op %ag, byte 57)");
  EXPECT_EQ(doc["runs"][0]["results"][1]["message"]["text"],
            "truncated (in byte 1)");
}

TEST(RenderBinaryLocationTest, SarifHasByteRegionAndLogicalLocation) {
  const Json doc = Json::parse(RenderSarif(Findings(), {}, "0.1.0"));
  const Json& loc = doc["runs"][0]["results"][0]["locations"][0];
  EXPECT_EQ(loc["physicalLocation"]["region"]["byteOffset"], 142);
  EXPECT_FALSE(loc["physicalLocation"]["region"].contains("startLine"));
  EXPECT_EQ(loc["logicalLocations"][0]["fullyQualifiedName"],
            "computation %main, op %ar");
  const Json& related = doc["runs"][0]["results"][0]["relatedLocations"][0];
  EXPECT_EQ(related["physicalLocation"]["region"]["byteOffset"], 57);
  EXPECT_FALSE(doc["runs"][0]["results"][1]["locations"][0].contains(
      "logicalLocations"));
  // Valid SARIF 2.1.0.
  if (std::system("python3 -c 'import jsonschema' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "python3 jsonschema is not installed";
  }
  TempDir dir;
  const std::string path = dir.Write("out.sarif", doc.dump());
  const std::string cmd =
      "python3 -c 'import json,jsonschema,sys; "
      "jsonschema.validate(json.load(open(sys.argv[1])), "
      "json.load(open(sys.argv[2])))' '" +
      path + "' '" TOPOLINT_SOURCE_DIR "/tests/data/sarif-2.1.0-rtm.5.json'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
}

TEST(RenderBinaryLocationTest, GithubPutsThePlaceInTheMessage) {
  const std::string out = RenderGithub(Findings());
  EXPECT_NE(out.find("::error file=cache/MODULE_1+abc/model.hlo_module.pb,"
                     "title=hlo-duplicate-device-id::"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("(in computation %25main, op %25ar (byte 142))"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find(",line="), std::string::npos);
}

TEST(RenderBinaryLocationTest, OrderFollowsByteOffsets) {
  std::vector<Finding> f = {SampleFinding("a", BinaryAt(90, ""), "x"),
                            SampleFinding("a", BinaryAt(10, ""), "x")};
  EXPECT_TRUE(FindingLess(f[1], f[0]));
  EXPECT_FALSE(FindingLess(f[0], f[1]));
}

}  // namespace
}  // namespace topolint
