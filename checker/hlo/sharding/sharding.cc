#include "checker/hlo/sharding/sharding.h"

#include <cstddef>
#include <numeric>

#include "absl/strings/str_join.h"
#include "checker/hlo/group_checks.h"
#include "checker/hlo/transpose.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

// The product of `dims`, or -1 when one is negative or the product passes
// `cap` (no overflow).
int64_t BoundedProduct(const std::vector<int64_t>& dims, int64_t cap) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    if (d != 0 && n > cap / d) return -1;
    n *= d;
  }
  return n;
}

// The iota 0..N-1 reshaped to `reshape`, transposed by `perm`, flattened.
// `perm` empty or not a permutation of reshape's axes: the identity.
// `reshape`'s dims are at least 1 and hold `total` ids.
std::vector<int64_t> ExpandIota(const std::vector<int64_t>& reshape,
                                const std::vector<int64_t>& perm,
                                int64_t total) {
  if (CheckPermutation("transpose", perm, reshape.size())) {
    std::vector<int64_t> out(static_cast<size_t>(total));
    std::iota(out.begin(), out.end(), int64_t{0});
    return out;
  }
  return TransposedIndices(reshape, perm);
}

std::string AxisRefText(const NamedAxisRef& r) {
  if (r.pre_size == 0) return r.name;
  return fmt::format("{}:({}){}", r.name, r.pre_size, r.size);
}

std::string AxisListText(const std::vector<NamedAxisRef>& refs) {
  std::vector<std::string> parts;
  parts.reserve(refs.size());
  for (const NamedAxisRef& r : refs) parts.push_back(AxisRefText(r));
  return absl::StrJoin(parts, ", ");
}

std::string NamedToString(const NamedSharding& n) {
  if (n.maximal) {
    return fmt::format("{{maximal_mesh[device_id={}]}}", n.maximal_device);
  }
  std::vector<std::string> axes;
  for (size_t i = 0; i < n.axis_names.size() && i < n.axis_sizes.size(); ++i) {
    axes.push_back(fmt::format("{}={}", n.axis_names[i], n.axis_sizes[i]));
  }
  std::string out = fmt::format("{{mesh[{}]", absl::StrJoin(axes, ","));
  if (!n.device_ids.empty()) {
    out += fmt::format(", device_ids=({})", absl::StrJoin(n.device_ids, ","));
  } else if (!n.device_ids_reshape.empty()) {
    out += fmt::format(", device_ids=([{}]T({}))",
                       absl::StrJoin(n.device_ids_reshape, ","),
                       absl::StrJoin(n.device_ids_perm, ","));
  }
  if (n.whole.has_value()) {
    out += fmt::format(", {}", ShardingTypeName(*n.whole));
  } else {
    std::vector<std::string> dims;
    for (const auto& d : n.dims) dims.push_back("{" + AxisListText(d) + "}");
    out += fmt::format(", [{}]", absl::StrJoin(dims, ", "));
    if (!n.replicated_axes.empty()) {
      out += ", replicated={" + AxisListText(n.replicated_axes) + "}";
    }
    if (!n.unreduced_axes.empty()) {
      out += ", unreduced={" + AxisListText(n.unreduced_axes) + "}";
    }
    if (!n.manual_axes.empty()) {
      out += ", manual={" + AxisListText(n.manual_axes) + "}";
    }
  }
  return out + "}";
}

// The size of axis `name` (or its sub-axis) in `n`, 0 when unknown.
int64_t AxisRefSize(const NamedSharding& n, const NamedAxisRef& r) {
  if (r.pre_size != 0) return r.size;
  for (size_t i = 0; i < n.axis_names.size() && i < n.axis_sizes.size(); ++i) {
    if (n.axis_names[i] == r.name) return n.axis_sizes[i];
  }
  return 0;
}

}  // namespace

const char* ShardingTypeName(ShardingType type) {
  switch (type) {
    case ShardingType::kReplicated:
      return "replicated";
    case ShardingType::kMaximal:
      return "maximal";
    case ShardingType::kTuple:
      return "tuple";
    case ShardingType::kTiled:
      return "tiled";
    case ShardingType::kManual:
      return "manual";
    case ShardingType::kUnknown:
      return "unknown";
    case ShardingType::kUnreduced:
      return "unreduced";
  }
  return "unknown";
}

void Sharding::Clear() {
  // Every field of Sharding must be reset here. On the platforms topolint
  // builds for (LP64 with libstdc++) a new field changes the size and fails
  // this check until it is added below.
#if defined(__LP64__) && defined(__GLIBCXX__)
  static_assert(sizeof(Sharding) == 440,
                "a field was added to Sharding: reset it in Sharding::Clear");
#endif
  type = ShardingType::kReplicated;
  tile_dims.clear();
  devices.clear();
  iota_reshape_dims.clear();
  iota_perm.clear();
  subgroup_types.clear();
  last_tile_dim_replicate = false;
  tuple.clear();
  shard_group.reset();
  named.reset();
}

int64_t NamedSharding::DeviceCount() const {
  if (maximal) return 1;
  const int64_t n = BoundedProduct(axis_sizes, int64_t{1} << 40);
  return n < 0 ? 0 : n;
}

std::vector<int64_t> DataTileDims(const Sharding& s) {
  if (s.named.has_value()) {
    std::vector<int64_t> out;
    if (s.type != ShardingType::kTiled) return out;
    for (const auto& dim : s.named->dims) {
      int64_t size = 1;
      for (const NamedAxisRef& r : dim) size *= AxisRefSize(*s.named, r);
      out.push_back(size);
    }
    return out;
  }
  return std::vector<int64_t>(
      s.tile_dims.begin(),
      s.tile_dims.begin() + static_cast<ptrdiff_t>(DataTileRank(s)));
}

size_t DataTileRank(const Sharding& s) {
  if (s.type != ShardingType::kTiled) return 0;
  if (s.named.has_value()) return s.named->dims.size();
  const size_t subgroups = s.subgroup_types.size();
  return subgroups >= s.tile_dims.size() ? 0 : s.tile_dims.size() - subgroups;
}

int64_t TileDeviceCount(const Sharding& s) {
  if (s.named.has_value()) {
    if (s.type == ShardingType::kTiled || s.type == ShardingType::kMaximal) {
      return s.named->DeviceCount();
    }
    return 0;
  }
  if (s.type == ShardingType::kMaximal) return 1;
  if (s.type != ShardingType::kTiled) return 0;
  const int64_t n = BoundedProduct(s.tile_dims, int64_t{1} << 40);
  return n < 0 ? 0 : n;
}

std::vector<int64_t> ExpandDevices(const Sharding& s, int64_t max_devices) {
  if (s.named.has_value()) {
    const NamedSharding& n = *s.named;
    if (n.maximal) return {n.maximal_device};
    if (!n.device_ids.empty()) return n.device_ids;
    const int64_t total = n.DeviceCount();
    if (total <= 0 || total > max_devices) return {};
    if (n.device_ids_reshape.empty()) return ExpandIota({total}, {0}, total);
    if (BoundedProduct(n.device_ids_reshape, max_devices) != total) return {};
    return ExpandIota(n.device_ids_reshape, n.device_ids_perm, total);
  }
  if (s.type == ShardingType::kMaximal) return s.devices;
  if (s.type != ShardingType::kTiled) return {};
  if (!s.is_iota()) return s.devices;
  const int64_t total = BoundedProduct(s.iota_reshape_dims, max_devices);
  if (total <= 0) return {};
  return ExpandIota(s.iota_reshape_dims, s.iota_perm, total);
}

std::optional<ShardingType> CollapsedType(const Sharding& s) {
  if (s.type != ShardingType::kTiled || s.named.has_value()) {
    return std::nullopt;
  }
  if (s.subgroup_types.empty() ||
      s.subgroup_types.size() > s.tile_dims.size()) {
    return std::nullopt;
  }
  const ShardingType first = s.subgroup_types.front();
  for (ShardingType t : s.subgroup_types) {
    if (t != first) return std::nullopt;
  }
  if (first != ShardingType::kReplicated && first != ShardingType::kManual &&
      first != ShardingType::kUnreduced) {
    return std::nullopt;
  }
  for (int64_t d : DataTileDims(s)) {
    if (d != 1) return std::nullopt;
  }
  return first;
}

std::string ShardingToString(const Sharding& s) {
  std::string out;
  if (s.named.has_value()) {
    out = NamedToString(*s.named);
  } else {
    switch (s.type) {
      case ShardingType::kTuple: {
        std::vector<std::string> parts;
        for (const Sharding& t : s.tuple) parts.push_back(ShardingToString(t));
        out = "{" + absl::StrJoin(parts, ", ") + "}";
        break;
      }
      case ShardingType::kMaximal:
        out = fmt::format("{{maximal device={}}}",
                          s.devices.empty() ? 0 : s.devices.front());
        break;
      case ShardingType::kTiled: {
        out = fmt::format("{{devices=[{}]", absl::StrJoin(s.tile_dims, ","));
        if (s.is_iota()) {
          out += fmt::format("<=[{}]", absl::StrJoin(s.iota_reshape_dims, ","));
          bool identity = true;
          for (size_t i = 0; i < s.iota_perm.size(); ++i) {
            identity = identity && s.iota_perm[i] == static_cast<int64_t>(i);
          }
          if (!identity) {
            out += fmt::format("T({})", absl::StrJoin(s.iota_perm, ","));
          }
        } else {
          out += absl::StrJoin(s.devices, ",");
        }
        if (s.last_tile_dim_replicate) {
          out += " last_tile_dim_replicate";
        } else if (!s.subgroup_types.empty()) {
          std::vector<std::string> types;
          for (ShardingType t : s.subgroup_types) {
            types.push_back(ShardingTypeName(t));
          }
          out += " last_tile_dims={" + absl::StrJoin(types, ", ") + "}";
        }
        out += "}";
        break;
      }
      default:
        out = fmt::format("{{{}}}", ShardingTypeName(s.type));
        break;
    }
  }
  if (s.shard_group.has_value() && s.type != ShardingType::kTuple) {
    out.insert(out.size() - 1,
               fmt::format(" {} {}",
                           s.shard_group->shard_as ? "shard_as" : "shard_like",
                           s.shard_group->id));
  }
  return out;
}

}  // namespace topolint::hlo
