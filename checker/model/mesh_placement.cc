#include "checker/model/mesh_placement.h"

#include <cstdint>

#include "fmt/format.h"

namespace topolint::model {

std::optional<int64_t> MeshDeviceCount(const hlo::DeviceMesh& mesh) {
  if (mesh.axes.size() > 63) return std::nullopt;
  int64_t n = 1;
  for (const hlo::MeshAxis& a : mesh.axes) {
    if (a.size < 1 || __builtin_mul_overflow(n, a.size, &n) ||
        n > hlo::DeviceMesh::kMaxDevices) {
      return std::nullopt;
    }
  }
  if (mesh.device_ids.empty()) return n;
  if (static_cast<int64_t>(mesh.device_ids.size()) != n) return std::nullopt;
  std::vector<bool> seen(static_cast<size_t>(n), false);
  for (int64_t id : mesh.device_ids) {
    if (id < 0 || id >= n || seen[static_cast<size_t>(id)]) {
      return std::nullopt;
    }
    seen[static_cast<size_t>(id)] = true;
  }
  return n;
}

std::optional<MeshLayout> MeshLayout::Make(const hlo::DeviceMesh& mesh) {
  const std::optional<int64_t> devices = MeshDeviceCount(mesh);
  if (!devices.has_value()) return std::nullopt;
  MeshLayout l;
  const size_t k = mesh.axes.size();
  l.names_.resize(k);
  l.size_.resize(k);
  l.stride_.resize(k);
  int64_t stride = 1;
  for (size_t a = k; a-- > 0;) {
    l.names_[a] = mesh.axes[a].name;
    l.size_[a] = mesh.axes[a].size;
    l.stride_[a] = stride;
    stride *= mesh.axes[a].size;
  }
  l.cell_of_device_.resize(static_cast<size_t>(*devices));
  for (int64_t cell = 0; cell < *devices; ++cell) {
    const int64_t id = mesh.device_ids.empty()
                           ? cell
                           : mesh.device_ids[static_cast<size_t>(cell)];
    l.cell_of_device_[static_cast<size_t>(id)] = cell;
  }
  return l;
}

// The axes that vary within some group (bit a: axis a), or nothing when the
// groups do not hold every device exactly once.
std::optional<uint64_t> MeshLayout::VaryingAxes(const GroupList& groups) const {
  const int64_t n = devices();
  if (groups.num_ids() != n) return std::nullopt;
  std::vector<bool> seen(static_cast<size_t>(n), false);
  uint64_t mask = 0;
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    const absl::Span<const int64_t> group = groups.group(g);
    if (group.empty()) return std::nullopt;
    int64_t first = -1;
    for (int64_t id : group) {
      if (id < 0 || id >= n || seen[static_cast<size_t>(id)]) {
        return std::nullopt;
      }
      seen[static_cast<size_t>(id)] = true;
      const int64_t cell = cell_of_device_[static_cast<size_t>(id)];
      if (first < 0) first = cell;
      for (size_t a = 0; a < size_.size(); ++a) {
        if (Coord(cell, a) != Coord(first, a)) mask |= uint64_t{1} << a;
      }
    }
  }
  return mask;
}

// The axes of `mask` from innermost to outermost as group 0 lists them
// (its device at position `step` is one further along the next axis), or
// nothing when group 0 is not in such an order.
std::optional<std::vector<size_t>> MeshLayout::OrderOfGroupZero(
    uint64_t mask, int64_t fibre, const GroupList& groups) const {
  const absl::Span<const int64_t> g0 = groups.group(0);
  const int64_t base = cell_of_device_[static_cast<size_t>(g0[0])];
  std::vector<size_t> inner_first;
  uint64_t used = 0;
  for (int64_t step = 1; step < fibre;) {
    const int64_t cell =
        cell_of_device_[static_cast<size_t>(g0[static_cast<size_t>(step)])];
    std::optional<size_t> moved;
    for (size_t a = 0; a < size_.size(); ++a) {
      if (Coord(cell, a) == Coord(base, a)) continue;
      if (moved.has_value() || (mask & ~used & (uint64_t{1} << a)) == 0 ||
          Coord(cell, a) != Coord(base, a) + 1) {
        return std::nullopt;
      }
      moved = a;
    }
    if (!moved.has_value()) return std::nullopt;
    inner_first.push_back(*moved);
    used |= uint64_t{1} << *moved;
    step *= size_[*moved];
  }
  return inner_first;
}

// Every group lists its devices from coordinate 0 on the axes, row-major
// over `inner_first` reversed.
bool MeshLayout::AllInOrder(const std::vector<size_t>& inner_first,
                            int64_t fibre, const GroupList& groups) const {
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    const absl::Span<const int64_t> group = groups.group(g);
    const int64_t base = cell_of_device_[static_cast<size_t>(group[0])];
    for (size_t a : inner_first) {
      if (Coord(base, a) != 0) return false;
    }
    for (int64_t j = 0; j < fibre; ++j) {
      int64_t expected = base;
      int64_t rest = j;
      for (size_t a : inner_first) {
        expected += (rest % size_[a]) * stride_[a];
        rest /= size_[a];
      }
      if (cell_of_device_[static_cast<size_t>(group[static_cast<size_t>(j)])] !=
          expected) {
        return false;
      }
    }
  }
  return true;
}

MeshPlacement MeshLayout::Place(const GroupList& device_groups) const {
  MeshPlacement out;
  const std::optional<uint64_t> mask = VaryingAxes(device_groups);
  if (!mask.has_value()) return out;
  int64_t fibre = 1;
  for (size_t a = 0; a < size_.size(); ++a) {
    if ((*mask & (uint64_t{1} << a)) != 0) fibre *= size_[a];
  }
  for (int64_t g = 0; g < device_groups.num_groups(); ++g) {
    if (device_groups.group_size(g) != fibre) return out;
  }
  out.matched = true;
  for (size_t a = 0; a < size_.size(); ++a) {
    if ((*mask & (uint64_t{1} << a)) != 0) out.axes.push_back(names_[a]);
  }
  const std::optional<std::vector<size_t>> order =
      OrderOfGroupZero(*mask, fibre, device_groups);
  if (!order.has_value() || !AllInOrder(*order, fibre, device_groups)) {
    return out;
  }
  out.ordered = true;
  out.axes.clear();
  for (auto it = order->rbegin(); it != order->rend(); ++it) {
    out.axes.push_back(names_[*it]);
  }
  return out;
}

std::string MeshAxesText(const hlo::DeviceMesh& mesh) {
  std::string out;
  for (const hlo::MeshAxis& a : mesh.axes) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{}={}", a.name, a.size);
  }
  return out.empty() ? std::string("(no axes)") : out;
}

}  // namespace topolint::model
