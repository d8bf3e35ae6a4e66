// Which axes of a device mesh a collective's groups run along.
//
// A mesh (hlo::DeviceMesh: Shardy's sdy.mesh, a named sharding's mesh, a
// tiled sharding's tile grid) lays its devices out row-major over named
// axes. The groups of a set S of axes are the sets of devices that differ
// only in their coordinates on S: one group per assignment of the other
// axes, prod(sizes of S) devices each. A collective's groups run along S
// when, as sets of groups of sets of devices, they are exactly those.
// Within a group the devices may further be listed in the row-major order
// of S's axes in some order (`mesh['x'=2,'y'=4] {'y','x'}` lists y outer,
// x inner).
//
// Pure function over plain data; O(devices x axes).
#ifndef TOPOLINT_CHECKER_MODEL_MESH_PLACEMENT_H_
#define TOPOLINT_CHECKER_MODEL_MESH_PLACEMENT_H_

#include <optional>
#include <string>
#include <vector>

#include "checker/hlo/hlo_module.h"
#include "checker/model/group_list.h"

namespace topolint::model {

struct MeshPlacement {
  // False: the groups are the groups of no set of the mesh's axes.
  bool matched = false;
  // The axes the groups run along (none: each group is one device),
  // outermost first when `ordered`, else in the mesh's order.
  std::vector<std::string> axes;
  // Every group lists its devices in the row-major order of `axes` (the
  // first outermost), from the device whose coordinates on them are 0.
  bool ordered = false;
};

// The number of devices `mesh` lays out (the product of its axis sizes), or
// nothing when it is not a valid layout of devices 0..N-1 (an axis size
// below 1, a product above hlo::DeviceMesh::kMaxDevices, device ids that
// are not a permutation of 0..N-1, more than 63 axes).
std::optional<int64_t> MeshDeviceCount(const hlo::DeviceMesh& mesh);

// A mesh's cells, made once and used for every collective of a module.
class MeshLayout {
 public:
  // Nothing when MeshDeviceCount(mesh) has none.
  static std::optional<MeshLayout> Make(const hlo::DeviceMesh& mesh);

  int64_t devices() const {
    return static_cast<int64_t>(cell_of_device_.size());
  }
  // Where `device_groups` (global device ids) sit on the mesh. Groups that
  // do not hold every device of the mesh exactly once (an id out of range,
  // repeated or missing) match no set of axes.
  MeshPlacement Place(const GroupList& device_groups) const;

 private:
  int64_t Coord(int64_t cell, size_t axis) const {
    return (cell / stride_[axis]) % size_[axis];
  }
  std::optional<uint64_t> VaryingAxes(const GroupList& groups) const;
  std::optional<std::vector<size_t>> OrderOfGroupZero(
      uint64_t mask, int64_t fibre, const GroupList& groups) const;
  bool AllInOrder(const std::vector<size_t>& inner_first, int64_t fibre,
                  const GroupList& groups) const;

  std::vector<std::string> names_;
  std::vector<int64_t> size_;
  std::vector<int64_t> stride_;
  std::vector<int64_t> cell_of_device_;  // device id -> row-major cell
};

// `x=2, y=4` (the axes as Shardy prints them, without quotes).
std::string MeshAxesText(const hlo::DeviceMesh& mesh);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_MESH_PLACEMENT_H_
