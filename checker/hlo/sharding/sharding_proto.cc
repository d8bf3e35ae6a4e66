// DecodeOpSharding: OpSharding itself (type, tile, iota, subgroups, tuple,
// shard group), over the wire reader of sharding_proto_internal.h.
#include "checker/hlo/sharding/sharding_proto.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "checker/hlo/sharding/sharding_proto_internal.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace sharding_internal {

bool Decoder::Fail(size_t at, std::string message) {
  if (error_.empty()) {
    error_ = std::move(message);
    error_offset_ = at;
  }
  return false;
}

// A repeated integer field, packed (kLen) or one value (kVarint).

bool Decoder::Ints(Wire& w, int wire_type, const char* name,
                   std::vector<int64_t>* out) {
  const size_t at = w.offset();
  if (wire_type == kVarint) {
    uint64_t v = 0;
    if (!w.Varint(&v)) return Fail(at, fmt::format("truncated {}", name));
    if (out->size() >= kMaxProtoValues) {
      return Fail(at, fmt::format("{} holds too many values", name));
    }
    out->push_back(static_cast<int64_t>(v));
    return true;
  }
  if (wire_type != kLen) {
    return Fail(at, fmt::format("{} has wire type {}", name, wire_type));
  }
  std::string_view payload;
  size_t payload_at = 0;
  if (!w.Bytes(&payload, &payload_at)) {
    return Fail(at, fmt::format("truncated {}", name));
  }
  Wire inner(payload, payload_at);
  while (!inner.done()) {
    uint64_t v = 0;
    const size_t vat = inner.offset();
    if (!inner.Varint(&v)) return Fail(vat, fmt::format("truncated {}", name));
    if (out->size() >= kMaxProtoValues) {
      return Fail(vat, fmt::format("{} holds too many values", name));
    }
    out->push_back(static_cast<int64_t>(v));
  }
  return true;
}

bool Decoder::Int(Wire& w, int wire_type, const char* name, int64_t* out) {
  std::vector<int64_t> one;
  if (!Ints(w, wire_type, name, &one)) return false;
  if (!one.empty()) *out = one.back();
  return true;
}

bool Decoder::Message(Wire& w, int wire_type, const char* name,
                      std::string_view* out, size_t* at) {
  const size_t tag_at = w.offset();
  if (wire_type != kLen) {
    return Fail(tag_at, fmt::format("{} has wire type {}", name, wire_type));
  }
  if (!w.Bytes(out, at)) return Fail(tag_at, fmt::format("truncated {}", name));
  return true;
}

// OpSharding fields, one case per field number, as XLA's FromProto.
// NOLINTNEXTLINE(readability-function-size)
bool Decoder::Op(std::string_view bytes, size_t base, int depth,
                 Sharding* out) {
  if (depth > kMaxProtoNesting) return Fail(base, "shardings nest too deep");
  Wire w(bytes, base);
  int64_t type = 0;
  bool replicate_last = false, is_shard_group = false;
  int64_t group_id = 0, group_type = 0;
  std::vector<int64_t> last_tile_dims;
  std::vector<int64_t> perm;
  Sharding s;
  size_t dims_at = base, devices_at = base, iota_at = base, type_at = base;
  std::optional<Sharding> named;
  while (!w.done()) {
    uint32_t f = 0;
    int wt = 0;
    const size_t at = w.offset();
    if (!w.Tag(&f, &wt)) return Fail(at, "malformed OpSharding");
    std::string_view sub;
    size_t sub_at = 0;
    bool ok = true;
    switch (f) {
      case 1:
        type_at = at;
        ok = Int(w, wt, "OpSharding.type", &type);
        break;
      case 3:
        dims_at = at;
        ok = Ints(w, wt, "OpSharding.tile_assignment_dimensions", &s.tile_dims);
        break;
      case 4:
        devices_at = at;
        ok = Ints(w, wt, "OpSharding.tile_assignment_devices", &s.devices);
        break;
      case 5:
        ok = Message(w, wt, "OpSharding.tuple_shardings", &sub, &sub_at);
        if (ok) {
          if (s.tuple.size() >= kMaxProtoValues)
            return Fail(at, "too many elements");
          Sharding element;
          ok = Op(sub, sub_at, depth + 1, &element);
          s.tuple.push_back(std::move(element));
        }
        break;
      case 6: {
        int64_t v = 0;
        ok = Int(w, wt, "OpSharding.replicate_on_last_tile_dim", &v);
        replicate_last = v != 0;
        break;
      }
      case 8:
        ok = Ints(w, wt, "OpSharding.last_tile_dims", &last_tile_dims);
        break;
      case 9:
        iota_at = at;
        ok = Ints(w, wt, "OpSharding.iota_reshape_dims", &s.iota_reshape_dims);
        break;
      case 10:
        ok = Ints(w, wt, "OpSharding.iota_transpose_perm", &perm);
        break;
      case 11: {
        int64_t v = 0;
        ok = Int(w, wt, "OpSharding.is_shard_group", &v);
        is_shard_group = v != 0;
        break;
      }
      case 12:
        ok = Int(w, wt, "OpSharding.shard_group_id", &group_id);
        break;
      case 13:
        ok = Int(w, wt, "OpSharding.shard_group_type", &group_type);
        break;
      case 14:
        ok = Message(w, wt, "OpSharding.named_sharding", &sub, &sub_at);
        if (ok) {
          Sharding n;
          ok = Named(sub, sub_at, depth + 1, &n);
          named = std::move(n);
        }
        break;
      default:
        if (!w.Skip(wt)) return Fail(at, "malformed OpSharding");
        break;
    }
    if (!ok) return false;
  }
  if (named.has_value()) {
    *out = std::move(*named);
    return true;
  }
  if (is_shard_group) s.shard_group = ShardGroup{group_type == 0, group_id};
  for (int64_t t : last_tile_dims) {
    if (t < 0 || t > 6) {
      return Fail(base, fmt::format("OpSharding.last_tile_dims holds an "
                                    "unknown type {}",
                                    t));
    }
    s.subgroup_types.push_back(static_cast<ShardingType>(t));
  }
  s.iota_perm = perm;
  switch (type) {
    case 0:
    case 4:
    case 5:
    case 6:
      s.type = static_cast<ShardingType>(type);
      s.tile_dims.clear();
      s.devices.clear();
      s.iota_reshape_dims.clear();
      s.iota_perm.clear();
      s.subgroup_types.clear();
      *out = std::move(s);
      return true;
    case 2:
      s.type = ShardingType::kTuple;
      *out = std::move(s);
      return true;
    case 1:
      if (s.devices.size() != 1) {
        return Fail(devices_at,
                    fmt::format("Maximal sharding is expected to have single "
                                "device assignment, but {} has provided.",
                                s.devices.size()));
      }
      s.type = ShardingType::kMaximal;
      s.tile_dims.clear();
      s.subgroup_types.clear();
      *out = std::move(s);
      return true;
    case 3:
      break;
    default:
      return Fail(type_at, fmt::format("OpSharding.type {} is not a known "
                                       "type",
                                       type));
  }
  return Tiled(std::move(s), replicate_last, dims_at, devices_at, iota_at, out);
}

bool Decoder::Tiled(Sharding s, bool replicate_last, size_t dims_at,
                    size_t devices_at, size_t iota_at, Sharding* out) {
  const bool iota = !s.iota_reshape_dims.empty();
  if (iota && !s.devices.empty()) {
    return Fail(devices_at,
                "an OpSharding holds both tile_assignment_devices "
                "and iota_reshape_dims");
  }
  if (iota && s.iota_perm.size() != s.iota_reshape_dims.size()) {
    return Fail(iota_at,
                fmt::format("iota_transpose_perm should have the "
                            "same rank as iota_reshape_dims : "
                            "expected {}, saw {}.",
                            s.iota_reshape_dims.size(), s.iota_perm.size()));
  }
  if (!iota && s.devices.empty()) {
    return Fail(dims_at, "a tiled OpSharding has no tile_assignment_devices");
  }
  // XLA's FromProto: one device (or an iota of ones) is replicated.
  bool all_ones = iota;
  for (int64_t d : s.iota_reshape_dims) all_ones = all_ones && d == 1;
  if (all_ones || (!iota && s.devices.size() == 1)) {
    Sharding r;
    r.shard_group = s.shard_group;
    *out = std::move(r);
    return true;
  }
  if (s.tile_dims.empty()) {
    return Fail(dims_at,
                "a tiled OpSharding has no "
                "tile_assignment_dimensions");
  }
  int64_t product = 1;
  for (int64_t d : s.tile_dims) {
    if (d <= 0 || product > (int64_t{1} << 40) / d) {
      return Fail(dims_at,
                  fmt::format("tile_assignment_dimensions holds {}", d));
    }
    product *= d;
  }
  if (iota) {
    int64_t iota_product = 1;
    for (int64_t d : s.iota_reshape_dims) {
      if (d <= 0 || iota_product > (int64_t{1} << 40) / d) {
        return Fail(iota_at, fmt::format("iota_reshape_dims holds {}", d));
      }
      iota_product *= d;
    }
    std::vector<bool> seen(s.iota_perm.size(), false);
    for (int64_t p : s.iota_perm) {
      if (p < 0 || static_cast<size_t>(p) >= seen.size() ||
          seen[static_cast<size_t>(p)]) {
        return Fail(iota_at, "iota_transpose_perm is not a permutation");
      }
      seen[static_cast<size_t>(p)] = true;
    }
    if (iota_product != product) {
      return Fail(iota_at, fmt::format("the tile assignment [{}] holds {} "
                                       "devices but its iota_reshape_dims "
                                       "hold {}",
                                       fmt::join(s.tile_dims, ","), product,
                                       iota_product));
    }
  } else if (static_cast<int64_t>(s.devices.size()) != product) {
    return Fail(devices_at, fmt::format("the tile assignment [{}] holds {} "
                                        "devices but {} are listed",
                                        fmt::join(s.tile_dims, ","), product,
                                        s.devices.size()));
  }
  if (replicate_last) {
    if (!s.subgroup_types.empty()) {
      return Fail(dims_at,
                  "replicate_on_last_tile_dim and last_tile_dims "
                  "are both set");
    }
    s.last_tile_dim_replicate = true;
    s.subgroup_types.push_back(ShardingType::kReplicated);
  }
  if (s.subgroup_types.size() > s.tile_dims.size()) {
    return Fail(dims_at, "more last_tile_dims than tile dimensions");
  }
  s.type = ShardingType::kTiled;
  *out = std::move(s);
  return true;
}
}  // namespace sharding_internal

OpShardingDecode DecodeOpSharding(std::string_view bytes) {
  sharding_internal::Decoder d;
  OpShardingDecode out;
  Sharding s;
  if (d.Op(bytes, 0, 0, &s)) {
    out.sharding = std::move(s);
  } else {
    out.error = d.error();
    out.error_offset = d.error_offset();
  }
  return out;
}

}  // namespace topolint::hlo
