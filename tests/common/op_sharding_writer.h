// Test-side writer of xla.OpSharding (xla/xla_data.proto): the binary form
// of a parsed sharding (checker/hlo/sharding/sharding.h), for the binary
// twins of text fixtures (hlo_proto_writer.h). Field numbers:
//
//   OpSharding: type 1, tile_assignment_dimensions 3,
//   tile_assignment_devices 4, tuple_shardings 5, replicate_on_last_tile_dim
//   6, last_tile_dims 8, iota_reshape_dims 9, iota_transpose_perm 10,
//   is_shard_group 11, shard_group_id 12, shard_group_type 13 (AS 0, LIKE
//   1), named_sharding 14.
//   NamedShardingProto: tuple_shardings 1, mesh 2 (MeshProto: axes 1
//   {name 1, size 2}, device_ids 2), dim_shardings 3 (axes 1: AxisRefProto
//   {mesh_axis_index 1, sub_axis_info 2 {pre_size 1, size 2}}),
//   replicated_axes 4, unreduced_axes 5.
//
// What the text says and OpSharding cannot: metadata (not read by the
// checker either); a named dimension left open (`?`, which changes nothing
// the checker reads); a named sharding that is manual as a whole or has
// manual axes, which NamedShardingProto has no field for here (written as
// its mesh alone: replicated, which the checker treats alike — neither is
// a tile assignment). A named iota device list is written in full, as
// MeshProto holds explicit ids only.
#ifndef TOPOLINT_TESTS_COMMON_OP_SHARDING_WRITER_H_
#define TOPOLINT_TESTS_COMMON_OP_SHARDING_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "checker/hlo/sharding/sharding.h"
#include "tests/common/proto_wire_writer.h"

namespace topolint::testing {

namespace op_sharding_writer {

inline std::string AxisRef(const hlo::NamedSharding& n,
                           const hlo::NamedAxisRef& r) {
  using proto_wire::Bytes;
  using proto_wire::Varint;
  std::string out;
  uint64_t index = 0;
  for (size_t i = 0; i < n.axis_names.size(); ++i) {
    if (n.axis_names[i] == r.name) index = i;
  }
  Varint(&out, 1, index);
  if (r.pre_size != 0) {
    std::string sub;
    Varint(&sub, 1, static_cast<uint64_t>(r.pre_size));
    Varint(&sub, 2, static_cast<uint64_t>(r.size));
    Bytes(&out, 2, sub);
  }
  return out;
}

// The devices of a named sharding's `device_ids=` as MeshProto lists them.
inline std::vector<int64_t> MeshDeviceIds(const hlo::NamedSharding& n) {
  if (n.maximal) return {n.maximal_device};
  if (!n.device_ids.empty() || n.device_ids_reshape.empty()) {
    return n.device_ids;
  }
  hlo::Sharding probe;
  probe.type = hlo::ShardingType::kTiled;
  probe.named = n;
  return hlo::ExpandDevices(probe);
}

inline std::string NamedBody(const hlo::NamedSharding& n) {
  using proto_wire::Bytes;
  using proto_wire::Packed;
  using proto_wire::Varint;
  std::string out;
  std::string mesh;
  for (size_t i = 0; i < n.axis_names.size(); ++i) {
    std::string axis;
    Bytes(&axis, 1, n.axis_names[i]);
    Varint(&axis, 2, static_cast<uint64_t>(n.axis_sizes[i]));
    Bytes(&mesh, 1, axis);
  }
  const std::vector<int64_t> ids = MeshDeviceIds(n);
  if (!ids.empty()) Packed(&mesh, 2, ids);
  Bytes(&out, 2, mesh);
  for (const auto& dim : n.dims) {
    std::string d;
    for (const hlo::NamedAxisRef& r : dim) Bytes(&d, 1, AxisRef(n, r));
    Bytes(&out, 3, d);
  }
  for (const hlo::NamedAxisRef& r : n.replicated_axes) {
    Bytes(&out, 4, AxisRef(n, r));
  }
  std::vector<hlo::NamedAxisRef> unreduced = n.unreduced_axes;
  if (n.whole == hlo::ShardingType::kUnreduced && unreduced.empty()) {
    for (const std::string& name : n.axis_names) {
      hlo::NamedAxisRef r;
      r.name = name;
      unreduced.push_back(r);
    }
  }
  for (const hlo::NamedAxisRef& r : unreduced) Bytes(&out, 5, AxisRef(n, r));
  return out;
}

}  // namespace op_sharding_writer

// Whether `s` reads back from its OpSharding as itself. A tile assignment
// of one device (`{devices=[1]<=[1]}`, which the text parser accepts and
// HloSharding::Validate refuses) does not: XLA's FromProto reads a tiled
// OpSharding of one device, or of an iota of ones, as replicated, and so
// does DecodeOpSharding.
inline bool HasBinaryForm(const hlo::Sharding& s) {
  if (s.type == hlo::ShardingType::kTuple) {
    for (const hlo::Sharding& e : s.tuple) {
      if (!HasBinaryForm(e)) return false;
    }
    return true;
  }
  return s.named.has_value() || s.type != hlo::ShardingType::kTiled ||
         hlo::TileDeviceCount(s) != 1;
}

// The OpSharding message (its bytes, without tag or length) that XLA
// writes for `s`.
inline std::string OpShardingProto(const hlo::Sharding& s) {
  using proto_wire::Bytes;
  using proto_wire::Packed;
  using proto_wire::Varint;
  std::string out;
  if (s.named.has_value()) {
    Bytes(&out, 14, op_sharding_writer::NamedBody(*s.named));
    return out;
  }
  Varint(&out, 1, static_cast<uint64_t>(static_cast<int>(s.type)));
  switch (s.type) {
    case hlo::ShardingType::kMaximal:
      Packed(&out, 3, {1});
      Packed(&out, 4, s.devices);
      break;
    case hlo::ShardingType::kTuple:
      for (const hlo::Sharding& e : s.tuple) {
        Bytes(&out, 5, OpShardingProto(e));
      }
      break;
    case hlo::ShardingType::kTiled: {
      Packed(&out, 3, s.tile_dims);
      if (s.is_iota()) {
        Packed(&out, 9, s.iota_reshape_dims);
        std::vector<int64_t> perm = s.iota_perm;
        for (size_t i = perm.size(); i < s.iota_reshape_dims.size(); ++i) {
          perm.push_back(static_cast<int64_t>(i));
        }
        Packed(&out, 10, perm);
      } else {
        Packed(&out, 4, s.devices);
      }
      if (s.last_tile_dim_replicate) {
        Varint(&out, 6, 1);
      } else if (!s.subgroup_types.empty()) {
        std::vector<int64_t> types;
        for (hlo::ShardingType t : s.subgroup_types) {
          types.push_back(static_cast<int>(t));
        }
        Packed(&out, 8, types);
      }
      break;
    }
    default:  // replicated, manual, unknown, unreduced: the type alone
      break;
  }
  if (s.shard_group.has_value()) {
    Varint(&out, 11, 1);
    Varint(&out, 12, static_cast<uint64_t>(s.shard_group->id));
    Varint(&out, 13, s.shard_group->shard_as ? 0 : 1);
  }
  return out;
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_COMMON_OP_SHARDING_WRITER_H_
