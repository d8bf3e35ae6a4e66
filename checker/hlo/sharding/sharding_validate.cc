#include "checker/hlo/sharding/sharding_validate.h"

#include <cstddef>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

using Kind = ShardingIssue::Kind;

void CollectLeaves(const Shape& shape, std::vector<const Shape*>* out) {
  if (!shape.is_tuple) {
    out->push_back(&shape);
    return;
  }
  for (const Shape& element : shape.tuple) CollectLeaves(element, out);
}

ShardingProblem Problem(Kind kind, std::string message) {
  return ShardingProblem{kind, std::move(message)};
}

std::optional<ShardingProblem> DeviceInRange(int64_t device,
                                             std::optional<int64_t> n) {
  if (device < 0) {
    return Problem(
        Kind::kDevice,
        fmt::format("device {} is negative in tile assignment", device));
  }
  if (n.has_value() && device >= *n) {
    return Problem(Kind::kDevice,
                   fmt::format("device {} >= num_devices ({}) in tile "
                               "assignment",
                               device, *n));
  }
  return std::nullopt;
}

std::optional<ShardingProblem> ValidateLeaf(const Sharding& s,
                                            const Shape& shape,
                                            std::optional<int64_t> n) {
  if (shape.known && shape.is_tuple) {
    return Problem(Kind::kRank,
                   "Validation shape is a tuple but sharding is not.");
  }
  if (s.type == ShardingType::kReplicated || s.type == ShardingType::kManual ||
      s.type == ShardingType::kUnknown || s.type == ShardingType::kUnreduced ||
      s.type == ShardingType::kTuple || CollapsedType(s).has_value()) {
    return std::nullopt;
  }
  if (s.type == ShardingType::kMaximal) {
    const std::vector<int64_t> devices = ExpandDevices(s);
    if (devices.size() != 1) {
      return Problem(Kind::kDevice,
                     "Tile maximal sharding must have a single device "
                     "assignment.");
    }
    return DeviceInRange(devices.front(), n);
  }
  const int64_t count = TileDeviceCount(s);
  if (count == 1) {
    return Problem(Kind::kRank,
                   "Tile assignment only contains a single device. If a "
                   "replicated sharding was intended, use "
                   "HloSharding::Replicated(). If a device placement was "
                   "intended, use HloSharding::AssignDevice()");
  }
  if (shape.known && DataTileRank(s) != shape.dims.size()) {
    return Problem(Kind::kRank,
                   fmt::format("Number of tile assignment dimensions "
                               "(excluding subgroups) is different than the "
                               "input rank. sharding={}, input_shape={}",
                               ShardingToString(s), ShapeText(shape)));
  }
  if (s.named.has_value()) {
    if (n.has_value() && count != *n) {
      return Problem(
          Kind::kCount,
          fmt::format("sharding should have {} devices but has {}", *n, count));
    }
    return std::nullopt;
  }
  if (n.has_value() && count != *n) {
    return Problem(Kind::kCount,
                   fmt::format("tile_assignment should have {} devices but "
                               "has {}",
                               *n, count));
  }
  if (s.is_iota()) return std::nullopt;
  absl::flat_hash_set<int64_t> seen;
  for (int64_t device : s.devices) {
    if (auto p = DeviceInRange(device, n)) return p;
    if (!seen.insert(device).second) {
      return Problem(
          Kind::kDevice,
          fmt::format("device {} is not unique in tile assignment", device));
    }
  }
  return std::nullopt;
}

}  // namespace

std::string ShapeText(const Shape& shape) {
  if (!shape.known) return "<unknown shape>";
  if (shape.is_tuple) {
    std::vector<std::string> parts;
    for (const Shape& e : shape.tuple) parts.push_back(ShapeText(e));
    return "(" + absl::StrJoin(parts, ", ") + ")";
  }
  std::vector<std::string> dims;
  for (int64_t d : shape.dims) dims.push_back(d < 0 ? "?" : std::to_string(d));
  return fmt::format("{}[{}]", shape.element_type, absl::StrJoin(dims, ","));
}

std::optional<ShardingProblem> ValidateSharding(const Sharding& s,
                                                const Shape& shape,
                                                std::optional<int64_t> n) {
  if (shape.known && !shape.is_tuple &&
      std::string_view(shape.element_type) == "token") {
    return std::nullopt;
  }
  std::optional<ShardingProblem> p;
  if (s.type == ShardingType::kTuple) {
    if (shape.known && !shape.is_tuple) {
      p = Problem(Kind::kRank,
                  "Sharding is tuple-shaped but validation shape is not.");
    } else if (shape.known) {
      std::vector<const Shape*> leaves;
      CollectLeaves(shape, &leaves);
      // An empty tuple has no leaves; it may carry one sharding or none.
      const bool empty_ok = leaves.empty() && s.tuple.size() <= 1;
      if (!empty_ok && leaves.size() != s.tuple.size()) {
        p = Problem(
            Kind::kRank,
            fmt::format("Shape {} has {} leaf nodes while this "
                        "sharding has {}",
                        ShapeText(shape), leaves.size(), s.tuple.size()));
      }
      for (size_t i = 0; !p && !empty_ok && i < leaves.size(); ++i) {
        p = ValidateLeaf(s.tuple[i], *leaves[i], n);
        if (p) {
          p->message += fmt::format(
              "; Note: While validating sharding tuple element {} which is {}",
              i, ShardingToString(s.tuple[i]));
        }
      }
    } else {
      for (size_t i = 0; !p && i < s.tuple.size(); ++i) {
        Shape unknown;
        p = ValidateLeaf(s.tuple[i], unknown, n);
      }
    }
  } else if (shape.known && shape.is_tuple) {
    // XLA's parser gives a tuple-shaped instruction a non-tuple sharding as
    // that sharding on every leaf (HloSharding::NormalizeTupleSharding).
    std::vector<const Shape*> leaves;
    CollectLeaves(shape, &leaves);
    for (size_t i = 0; !p && i < leaves.size(); ++i) {
      p = ValidateLeaf(s, *leaves[i], n);
      if (p) {
        p->message += fmt::format(
            "; Note: While validating sharding tuple element {} which is {}", i,
            ShardingToString(s));
      }
    }
  } else {
    p = ValidateLeaf(s, shape, n);
  }
  if (p) {
    p->message +=
        fmt::format("; Note: While validating sharding {} against shape {}",
                    ShardingToString(s), ShapeText(shape));
  }
  return p;
}

}  // namespace topolint::hlo
