// ParseShardingText / ParseDomainText: every form XLA prints, its parser's
// messages and where they are reported, the named (mesh) form, and the
// checks XLA's parser leaves out (device list vs tile size).
#include "checker/hlo/sharding/sharding_text.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

using ::testing::ElementsAre;

Sharding Ok(std::string_view text) {
  ShardingParse p = ParseShardingText(text);
  EXPECT_TRUE(p.ok()) << text << ": " << p.error << " at " << p.error_offset;
  return p.ok() ? *p.sharding : Sharding();
}

// "offset: message".
std::string Err(std::string_view text) {
  ShardingParse p = ParseShardingText(text);
  if (p.ok()) return "ok";
  return std::to_string(p.error_offset) + ": " + p.error;
}

TEST(ShardingTextTest, SimpleKinds) {
  EXPECT_EQ(Ok("{replicated}").type, ShardingType::kReplicated);
  EXPECT_EQ(Ok("{manual}").type, ShardingType::kManual);
  EXPECT_EQ(Ok("{unknown}").type, ShardingType::kUnknown);
  EXPECT_EQ(Ok("{unreduced}").type, ShardingType::kUnreduced);
  const Sharding m = Ok("{maximal device=3}");
  EXPECT_EQ(m.type, ShardingType::kMaximal);
  EXPECT_THAT(m.devices, ElementsAre(3));
}

TEST(ShardingTextTest, ExplicitTile) {
  const Sharding s = Ok("{devices=[2,1]0,1}");
  EXPECT_EQ(s.type, ShardingType::kTiled);
  EXPECT_THAT(s.tile_dims, ElementsAre(2, 1));
  EXPECT_THAT(s.devices, ElementsAre(0, 1));
  EXPECT_FALSE(s.is_iota());
  EXPECT_EQ(ShardingToString(s), "{devices=[2,1]0,1}");
}

TEST(ShardingTextTest, SubgroupForms) {
  const Sharding r =
      Ok("{devices=[4,1,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}");
  EXPECT_TRUE(r.last_tile_dim_replicate);
  EXPECT_THAT(r.subgroup_types, ElementsAre(ShardingType::kReplicated));
  EXPECT_THAT(DataTileDims(r), ElementsAre(4, 1));
  const Sharding m = Ok("{devices=[2,2,2]<=[8] last_tile_dims={manual}}");
  EXPECT_THAT(m.subgroup_types, ElementsAre(ShardingType::kManual));
  EXPECT_THAT(DataTileDims(m), ElementsAre(2, 2));
  EXPECT_EQ(ShardingToString(m),
            "{devices=[2,2,2]<=[8] last_tile_dims={manual}}");
  const Sharding two =
      Ok("{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}");
  EXPECT_THAT(two.subgroup_types,
              ElementsAre(ShardingType::kManual, ShardingType::kReplicated));
  EXPECT_THAT(DataTileDims(two), ElementsAre(2, 1));
}

TEST(ShardingTextTest, IotaExpandsWithTranspose) {
  const Sharding s = Ok("{devices=[2,4]<=[2,4]T(1,0)}");
  EXPECT_THAT(s.iota_reshape_dims, ElementsAre(2, 4));
  EXPECT_THAT(s.iota_perm, ElementsAre(1, 0));
  // iota(8) as 2x4, transposed to 4x2: 0,4,1,5,2,6,3,7.
  EXPECT_THAT(ExpandDevices(s), ElementsAre(0, 4, 1, 5, 2, 6, 3, 7));
  EXPECT_THAT(ExpandDevices(Ok("{devices=[2,2]<=[4]}")),
              ElementsAre(0, 1, 2, 3));
  EXPECT_EQ(TileDeviceCount(s), 8);
  EXPECT_EQ(ShardingToString(s), "{devices=[2,4]<=[2,4]T(1,0)}");
  // A 3-axis transpose: iota(24) as 2x3x4, axes (2,0,1).
  const std::vector<int64_t> d =
      ExpandDevices(Ok("{devices=[4,6]<=[2,3,4]T(2,0,1)}"));
  ASSERT_EQ(d.size(), 24u);
  EXPECT_THAT(std::vector<int64_t>(d.begin(), d.begin() + 7),
              ElementsAre(0, 4, 8, 12, 16, 20, 1));
}

TEST(ShardingTextTest, IotaWithABadTransposeExpandsInOrder) {
  // The validator reports a bad transpose; the expansion stays total and
  // lists the devices in iota order.
  Sharding s;
  s.type = ShardingType::kTiled;
  s.tile_dims = {4};
  s.iota_reshape_dims = {2, 2};
  for (const std::vector<int64_t>& perm :
       std::vector<std::vector<int64_t>>{{}, {1, 1}, {0, 2}, {-1, 0}, {0}}) {
    s.iota_perm = perm;
    EXPECT_THAT(ExpandDevices(s), ElementsAre(0, 1, 2, 3));
  }
  s.iota_perm = {1, 0};
  EXPECT_THAT(ExpandDevices(s), ElementsAre(0, 2, 1, 3));
  // One reshape dim of 1: one device.
  s.iota_reshape_dims = {1};
  s.iota_perm = {0};
  EXPECT_THAT(ExpandDevices(s), ElementsAre(0));
}

TEST(ShardingTextTest, TupleMetadataAndShardGroups) {
  const Sharding t =
      Ok("{{replicated}, {maximal device=0 metadata={op_name=\"a{b}\" "
         "source_file=\"x.py\" source_line=3}}, {devices=[2]0,1 shard_as 4}}");
  ASSERT_EQ(t.type, ShardingType::kTuple);
  ASSERT_EQ(t.tuple.size(), 3u);
  EXPECT_EQ(t.tuple[1].type, ShardingType::kMaximal);
  ASSERT_TRUE(t.tuple[2].shard_group.has_value());
  EXPECT_TRUE(t.tuple[2].shard_group->shard_as);
  EXPECT_EQ(t.tuple[2].shard_group->id, 4);
  const Sharding like = Ok("{replicated shard_like 2}");
  ASSERT_TRUE(like.shard_group.has_value());
  EXPECT_FALSE(like.shard_group->shard_as);
  EXPECT_EQ(Ok("{}").type, ShardingType::kTuple);
  EXPECT_TRUE(Ok("{}").tuple.empty());
  // Metadata as a list, blanks and comments between tokens.
  EXPECT_EQ(Ok("{ devices=[2] /*c*/ 0, 1\n metadata={{op_name=\"x\"}, "
               "{op_name=\"y\"}} }")
                .devices.size(),
            2u);
}

TEST(ShardingTextTest, EndIsTheClosingBrace) {
  const std::string text = "{devices=[2]0,1}, metadata={op_name=\"x\"}";
  const ShardingParse p = ParseShardingText(text);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.end, 16u);
}

TEST(ShardingTextTest, XlaParserMessages) {
  EXPECT_EQ(Err("{maximal}"),
            "1: maximal shardings should have exactly one device assigned");
  EXPECT_EQ(Err("{replicated device=1}"),
            "1: replicated shardings should not have any devices assigned");
  EXPECT_EQ(Err("{manual devices=[2]0,1}"),
            "1: manual shardings should not have any devices assigned");
  EXPECT_EQ(Err("{unknown device=0}"),
            "1: unknown shardings should not have any devices assigned");
  EXPECT_EQ(Err("{devices=[1]0}"),
            "1: non-maximal shardings must have more than one device assigned");
  EXPECT_EQ(Err("{shard_as 1}"),
            "1: non-maximal shardings must have a tile assignment list "
            "including dimensions");
  EXPECT_EQ(Err("{devices=[2,2]<=[2,2]}"),
            "21: expected 'T(' to start sharding devices iota_transpose_perm");
  EXPECT_EQ(Err("{devices=[4]<=[2,2]T(0,2)}"),
            "23: Out of range iota minor_to_major value 2.");
  EXPECT_EQ(Err("{devices=[2]<=[]}"),
            "15: expected non-empty iota_reshape_dims");
  EXPECT_EQ(Err("{device=x}"), "8: device= attribute must be an integer");
  EXPECT_EQ(Err("{tiles=[2]0,1}"),
            "1: unknown attribute in sharding: expected device=, devices= "
            "metadata= or last_tile_dims= ");
  EXPECT_EQ(Err("{bogus}"), "1: unexpected token");
  EXPECT_EQ(Err("replicated"), "0: expected '{' to start sharding attribute");
  EXPECT_EQ(Err("{{replicated}, {manual}"),
            "23: expected '}' to end sharding attribute");
  EXPECT_EQ(Err("{devices=2]0,1}"),
            "9: expected '[' to start sharding devices shape");
}

TEST(ShardingTextTest, DeviceListOfAnotherSizeThanTheTile) {
  EXPECT_EQ(Err("{devices=[2,2]0,1,2}"),
            "1: the tile assignment [2,2] holds 4 devices but 3 are listed");
  EXPECT_EQ(Err("{devices=[2]<=[4]}"),
            "1: the tile assignment [2] holds 2 devices but its iota <=[...] "
            "holds 4");
  EXPECT_EQ(Err("{devices=[2,0]0,1}"),
            "1: sharding tile dimension 0 is not positive");
}

TEST(ShardingTextTest, NamedForm) {
  const Sharding s =
      Ok("{mesh[a=2,'b'=4], [{a}, {b:(1)2, ?}], replicated={c}}");
  ASSERT_TRUE(s.named.has_value());
  EXPECT_EQ(s.type, ShardingType::kTiled);
  EXPECT_THAT(s.named->axis_names, ElementsAre("a", "b"));
  EXPECT_THAT(s.named->axis_sizes, ElementsAre(2, 4));
  EXPECT_EQ(TileDeviceCount(s), 8);
  EXPECT_THAT(DataTileDims(s), ElementsAre(2, 2));
  EXPECT_EQ(Ok("{mesh[a=2,b=2], unreduced}").type, ShardingType::kUnreduced);
  EXPECT_EQ(Ok("{mesh[], replicated}").type, ShardingType::kReplicated);
  EXPECT_EQ(Ok("{mesh[a=2,b=4], [], replicated={a}}").type,
            ShardingType::kReplicated);
  const Sharding max = Ok("{maximal_mesh[device_id=5]}");
  EXPECT_EQ(max.type, ShardingType::kMaximal);
  EXPECT_THAT(ExpandDevices(max), ElementsAre(5));
  const Sharding ids = Ok("{mesh[x=2,y=2], device_ids=(3,2,1,0), [{x}, {y}]}");
  EXPECT_THAT(ExpandDevices(ids), ElementsAre(3, 2, 1, 0));
  const Sharding iota =
      Ok("{mesh[a=2,b=2], device_ids=([2,2]T(1,0)), [{a}, {}]}");
  EXPECT_THAT(ExpandDevices(iota), ElementsAre(0, 2, 1, 3));
  EXPECT_EQ(Err("{mesh[a=2,a=4], [{a}]}"), "12: mesh axis 'a' is named twice");
  EXPECT_EQ(Err("{mesh[a=0], [{a}]}"),
            "8: mesh axis 'a' has size 0; sizes must be positive");
}

TEST(ShardingTextTest, Domain) {
  const DomainParse d = ParseDomainText(
      "{kind=\"sharding\", entry={maximal device=0}, exit={replicated}}");
  ASSERT_TRUE(d.ok()) << d.error;
  EXPECT_EQ(d.entry->type, ShardingType::kMaximal);
  EXPECT_EQ(d.exit->type, ShardingType::kReplicated);
  EXPECT_EQ(d.entry_offset, 24u);
  const DomainParse bad = ParseDomainText(
      "{kind=\"other\", entry={replicated}, exit={replicated}}");
  EXPECT_EQ(bad.error, "unsupported domain kind: other");
  const DomainParse missing =
      ParseDomainText("{kind=\"sharding\", entry={replicated}}");
  EXPECT_EQ(missing.error, "sub-attribute exit is expected but not seen");
}

TEST(ShardingTextTest, HostileInputNeverCrashes) {
  std::string deep(5000, '{');
  EXPECT_FALSE(ParseShardingText(deep).ok());
  EXPECT_FALSE(ParseShardingText("{devices=[99999999999999999999]0}").ok());
  EXPECT_FALSE(ParseShardingText("{devices=[2]0,1 metadata={\"").ok());
  EXPECT_FALSE(
      ParseShardingText("{devices=[4611686018427387904,4]<=[4]}").ok());
  EXPECT_FALSE(ParseShardingText("").ok());
  for (size_t cut = 0; cut < 40; ++cut) {
    const std::string text =
        "{devices=[2,2,2]<=[2,4]T(1,0) last_tile_dims={manual}}";
    (void)ParseShardingText(std::string_view(text).substr(0, cut));
  }
}

// What a reused result reads against a fresh one.
void ExpectSameSharding(const Sharding& a, const Sharding& b) {
  EXPECT_EQ(ShardingToString(a), ShardingToString(b));
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.tile_dims, b.tile_dims);
  EXPECT_EQ(a.devices, b.devices);
  EXPECT_EQ(a.iota_reshape_dims, b.iota_reshape_dims);
  EXPECT_EQ(a.iota_perm, b.iota_perm);
  EXPECT_EQ(a.subgroup_types, b.subgroup_types);
  EXPECT_EQ(a.last_tile_dim_replicate, b.last_tile_dim_replicate);
  EXPECT_EQ(a.tuple.size(), b.tuple.size());
  EXPECT_EQ(a.shard_group.has_value(), b.shard_group.has_value());
  EXPECT_EQ(a.named.has_value(), b.named.has_value());
}

void ExpectSameParse(const ShardingParse& reused, const ShardingParse& fresh) {
  ASSERT_EQ(reused.ok(), fresh.ok());
  EXPECT_EQ(reused.end, fresh.end);
  EXPECT_EQ(reused.error, fresh.error);
  EXPECT_EQ(reused.error_offset, fresh.error_offset);
  if (fresh.ok()) ExpectSameSharding(*reused.sharding, *fresh.sharding);
}

// ParseShardingTextInto reuses one result's storage: each value reads the
// same as on its own, whatever the value read before it.
TEST(ShardingTextTest, IntoAReusedResultReadsAsAFreshOne) {
  const std::vector<std::string> texts = {
      "{devices=[1,32,1]<=[32]}",
      "{devices=[2,2]0,1,2,3 last_tile_dim_replicate}",
      "{replicated}",
      "{devices=[2,2,2]<=[2,4]T(1,0) last_tile_dims={manual}}",
      "{maximal device=3}",
      "{devices=[2,1]0,5 shard_as 2}",
      "{{replicated}, {devices=[2]<=[2]}}",
      "{mesh[x=2,y=2], [{x}, {y}]}",
      "{devices=[2,2]0,1}",
      "{devices=[4]<=[4] metadata={op_name=\"a\"}}",
      "{unreduced}",
      "{devices=[1,32,1]<=[32]}",
  };
  ShardingParse reused;
  for (int round = 0; round < 2; ++round) {
    for (const std::string& text : texts) {
      SCOPED_TRACE(text);
      ParseShardingTextInto(text, &reused);
      ExpectSameParse(reused, ParseShardingText(text));
    }
  }
}

TEST(ShardingTextTest, ClearIsTheDefaultValue) {
  Sharding s = Ok("{devices=[2,2]0,1,2,3 last_tile_dim_replicate shard_as 1}");
  s.named.emplace();
  s.tuple.emplace_back();
  s.Clear();
  const Sharding fresh;
  EXPECT_EQ(s.type, fresh.type);
  EXPECT_TRUE(s.tile_dims.empty());
  EXPECT_TRUE(s.devices.empty());
  EXPECT_TRUE(s.iota_reshape_dims.empty());
  EXPECT_TRUE(s.iota_perm.empty());
  EXPECT_TRUE(s.subgroup_types.empty());
  EXPECT_FALSE(s.last_tile_dim_replicate);
  EXPECT_TRUE(s.tuple.empty());
  EXPECT_FALSE(s.shard_group.has_value());
  EXPECT_FALSE(s.named.has_value());
}

}  // namespace
}  // namespace topolint::hlo
