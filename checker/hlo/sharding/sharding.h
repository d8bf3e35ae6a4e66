// A parsed XLA sharding annotation (HloSharding / xla.OpSharding), as plain
// data, and the pure functions over it that the checks share: the devices a
// tile assignment names (iota with its transpose expanded), the tile
// dimensions without subgroup dimensions, and XLA's normalisation of a
// subgroup sharding that collapses to a replicated, manual or unreduced one.
//
// Text (`{devices=[2,1]0,1}`, sharding_text.h) and binary (OpSharding,
// sharding_proto.h) both produce this model. Metadata is skipped; nothing
// here knows the HLO text lexer or the protobuf reader.
#ifndef TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_H_
#define TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace topolint::hlo {

// xla.OpSharding.Type, with the proto's numbers.
enum class ShardingType : int {
  kReplicated = 0,
  kMaximal = 1,
  kTuple = 2,
  kTiled = 3,  // OTHER
  kManual = 4,
  kUnknown = 5,
  kUnreduced = 6,
};

// "replicated", "maximal", "tuple", "tiled", "manual", "unknown",
// "unreduced".
const char* ShardingTypeName(ShardingType type);

// A named (mesh) sharding: `{mesh[x=2,y=4], [{x}, {}], replicated={y}}`,
// `{maximal_mesh[device_id=5]}` (text), OpSharding.named_sharding (binary).
struct NamedAxisRef {
  std::string name;      // text; the axis index as a decimal in binary
  int64_t pre_size = 0;  // 0: the whole axis; else `name:(pre_size)size`
  int64_t size = 0;
};
struct NamedSharding {
  bool maximal = false;  // maximal_mesh[device_id=N]
  int64_t maximal_device = 0;
  std::vector<std::string> axis_names;
  std::vector<int64_t> axis_sizes;
  // `device_ids=(...)`: explicit ids, or an iota `[reshape]T(perm)`; both
  // empty: the iota 0..N-1.
  std::vector<int64_t> device_ids;
  std::vector<int64_t> device_ids_reshape;
  std::vector<int64_t> device_ids_perm;
  // One entry per data dimension (`[{x}, {}]`); absent when not written.
  bool has_dims = false;
  std::vector<std::vector<NamedAxisRef>> dims;
  std::vector<NamedAxisRef> replicated_axes;
  std::vector<NamedAxisRef> unreduced_axes;
  std::vector<NamedAxisRef> manual_axes;
  // `{mesh[...], replicated}` / `unreduced` / `manual`: the whole value.
  std::optional<ShardingType> whole;

  // The product of the axis sizes (1 for a maximal mesh).
  int64_t DeviceCount() const;
};

// `shard_as N` / `shard_like N`.
struct ShardGroup {
  bool shard_as = true;  // false: shard_like
  int64_t id = 0;
};

struct Sharding {
  ShardingType type = ShardingType::kReplicated;
  // kTiled: every tile dimension, subgroup dimensions included.
  std::vector<int64_t> tile_dims;
  // kTiled, explicit form: the devices, row-major over tile_dims.
  // kMaximal: the one device (more or none only from a malformed proto).
  std::vector<int64_t> devices;
  // kTiled, iota form (`<=[4,2]T(1,0)`): reshape dims and permutation (the
  // identity when no T(...) was written). Empty: explicit form.
  std::vector<int64_t> iota_reshape_dims;
  std::vector<int64_t> iota_perm;
  // kTiled: the type of each trailing subgroup dimension;
  // `last_tile_dim_replicate` is one kReplicated entry.
  std::vector<ShardingType> subgroup_types;
  bool last_tile_dim_replicate = false;  // as written (text or proto)
  // kTuple: one sharding per leaf of the tuple shape, in pre-order.
  std::vector<Sharding> tuple;
  std::optional<ShardGroup> shard_group;
  // The named form; when set, the fields above are not used (type says
  // replicated/maximal/manual/unreduced/tiled as the named value implies).
  std::optional<NamedSharding> named;

  bool is_iota() const { return !iota_reshape_dims.empty(); }
  // Back to the default value, keeping the storage of the lists (a reader
  // of many shardings reuses one object).
  void Clear();
};

// The tile dimensions without the subgroup dimensions: the tiled data rank
// XLA compares with the shape's rank (TiledDataRank). For a named sharding,
// the sharded size of each dimension. Empty for non-tiled shardings.
std::vector<int64_t> DataTileDims(const Sharding& s);
// DataTileDims(s).size(), without building the list.
size_t DataTileRank(const Sharding& s);

// The number of devices the tile assignment holds: the product of the tile
// dimensions (explicit, iota), the named mesh's size, 1 for maximal, 0 for
// replicated / manual / unknown / unreduced and tuples.
int64_t TileDeviceCount(const Sharding& s);

// Every device of a tiled or maximal sharding, row-major over the tile
// dimensions: the explicit list, or the iota 0..N-1 reshaped to
// iota_reshape_dims, transposed by iota_perm and flattened; for a named
// sharding its device_ids (expanded likewise). Empty for the other types,
// and when the count would exceed `max_devices` (nothing is expanded then).
std::vector<int64_t> ExpandDevices(const Sharding& s,
                                   int64_t max_devices = int64_t{1} << 21);

// XLA's normalisation (HloSharding::Subgroup / PartialTile): a tiled
// sharding whose data dimensions are all 1 and whose subgroup dimensions
// are all of one type is that type (replicated, manual or unreduced), and
// is never validated as a tile assignment. Returns the type it becomes, or
// nothing when it stays tiled.
std::optional<ShardingType> CollapsedType(const Sharding& s);

// XLA's HloSharding::ToString spelling (without metadata), for messages:
// `{devices=[2,1]0,1}`, `{devices=[2,2]<=[4]}`, `{maximal device=3}`, ...
std::string ShardingToString(const Sharding& s);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_H_
