// Where each collective's device groups sit on the meshes a module records
// (hlo::Module::meshes): the axes they run along, or a note that no
// combination of the axes gives them.
#include <algorithm>
#include <utility>

#include "absl/strings/str_join.h"
#include "checker/explain/explain_internal.h"
#include "fmt/format.h"

namespace topolint::explain {
namespace {

std::string At(TextPos pos) {
  return pos.is_byte() ? fmt::format("at byte {}", pos.byte_offset())
                       : fmt::format("at line {}", pos.line);
}

std::string MeshSource(const hlo::DeviceMesh& mesh) {
  switch (mesh.origin) {
    case hlo::DeviceMesh::Origin::kSdyMesh:
      return "sdy.mesh " + At(mesh.pos);
    case hlo::DeviceMesh::Origin::kSdyMeshesHeader:
      return "xla.sdy.meshes " + At(mesh.pos);
    case hlo::DeviceMesh::Origin::kNamedSharding:
      return "named sharding " + At(mesh.pos);
    case hlo::DeviceMesh::Origin::kTileGrid:
      return "tile grid of the sharding " + At(mesh.pos);
  }
  return At(mesh.pos);
}

std::string AxesText(const std::vector<std::string>& axes, bool ordered) {
  if (axes.size() == 1) return fmt::format("axis `{}`", axes.front());
  if (ordered) {
    std::vector<std::string> quoted;
    for (const std::string& a : axes) quoted.push_back("`" + a + "`");
    return fmt::format("axes {} (outer to inner)",
                       absl::StrJoin(quoted, " then "));
  }
  return fmt::format("axes {{{}}}", absl::StrJoin(axes, ", "));
}

std::string Sentence(const PlacementExplanation& p) {
  const std::string mesh = fmt::format("mesh {} ({})", p.mesh, p.mesh_source);
  if (!p.matched) {
    return "groups match no combination of the axes of " + mesh;
  }
  if (p.axes.empty()) return "each group is one device of " + mesh;
  return fmt::format("groups run along {} of {}{}", AxesText(p.axes, p.ordered),
                     mesh,
                     p.ordered ? "" : ", in another order within each group");
}

}  // namespace

MeshPlacer::MeshPlacer(const hlo::Module& module,
                       std::optional<int64_t> devices) {
  // Named axes (sdy.mesh, named shardings) before tile grids.
  std::vector<const hlo::DeviceMesh*> order;
  for (const hlo::DeviceMesh& m : module.meshes) order.push_back(&m);
  std::stable_partition(
      order.begin(), order.end(), [](const hlo::DeviceMesh* m) {
        return m->origin != hlo::DeviceMesh::Origin::kTileGrid;
      });
  for (const hlo::DeviceMesh* m : order) {
    std::string name = m->name.empty()
                           ? model::MeshAxesText(*m)
                           : m->name + " " + model::MeshAxesText(*m);
    std::string source = MeshSource(*m);
    std::optional<model::MeshLayout> layout = model::MeshLayout::Make(*m);
    const bool usable = layout.has_value() && devices.has_value() &&
                        layout->devices() == *devices;
    if (!usable) {
      descriptions_.push_back(fmt::format(
          "{} ({}): {}", name, source,
          layout.has_value()
              ? fmt::format("{} device{}, not the module's", layout->devices(),
                            layout->devices() == 1 ? "" : "s")
              : std::string("not a layout of devices 0..N-1")));
      continue;
    }
    descriptions_.push_back(fmt::format("{} ({})", name, source));
    entries_.push_back(
        {std::move(name), std::move(source), *std::move(layout)});
  }
}

std::optional<PlacementExplanation> MeshPlacer::Place(
    const model::GroupList& device_groups) const {
  if (entries_.empty()) return std::nullopt;
  const Entry* chosen = &entries_.front();
  model::MeshPlacement placed;
  for (const Entry& e : entries_) {
    model::MeshPlacement p = e.layout.Place(device_groups);
    if (p.matched) {
      chosen = &e;
      placed = std::move(p);
      break;
    }
  }
  PlacementExplanation out;
  out.mesh = chosen->mesh;
  out.mesh_source = chosen->source;
  out.matched = placed.matched;
  out.axes = std::move(placed.axes);
  out.ordered = placed.ordered;
  out.text = Sentence(out);
  return out;
}

}  // namespace topolint::explain
