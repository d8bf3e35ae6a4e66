// DecodeOpSharding: every OpSharding form, packed and unpacked repeated
// fields, named shardings, XLA's FromProto normalisation and checks, and
// bytes that are not a message.
#include "checker/hlo/sharding/sharding_proto.h"

#include <cstdint>
#include <string>
#include <vector>

#include "checker/hlo/sharding/sharding_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A minimal protobuf writer for the tests.
std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}
std::string Tag(int field, int wire) {
  return Varint(static_cast<uint64_t>(field) << 3 |
                static_cast<uint64_t>(wire));
}
std::string Int(int field, int64_t v) {
  return Tag(field, 0) + Varint(static_cast<uint64_t>(v));
}
std::string Len(int field, const std::string& payload) {
  return Tag(field, 2) + Varint(payload.size()) + payload;
}
std::string Packed(int field, const std::vector<int64_t>& values) {
  std::string payload;
  for (int64_t v : values) payload += Varint(static_cast<uint64_t>(v));
  return Len(field, payload);
}

Sharding Ok(const std::string& bytes) {
  OpShardingDecode d = DecodeOpSharding(bytes);
  EXPECT_TRUE(d.ok()) << d.error << " at " << d.error_offset;
  return d.ok() ? *d.sharding : Sharding();
}

TEST(ShardingProtoTest, SimpleTypes) {
  EXPECT_EQ(Ok("").type, ShardingType::kReplicated);
  EXPECT_EQ(Ok(Int(1, 4)).type, ShardingType::kManual);
  EXPECT_EQ(Ok(Int(1, 5)).type, ShardingType::kUnknown);
  EXPECT_EQ(Ok(Int(1, 6)).type, ShardingType::kUnreduced);
  const Sharding m = Ok(Int(1, 1) + Packed(4, {7}));
  EXPECT_EQ(m.type, ShardingType::kMaximal);
  EXPECT_THAT(m.devices, ElementsAre(7));
}

TEST(ShardingProtoTest, TiledPackedAndUnpacked) {
  const Sharding packed = Ok(Int(1, 3) + Packed(3, {2, 1}) + Packed(4, {0, 5}));
  EXPECT_EQ(packed.type, ShardingType::kTiled);
  EXPECT_THAT(packed.tile_dims, ElementsAre(2, 1));
  EXPECT_THAT(packed.devices, ElementsAre(0, 5));
  const Sharding unpacked =
      Ok(Int(1, 3) + Int(3, 2) + Int(3, 1) + Int(4, 0) + Int(4, 5));
  EXPECT_EQ(ShardingToString(unpacked), ShardingToString(packed));
  // Same as the text form.
  EXPECT_EQ(
      ShardingToString(packed),
      ShardingToString(*ParseShardingText("{devices=[2,1]0,5}").sharding));
}

TEST(ShardingProtoTest, IotaSubgroupsAndShardGroup) {
  const Sharding s = Ok(Int(1, 3) + Packed(3, {2, 2, 2}) + Packed(9, {2, 4}) +
                        Packed(10, {1, 0}) + Packed(8, {4}) + Int(11, 1) +
                        Int(12, 9) + Int(13, 1));
  EXPECT_TRUE(s.is_iota());
  EXPECT_THAT(s.subgroup_types, ElementsAre(ShardingType::kManual));
  EXPECT_THAT(DataTileDims(s), ElementsAre(2, 2));
  EXPECT_THAT(ExpandDevices(s), ElementsAre(0, 4, 1, 5, 2, 6, 3, 7));
  ASSERT_TRUE(s.shard_group.has_value());
  EXPECT_FALSE(s.shard_group->shard_as);
  EXPECT_EQ(s.shard_group->id, 9);
  const Sharding r =
      Ok(Int(1, 3) + Packed(3, {2, 2}) + Packed(4, {0, 1, 2, 3}) + Int(6, 1));
  EXPECT_TRUE(r.last_tile_dim_replicate);
  EXPECT_THAT(DataTileDims(r), ElementsAre(2));
}

TEST(ShardingProtoTest, TupleAndSkippedFields) {
  const std::string leaf0 = Int(1, 0);
  const std::string leaf1 =
      Int(1, 1) + Packed(4, {0}) + Len(7, Len(2, "op"));  // metadata skipped
  const Sharding t = Ok(Int(1, 2) + Len(5, leaf0) + Len(5, leaf1) +
                        Len(2, Int(2, 11)));  // tile_shape skipped
  ASSERT_EQ(t.type, ShardingType::kTuple);
  ASSERT_EQ(t.tuple.size(), 2u);
  EXPECT_EQ(t.tuple[1].type, ShardingType::kMaximal);
}

TEST(ShardingProtoTest, FromProtoNormalisesOneDeviceToReplicated) {
  EXPECT_EQ(Ok(Int(1, 3) + Packed(3, {1}) + Packed(4, {3})).type,
            ShardingType::kReplicated);
  EXPECT_EQ(
      Ok(Int(1, 3) + Packed(3, {1, 1}) + Packed(9, {1}) + Packed(10, {0})).type,
      ShardingType::kReplicated);
}

TEST(ShardingProtoTest, NamedSharding) {
  const std::string axis_x = Len(1, Len(1, "x") + Int(2, 2));
  const std::string axis_y = Len(1, Len(1, "y") + Int(2, 4));
  const std::string mesh = Len(2, axis_x + axis_y);
  const std::string dim0 = Len(3, Len(1, Int(1, 1)));  // {y}
  const std::string dim1 = Len(3, "");                 // {}
  const Sharding s = Ok(Len(14, mesh + dim0 + dim1));
  ASSERT_TRUE(s.named.has_value());
  EXPECT_EQ(s.type, ShardingType::kTiled);
  EXPECT_THAT(s.named->axis_names, ElementsAre("x", "y"));
  EXPECT_THAT(DataTileDims(s), ElementsAre(4, 1));
  EXPECT_EQ(TileDeviceCount(s), 8);
  const OpShardingDecode bad =
      DecodeOpSharding(Len(14, mesh + Len(3, Len(1, Int(1, 7)))));
  EXPECT_THAT(bad.error, HasSubstr("mesh_axis_index 7 is out of range"));
}

TEST(ShardingProtoTest, XlaStructuralChecks) {
  const OpShardingDecode two = DecodeOpSharding(Int(1, 1) + Packed(4, {0, 1}));
  EXPECT_EQ(two.error,
            "Maximal sharding is expected to have single device assignment, "
            "but 2 has provided.");
  const OpShardingDecode short_list =
      DecodeOpSharding(Int(1, 3) + Packed(3, {2, 2}) + Packed(4, {0, 1, 2}));
  EXPECT_EQ(short_list.error,
            "the tile assignment [2,2] holds 4 devices but 3 are listed");
  EXPECT_EQ(short_list.error_offset, 6u);  // the devices field's tag
  const OpShardingDecode perm = DecodeOpSharding(
      Int(1, 3) + Packed(3, {4}) + Packed(9, {2, 2}) + Packed(10, {0}));
  EXPECT_THAT(perm.error, HasSubstr("iota_transpose_perm should have the same "
                                    "rank as iota_reshape_dims"));
  EXPECT_THAT(DecodeOpSharding(Int(1, 9)).error,
              HasSubstr("OpSharding.type 9 is not a known type"));
}

TEST(ShardingProtoTest, MalformedBytesNeverCrash) {
  EXPECT_FALSE(DecodeOpSharding("\x08").ok());          // truncated varint
  EXPECT_FALSE(DecodeOpSharding("\x22\x05\x01").ok());  // length past end
  EXPECT_FALSE(DecodeOpSharding(std::string("\x00", 1)).ok());  // field 0
  std::string deep = Int(1, 0);
  for (int i = 0; i < 100; ++i) deep = Int(1, 2) + Len(5, deep);
  EXPECT_FALSE(DecodeOpSharding(deep).ok());
  std::string bytes = Int(1, 3) + Packed(3, {2, 2}) + Packed(9, {4}) +
                      Packed(10, {0}) + Len(14, Len(2, Len(1, "")));
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    (void)DecodeOpSharding(std::string_view(bytes).substr(0, cut));
  }
}

}  // namespace
}  // namespace topolint::hlo
