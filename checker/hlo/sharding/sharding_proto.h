// The binary form of a sharding: an `xla.OpSharding` message
// (xla/xla_data.proto), as HloInstructionProto.sharding (field 40),
// domain_entry_sharding (54) / domain_exit_sharding (55) and
// HloModuleProto.spmd_output_sharding (12) / spmd_parameters_shardings (14)
// hold it. Decoded from memory, without protobuf's generated code:
//
//   type 1, tile_assignment_dimensions 3, tile_assignment_devices 4,
//   tuple_shardings 5 (recursive), replicate_on_last_tile_dim 6,
//   last_tile_dims 8, iota_reshape_dims 9, iota_transpose_perm 10,
//   is_shard_group 11, shard_group_id 12, shard_group_type 13,
//   named_sharding 14 (NamedShardingProto: mesh 2 {axes 1 {name 1, size 2},
//   device_ids 2}, dim_shardings 3 {axes 1 {mesh_axis_index 1,
//   sub_axis_info 2 {pre_size 1, size 2}}}, replicated_axes 4,
//   unreduced_axes 5); tile_shape 2 and metadata 7 are skipped.
//
// Repeated scalars are accepted packed and unpacked. The same structural
// checks as XLA's HloSharding::FromProto apply (a maximal sharding with one
// device, a tiled one with dimensions whose product is the device count or
// the iota's product, an iota with a permutation of its rank), and the same
// "device list of another length than the tile" check as the text parser,
// each an error with the byte offset of the field at fault. A named sharding
// is turned into the same `Sharding::named` the text form gives (axis names
// from the mesh; an axis index out of range is an error).
#ifndef TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_PROTO_H_
#define TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_PROTO_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "checker/hlo/sharding/sharding.h"

namespace topolint::hlo {

struct OpShardingDecode {
  std::optional<Sharding> sharding;  // set on success
  std::string error;                 // on failure: what is wrong
  size_t error_offset = 0;           // on failure: byte offset in `bytes`

  bool ok() const { return sharding.has_value(); }
};

// Decodes the bytes of one OpSharding message (the payload of the
// length-delimited field, without its tag and length). Empty bytes are a
// default OpSharding: replicated. Never throws; any bytes are fine (nesting
// is bounded, lists are capped at 2^21 values). Thread-safe.
OpShardingDecode DecodeOpSharding(std::string_view bytes);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_PROTO_H_
