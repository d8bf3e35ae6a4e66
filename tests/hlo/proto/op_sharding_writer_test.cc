// The test-side OpSharding writer (tests/common/op_sharding_writer.h), which
// the binary twins of text fixtures rely on: every sharding form the text
// parser reads, written as OpSharding and decoded by the checker's own
// decoder, is the sharding it was (as XLA's ToString spells it), except a
// one-device tile, which XLA itself reads back as replicated.
#include <string>

#include "checker/hlo/sharding/sharding.h"
#include "checker/hlo/sharding/sharding_proto.h"
#include "checker/hlo/sharding/sharding_text.h"
#include "gtest/gtest.h"
#include "tests/common/op_sharding_writer.h"

namespace topolint::testing {
namespace {

hlo::Sharding Parse(const std::string& text) {
  const hlo::ShardingParse p = hlo::ParseShardingText(text);
  EXPECT_TRUE(p.ok()) << text << ": " << p.error;
  return p.ok() ? *p.sharding : hlo::Sharding();
}

class OpShardingRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(OpShardingRoundTrip, DecodesToTheSameSharding) {
  const hlo::Sharding s = Parse(GetParam());
  ASSERT_TRUE(HasBinaryForm(s));
  const hlo::OpShardingDecode d = hlo::DecodeOpSharding(OpShardingProto(s));
  ASSERT_TRUE(d.ok()) << d.error;
  // A named sharding's spelling may differ (NamedShardingProto has no
  // whole-value `replicated` / `unreduced` and lists an iota's device ids
  // in full); what the checks read of it may not.
  bool named = s.named.has_value();
  for (const hlo::Sharding& e : s.tuple) named = named || e.named.has_value();
  if (!named) {
    EXPECT_EQ(hlo::ShardingToString(*d.sharding), hlo::ShardingToString(s));
  }
  EXPECT_EQ(d.sharding->type, s.type);
  ASSERT_EQ(d.sharding->tuple.size(), s.tuple.size());
  for (size_t i = 0; i < s.tuple.size(); ++i) {
    EXPECT_EQ(d.sharding->tuple[i].type, s.tuple[i].type) << i;
    EXPECT_EQ(hlo::TileDeviceCount(d.sharding->tuple[i]),
              hlo::TileDeviceCount(s.tuple[i]))
        << i;
  }
  EXPECT_EQ(hlo::TileDeviceCount(*d.sharding), hlo::TileDeviceCount(s));
  EXPECT_EQ(hlo::DataTileDims(*d.sharding), hlo::DataTileDims(s));
  EXPECT_EQ(hlo::ExpandDevices(*d.sharding), hlo::ExpandDevices(s));
}

INSTANTIATE_TEST_SUITE_P(
    EveryTextForm, OpShardingRoundTrip,
    ::testing::Values(
        "{replicated}", "{manual}", "{unknown}", "{unreduced}",
        "{maximal device=3}", "{devices=[2,1]0,1}", "{devices=[2,2]3,2,1,0}",
        "{devices=[2,1,2]0,2,1,3 "
        "last_tile_dim_replicate}",
        "{devices=[4,2]<=[8]}", "{devices=[2,4]<=[2,4]T(1,0)}",
        "{devices=[2,2,2]<=[8] last_tile_dims={manual}}",
        "{devices=[2,2,1,1]<=[4] last_tile_dims={manual, replicated}}",
        "{{replicated}, {maximal device=0}, {devices=[2]0,1}}",
        "{devices=[2,2]<=[4] shard_like 2}", "{manual shard_as 1}",
        "{mesh[x=2,y=2], [{x}, {y}]}", "{mesh[x=2,y=4], [{x}, {y:(2)2}]}",
        "{mesh[x=2,y=2], device_ids=(0,2,1,3), [{}, {x}], replicated={y}}",
        "{mesh[x=2,y=2], device_ids=([2,2]T(1,0)), [{x}, {y}]}",
        "{mesh[x=2,y=2], unreduced}", "{maximal_mesh[device_id=5]}",
        "{{replicated}, {mesh[x=2,y=2], replicated}}"));

TEST(OpShardingWriterTest, AOneDeviceTileHasNoBinaryForm) {
  // The text parser reads it (and Validate refuses it); XLA's FromProto
  // reads its OpSharding as replicated, and so does DecodeOpSharding.
  const hlo::Sharding s = Parse("{devices=[1]<=[1]}");
  EXPECT_FALSE(HasBinaryForm(s));
  const hlo::OpShardingDecode d = hlo::DecodeOpSharding(OpShardingProto(s));
  ASSERT_TRUE(d.ok()) << d.error;
  EXPECT_EQ(d.sharding->type, hlo::ShardingType::kReplicated);
}

}  // namespace
}  // namespace topolint::testing
