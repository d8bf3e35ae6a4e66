#include "checker/hlo/sharding/sharding_record.h"

#include <charconv>
#include <optional>
#include <string>

#include "checker/hlo/sharding/sharding_validate.h"

namespace topolint::hlo {
namespace {

void CountLeaf(const Sharding& s, TextPos pos, std::string_view instruction,
               ShardingSummary* summary) {
  if (s.type == ShardingType::kTuple) {
    for (const Sharding& leaf : s.tuple) {
      CountLeaf(leaf, pos, instruction, summary);
    }
    return;
  }
  if (s.type == ShardingType::kMaximal) {
    ++summary->maximal;
    const std::vector<int64_t> devices = ExpandDevices(s);
    if (devices.size() == 1 && devices.front() > summary->max_maximal_device) {
      summary->max_maximal_device = devices.front();
      summary->max_maximal_pos = pos;
    }
    return;
  }
  // A tiled sharding that XLA collapses into replicated / manual /
  // unreduced is never checked against the device count: it says nothing
  // of it.
  if (s.type != ShardingType::kTiled || CollapsedType(s).has_value()) return;
  ++summary->tiled;
  const int64_t count = TileDeviceCount(s);
  if (count <= 1) return;
  for (ShardingSummary::TileCount& c : summary->tile_counts) {
    if (c.devices == count) {
      ++c.uses;
      return;
    }
  }
  if (summary->tile_counts.size() >= ShardingSummary::kMaxCounts) return;
  ShardingSummary::TileCount c;
  c.devices = count;
  c.pos = pos;
  c.instruction = std::string(instruction.substr(0, 256));
  c.uses = 1;
  summary->tile_counts.push_back(std::move(c));
}

// Whether `name` is the name RecordMesh gives tile dimension `i`: `d<i>`.
bool IsTileAxisName(std::string_view name, size_t i) {
  char buf[24] = {'d'};
  const std::to_chars_result r = std::to_chars(buf + 1, buf + sizeof(buf), i);
  return name == std::string_view(buf, static_cast<size_t>(r.ptr - buf));
}

// Whether `module` keeps the mesh of the tile grid `tile_dims` (its
// dimensions of more than one device, named `d<i>`) with no explicit
// devices already: AddMesh would keep no other, so the mesh need not be
// built (most of a module's shardings repeat a few grids).
bool KeepsTileGrid(const Module& module,
                   const std::vector<int64_t>& tile_dims) {
  for (const DeviceMesh& m : module.meshes) {
    if (!m.device_ids.empty()) continue;
    size_t axis = 0;
    bool same = true;
    for (size_t i = 0; i < tile_dims.size() && same; ++i) {
      if (tile_dims[i] <= 1) continue;
      same = axis < m.axes.size() && m.axes[axis].size == tile_dims[i] &&
             IsTileAxisName(m.axes[axis].name, i);
      ++axis;
    }
    if (same && axis == m.axes.size()) return true;
  }
  return false;
}

// The device mesh a sharding records (hlo_module.h, DeviceMesh): a named
// sharding's mesh, or a tiled sharding's tile grid (its dimensions of more
// than one device, named `d<i>` by their index). Bounded: nothing is
// expanded once the module keeps kMaxMeshes meshes or for a grid above
// DeviceMesh::kMaxDevices, and the plain iota `<=[N]` is not expanded.
void RecordMesh(const Sharding& s, TextPos pos, Module* module) {
  if (s.type == ShardingType::kTuple) {
    for (const Sharding& leaf : s.tuple) RecordMesh(leaf, pos, module);
    return;
  }
  if (module->meshes.size() >= Module::kMaxMeshes) return;
  DeviceMesh mesh;
  mesh.pos = pos;
  if (s.named.has_value()) {
    const NamedSharding& n = *s.named;
    if (n.maximal || n.axis_names.empty() ||
        n.axis_names.size() != n.axis_sizes.size()) {
      return;
    }
    mesh.origin = DeviceMesh::Origin::kNamedSharding;
    for (size_t i = 0; i < n.axis_names.size(); ++i) {
      mesh.axes.push_back(MeshAxis{n.axis_names[i], n.axis_sizes[i]});
    }
  } else {
    if (s.type != ShardingType::kTiled || CollapsedType(s).has_value()) return;
    // The plain iota `<=[N]` keeps no explicit devices (below).
    if (s.is_iota() && s.iota_reshape_dims.size() == 1 &&
        KeepsTileGrid(*module, s.tile_dims)) {
      return;
    }
    mesh.origin = DeviceMesh::Origin::kTileGrid;
    for (size_t i = 0; i < s.tile_dims.size(); ++i) {
      if (s.tile_dims[i] > 1) {
        mesh.axes.push_back(MeshAxis{"d" + std::to_string(i), s.tile_dims[i]});
      }
    }
    if (mesh.axes.empty()) return;
  }
  const int64_t count = TileDeviceCount(s);
  if (count <= 1 || count > DeviceMesh::kMaxDevices) return;
  const bool plain_iota = s.named.has_value()
                              ? s.named->device_ids.empty() &&
                                    s.named->device_ids_reshape.size() <= 1
                              : s.is_iota() && s.iota_reshape_dims.size() == 1;
  if (!plain_iota) {
    mesh.device_ids = ExpandDevices(s, DeviceMesh::kMaxDevices);
    if (static_cast<int64_t>(mesh.device_ids.size()) != count) return;
    bool identity = true;
    for (int64_t i = 0; i < count && identity; ++i) {
      identity = mesh.device_ids[static_cast<size_t>(i)] == i;
    }
    if (identity) mesh.device_ids.clear();
  }
  module->AddMesh(std::move(mesh));
}

}  // namespace

void RecordSharding(const Sharding& sharding, const Shape& shape, TextPos pos,
                    std::string_view instruction, ShardingSite site,
                    Module* module) {
  ShardingSummary& summary = module->sharding;
  ++summary.annotations;
  CountLeaf(sharding, pos, instruction, &summary);
  RecordMesh(sharding, pos, module);
  if (site != ShardingSite::kInstruction) return;
  std::optional<int64_t> num_devices;
  if (module->num_partitions.has_value() && *module->num_partitions > 1) {
    num_devices = *module->num_partitions;
  }
  std::optional<ShardingProblem> p =
      ValidateSharding(sharding, shape, num_devices);
  if (!p) return;
  if (summary.issues.size() >= ShardingSummary::kMaxIssues) {
    ++summary.issues_dropped;
    return;
  }
  ShardingIssue issue;
  issue.kind = p->kind;
  issue.pos = pos;
  issue.instruction = std::string(instruction.substr(0, 256));
  issue.message = std::move(p->message);
  summary.issues.push_back(std::move(issue));
}

std::optional<ShardingSummary::TileCount> AgreedTileCount(
    const ShardingSummary& summary) {
  const std::vector<ShardingSummary::TileCount>& counts =
      summary.frozen ? summary.tile_counts_at_first_collective
                     : summary.tile_counts;
  if (counts.size() != 1) return std::nullopt;
  return counts.front();
}

}  // namespace topolint::hlo
