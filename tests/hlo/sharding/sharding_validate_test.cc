// ValidateSharding: XLA's HloSharding::Validate, its order, its messages and
// its normalisation; RecordSharding's summary.
#include "checker/hlo/sharding/sharding_validate.h"

#include <optional>
#include <string>

#include "checker/hlo/sharding/sharding_record.h"
#include "checker/hlo/sharding/sharding_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using Kind = ShardingIssue::Kind;

Shape Array(std::string type, std::vector<int64_t> dims) {
  Shape s;
  s.known = true;
  s.element_type = std::move(type);
  s.dims = std::move(dims);
  return s;
}
Shape Tuple(std::vector<Shape> elements) {
  Shape s;
  s.known = true;
  s.is_tuple = true;
  s.tuple = std::move(elements);
  return s;
}

// "" when valid, else "<kind>: <message>".
std::string Check(std::string_view text, const Shape& shape,
                  std::optional<int64_t> n) {
  const ShardingParse p = ParseShardingText(text);
  EXPECT_TRUE(p.ok()) << text << ": " << p.error;
  if (!p.ok()) return "parse error";
  const std::optional<ShardingProblem> problem =
      ValidateSharding(*p.sharding, shape, n);
  if (!problem) return "";
  const char* kind = problem->kind == Kind::kDevice  ? "device"
                     : problem->kind == Kind::kCount ? "count"
                                                     : "rank";
  return std::string(kind) + ": " + problem->message;
}

TEST(ShardingValidateTest, TheProbeModule) {
  const Shape f = Array("f32", {8, 4});
  EXPECT_EQ(Check("{devices=[2,1]0,5}", f, 2),
            "device: device 5 >= num_devices (2) in tile assignment; Note: "
            "While validating sharding {devices=[2,1]0,5} against shape "
            "f32[8,4]");
  EXPECT_THAT(Check("{maximal device=7}", f, 2),
              StartsWith("device: device 7 >= num_devices (2) in tile "
                         "assignment"));
  EXPECT_THAT(Check("{devices=[4,1]0,1,2,3}", f, 2),
              StartsWith("count: tile_assignment should have 2 devices but "
                         "has 4"));
}

TEST(ShardingValidateTest, WithoutDeviceCountOnlyWhatXlaAlwaysChecks) {
  const Shape f = Array("f32", {8, 4});
  EXPECT_EQ(Check("{devices=[2,1]0,5}", f, std::nullopt), "");
  EXPECT_EQ(Check("{maximal device=7}", f, std::nullopt), "");
  EXPECT_EQ(Check("{devices=[4,1]0,1,2,3}", f, std::nullopt), "");
  EXPECT_THAT(Check("{devices=[2,1]0,0}", f, std::nullopt),
              StartsWith("device: device 0 is not unique in tile assignment"));
  EXPECT_THAT(Check("{devices=[2,1]0,-1}", f, std::nullopt),
              StartsWith("device: device -1 is negative in tile assignment"));
  EXPECT_THAT(Check("{maximal device=-2}", f, std::nullopt),
              StartsWith("device: device -2 is negative"));
}

TEST(ShardingValidateTest, RankAndSingleDevice) {
  EXPECT_THAT(
      Check("{devices=[2,1]0,1}", Array("f32", {8}), std::nullopt),
      StartsWith("rank: Number of tile assignment dimensions (excluding "
                 "subgroups) is different than the input rank. "
                 "sharding={devices=[2,1]0,1}, input_shape=f32[8]"));
  // Subgroup dimensions are not data dimensions.
  EXPECT_EQ(Check("{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}",
                  Array("f32", {8, 4}), 4),
            "");
  EXPECT_THAT(Check("{devices=[1,1]<=[1]}", Array("f32", {8, 4}), 2),
              StartsWith("rank: Tile assignment only contains a single "
                         "device."));
  // Rank is checked before the count.
  EXPECT_THAT(Check("{devices=[4]<=[4]}", Array("f32", {8, 4}), 2),
              StartsWith("rank: "));
}

TEST(ShardingValidateTest, IotaCount) {
  EXPECT_EQ(Check("{devices=[2,4]<=[8]}", Array("f32", {8, 8}), 8), "");
  EXPECT_THAT(Check("{devices=[2,4]<=[8]}", Array("f32", {8, 8}), 4),
              StartsWith("count: tile_assignment should have 4 devices but "
                         "has 8"));
}

TEST(ShardingValidateTest, NormalisationAndTokens) {
  // Collapses to replicated / manual: never examined.
  EXPECT_EQ(Check("{devices=[1,1,4]0,1,2,3 last_tile_dim_replicate}",
                  Array("f32", {8}), 2),
            "");
  EXPECT_EQ(Check("{devices=[1,4]<=[4] last_tile_dims={manual}}",
                  Array("f32", {8, 8, 8}), 2),
            "");
  // A token is not validated.
  EXPECT_EQ(Check("{devices=[4,1]0,1,2,3}", Array("token", {}), 2), "");
  // Replicated, manual, unknown, unreduced are fine on any shape.
  EXPECT_EQ(Check("{replicated}", Array("f32", {1, 2, 3}), 2), "");
  EXPECT_EQ(Check("{unreduced}", Array("f32", {}), 2), "");
}

TEST(ShardingValidateTest, Tuples) {
  const Shape t = Tuple({Array("f32", {8}), Array("s32", {})});
  EXPECT_EQ(Check("{{devices=[2]0,1}, {replicated}}", t, 2), "");
  EXPECT_THAT(Check("{{replicated}}", t, 2),
              StartsWith("rank: Shape (f32[8], s32[]) has 2 leaf nodes while "
                         "this sharding has 1"));
  EXPECT_THAT(Check("{{replicated}, {devices=[2]0,1}}", t, 2),
              HasSubstr("tuple element 1 which is {devices=[2]0,1}"));
  // A non-tuple sharding on a tuple shape applies to every leaf (XLA's
  // NormalizeTupleSharding): s32[] has rank 0.
  EXPECT_EQ(Check("{replicated}", t, 2), "");
  EXPECT_THAT(Check("{devices=[2]0,1}", t, 2),
              StartsWith("rank: Number of tile assignment dimensions"));
  EXPECT_THAT(Check("{{replicated}}", Array("f32", {8}), 2),
              StartsWith("rank: Sharding is tuple-shaped but validation "
                         "shape is not."));
  // The empty tuple may carry one sharding.
  EXPECT_EQ(Check("{{replicated}}", Tuple({}), 2), "");
}

TEST(ShardingValidateTest, NamedCount) {
  EXPECT_EQ(Check("{mesh[x=2,y=4], [{x}, {y}]}", Array("f32", {8, 8}), 8), "");
  EXPECT_THAT(Check("{mesh[x=2,y=4], [{x}, {y}]}", Array("f32", {8, 8}), 4),
              StartsWith("count: sharding should have 4 devices but has 8"));
}

TEST(ShardingRecordTest, SummaryAndSpmdCondition) {
  Module m;
  const Shape f = Array("f32", {8, 4});
  const Sharding bad = *ParseShardingText("{devices=[2,1]0,5}").sharding;
  RecordSharding(bad, f, TextPos{3, 5}, "%p", ShardingSite::kInstruction, &m);
  EXPECT_TRUE(m.sharding.issues.empty());  // no num_partitions: not checked
  m.num_partitions = 1;
  RecordSharding(bad, f, TextPos{3, 5}, "%p", ShardingSite::kInstruction, &m);
  EXPECT_TRUE(m.sharding.issues.empty());
  m.num_partitions = 2;
  RecordSharding(bad, f, TextPos{3, 5}, "%p", ShardingSite::kInstruction, &m);
  ASSERT_EQ(m.sharding.issues.size(), 1u);
  EXPECT_EQ(m.sharding.issues[0].kind, Kind::kDevice);
  EXPECT_EQ(m.sharding.issues[0].pos.line, 3);
  EXPECT_EQ(m.sharding.annotations, 3);
  ASSERT_TRUE(AgreedTileCount(m.sharding).has_value());
  EXPECT_EQ(AgreedTileCount(m.sharding)->devices, 2);
  // Domain shardings count, but are not validated.
  RecordSharding(*ParseShardingText("{devices=[4,1]0,1,2,3}").sharding, f,
                 TextPos{9, 1}, "%d", ShardingSite::kDomain, &m);
  EXPECT_EQ(m.sharding.issues.size(), 1u);
  EXPECT_FALSE(AgreedTileCount(m.sharding).has_value());
  ASSERT_EQ(m.sharding.tile_counts.size(), 2u);
  EXPECT_EQ(m.sharding.tile_counts[1].devices, 4);
  EXPECT_EQ(m.sharding.tile_counts[1].pos.line, 9);
}

TEST(ShardingRecordTest, OnlyShardingsBeforeTheFirstCollectiveGiveTheCount) {
  Module m;
  const Shape f = Array("f32", {8, 4});
  RecordSharding(*ParseShardingText("{devices=[2,1]0,1}").sharding, f,
                 TextPos{3, 1}, "%p", ShardingSite::kInstruction, &m);
  // What EmitCollective does at the module's first collective.
  m.sharding.frozen = true;
  m.sharding.tile_counts_at_first_collective = m.sharding.tile_counts;
  RecordSharding(*ParseShardingText("{devices=[4,1]0,1,2,3}").sharding, f,
                 TextPos{9, 1}, "%q", ShardingSite::kInstruction, &m);
  ASSERT_TRUE(AgreedTileCount(m.sharding).has_value());
  EXPECT_EQ(AgreedTileCount(m.sharding)->devices, 2);
  EXPECT_EQ(m.sharding.tile_counts.size(), 2u);
}

}  // namespace
}  // namespace topolint::hlo
