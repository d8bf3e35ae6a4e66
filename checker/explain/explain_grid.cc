// Device and rank grids for `explain`.
#include <algorithm>

#include "checker/explain/explain_internal.h"
#include "fmt/format.h"

namespace topolint::explain {
namespace {

constexpr int64_t kPlainColumns = 16;

Grid Shaped(int64_t rows, int64_t columns, std::string row_axis,
            std::string column_axis, int64_t count) {
  Grid g;
  g.rows = rows;
  g.columns = columns;
  g.row_axis = std::move(row_axis);
  g.column_axis = std::move(column_axis);
  g.id_formula = rows == 1 ? "device = column"
                           : fmt::format("device = {} * {} + {}", columns,
                                         g.row_axis, g.column_axis);
  const int64_t cells = rows * columns;
  g.id.assign(static_cast<size_t>(cells), -1);
  g.group.assign(static_cast<size_t>(cells), -1);
  for (int64_t i = 0; i < cells && i < count; ++i) g.id[i] = i;
  return g;
}

// a * b == n, without overflow.
bool ProductIs(int64_t a, int64_t b, int64_t n) {
  int64_t p = 0;
  return !__builtin_mul_overflow(a, b, &p) && p == n;
}

}  // namespace

std::optional<Grid> DeviceGrid(const hlo::Collective& op,
                               const model::GroupList& device_groups,
                               bool ids_are_devices,
                               const model::ModuleParams& params,
                               int64_t devices) {
  if (devices < 1 || devices > kMaxGridCells) return std::nullopt;
  std::optional<Grid> grid;
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (ids_are_devices && rg.form == hlo::ReplicaGroups::Form::kIota &&
      rg.iota.reshape_dims.size() == 2 &&
      ProductIs(rg.iota.reshape_dims[0], rg.iota.reshape_dims[1], devices)) {
    grid = Shaped(rg.iota.reshape_dims[0], rg.iota.reshape_dims[1], "row",
                  "column", devices);
  } else if (ids_are_devices && rg.form == hlo::ReplicaGroups::Form::kMesh &&
             rg.mesh.axes.size() == 2 && rg.mesh.device_ids.empty() &&
             rg.mesh.device_ids_dims.empty() &&
             ProductIs(rg.mesh.axes[0].size, rg.mesh.axes[1].size, devices)) {
    grid = Shaped(rg.mesh.axes[0].size, rg.mesh.axes[1].size,
                  rg.mesh.axes[0].name, rg.mesh.axes[1].name, devices);
  } else if (params.replica_count > 1 && params.num_partitions > 1) {
    grid = Shaped(params.replica_count, params.num_partitions, "replica",
                  "partition", devices);
  } else {
    const int64_t columns = std::min(devices, kPlainColumns);
    grid = Shaped((devices + columns - 1) / columns, columns, "row", "column",
                  devices);
  }
  for (int64_t g = 0; g < device_groups.num_groups(); ++g) {
    for (int64_t id : device_groups.group(g)) {
      if (id >= 0 && id < devices && grid->group[id] < 0) grid->group[id] = g;
    }
  }
  return grid;
}

std::optional<Grid> RankGrid(int64_t dp, int64_t tp) {
  if (dp < 1 || tp < 1 || dp > kMaxGridCells / tp) return std::nullopt;
  Grid g = Shaped(dp, tp, "DP", "TP", dp * tp);
  g.id_formula = fmt::format("rank = {} * DP + TP", tp);
  return g;
}

}  // namespace topolint::explain
