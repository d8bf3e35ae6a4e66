#include "checker/model/replica_groups.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "checker/hlo/group_checks.h"
#include "checker/hlo/transpose.h"
#include "checker/io/status_macros.h"
#include "fmt/format.h"

namespace topolint::model {
namespace {

// `[2,4,1]`.
std::string DimsToString(absl::Span<const int64_t> dims) {
  return fmt::format("[{}]", absl::StrJoin(dims, ","));
}

// The product of `dims`, each of which must be >= 1. Fails (InvalidArgument,
// naming `what`) when a dim is not positive, and (ResourceExhausted) when the
// product exceeds `cap` — overflow included — so callers can allocate it.
absl::StatusOr<int64_t> CheckedProduct(absl::Span<const int64_t> dims,
                                       int64_t cap, const std::string& what) {
  for (int64_t d : dims) {
    if (d < 1) {
      return absl::InvalidArgumentError(
          fmt::format("{} {} has a size {}; every size must be at least 1",
                      what, DimsToString(dims), d));
    }
  }
  int64_t product = 1;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(product, d, &product) || product > cap) {
      return absl::ResourceExhaustedError(
          fmt::format("{} {} holds more than {} ids, the most topolint expands",
                      what, DimsToString(dims), cap));
    }
  }
  return product;
}

// arange(prod dims).reshape(dims).transpose(perm), flattened (an empty
// `perm` is the identity): the ids of an iota, or of a mesh's device array.
// Fails (InvalidArgument, "<what>: <why>") when `perm` is not a permutation
// of the axes. Precondition: CheckedProduct(dims) succeeded.
absl::StatusOr<std::vector<int64_t>> TransposedIota(
    absl::Span<const int64_t> dims, std::vector<int64_t> perm,
    const std::string& what) {
  if (perm.empty()) {
    perm.resize(dims.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  // The one definition of a valid transpose, shared with both HLO front
  // ends (checker/hlo/group_checks.h).
  if (const hlo::SpecCheck p =
          hlo::CheckPermutation("transpose", perm, dims.size())) {
    return absl::InvalidArgumentError(fmt::format("{}: {}", what, p->message));
  }
  return hlo::TransposedIndices(dims, perm);
}

std::string IotaToString(const hlo::IotaSpec& iota) {
  std::string s = fmt::format("[{},{}]<={}", iota.num_groups, iota.group_size,
                              DimsToString(iota.reshape_dims));
  if (!iota.perm.empty()) {
    s += fmt::format("T({})", absl::StrJoin(iota.perm, ","));
  }
  return s;
}

std::string RefToString(const hlo::MeshAxisRef& ref) {
  if (ref.pre_size == 0) return ref.name;
  return fmt::format("{}:({}){}", ref.name, ref.pre_size, ref.size);
}

// One axis of the reshaped device array after sub-axis splitting.
struct Piece {
  int64_t size = 1;
  int64_t ref = -1;  // index into MeshSpec::grouped, -1 when not grouped
};

// The device array, flattened: explicit ids, an iota `[dims]T(perm)`, or
// (empty result) the plain iota.
absl::StatusOr<std::vector<int64_t>> DeviceArray(const hlo::MeshSpec& mesh,
                                                 int64_t total, int64_t cap) {
  if (!mesh.device_ids.empty()) {
    if (static_cast<int64_t>(mesh.device_ids.size()) != total) {
      return absl::InvalidArgumentError(
          fmt::format("mesh device_ids list {} ids but the mesh has {} devices",
                      mesh.device_ids.size(), total));
    }
    return mesh.device_ids;
  }
  if (mesh.device_ids_dims.empty()) return std::vector<int64_t>();
  TOPOLINT_ASSIGN_OR_RETURN(
      const int64_t held,
      CheckedProduct(mesh.device_ids_dims, cap, "mesh device_ids"));
  if (held != total) {
    return absl::InvalidArgumentError(fmt::format(
        "mesh device_ids {} hold {} ids but the mesh has {} devices",
        DimsToString(mesh.device_ids_dims), held, total));
  }
  return TransposedIota(mesh.device_ids_dims, mesh.device_ids_perm,
                        "mesh device_ids");
}

// Splits axis `size` around the sub-axis refs `subs` (indices into
// mesh.grouped, all naming this axis) and appends the pieces.
absl::Status SplitAxis(const hlo::MeshSpec& mesh, int64_t size,
                       std::vector<int64_t> subs, std::vector<Piece>* pieces) {
  std::sort(subs.begin(), subs.end(), [&](int64_t a, int64_t b) {
    return mesh.grouped[a].pre_size < mesh.grouped[b].pre_size;
  });
  int64_t covered = 1;  // product of the pieces so far (major side)
  for (int64_t r : subs) {
    const hlo::MeshAxisRef& ref = mesh.grouped[r];
    int64_t span = 0;
    if (ref.pre_size < 1 || ref.size < 1 ||
        __builtin_mul_overflow(ref.pre_size, ref.size, &span) ||
        size % span != 0) {
      return absl::InvalidArgumentError(fmt::format(
          "mesh sub-axis {} does not fit axis {} of size {}; expected "
          "pre-size * size to divide {}",
          RefToString(ref), ref.name, size, size));
    }
    if (ref.pre_size % covered != 0) {
      return absl::InvalidArgumentError(
          fmt::format("mesh sub-axis {} overlaps another sub-axis of {}",
                      RefToString(ref), ref.name));
    }
    pieces->push_back(Piece{ref.pre_size / covered, -1});
    pieces->push_back(Piece{ref.size, r});
    covered = span;
  }
  pieces->push_back(Piece{size / covered, -1});
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<GroupList> ExpandIota(const hlo::IotaSpec& iota, int64_t cap) {
  const std::string what = fmt::format("iota {}", IotaToString(iota));
  const int64_t lead[] = {iota.num_groups, iota.group_size};
  TOPOLINT_ASSIGN_OR_RETURN(const int64_t listed,
                            CheckedProduct(lead, cap, what + " shape"));
  TOPOLINT_ASSIGN_OR_RETURN(
      const int64_t held,
      CheckedProduct(iota.reshape_dims, cap, what + " reshape dims"));
  if (listed != held) {
    return absl::InvalidArgumentError(fmt::format(
        "{} describes {} groups of {} ({} ids) but its reshape dims {} hold {} "
        "ids; expected G*S to equal their product",
        what, iota.num_groups, iota.group_size, listed,
        DimsToString(iota.reshape_dims), held));
  }
  TOPOLINT_ASSIGN_OR_RETURN(std::vector<int64_t> ids,
                            TransposedIota(iota.reshape_dims, iota.perm, what));
  return GroupList::Uniform(iota.num_groups, iota.group_size, std::move(ids));
}

absl::StatusOr<GroupList> ExpandReplicaGroups(const hlo::ReplicaGroups& groups,
                                              int64_t cap) {
  switch (groups.form) {
    case hlo::ReplicaGroups::Form::kAbsent:
      return GroupList();
    case hlo::ReplicaGroups::Form::kExplicit: {
      const size_t total = groups.ids().size();
      if (total > static_cast<size_t>(cap)) {
        return absl::ResourceExhaustedError(fmt::format(
            "replica groups list {} ids, more than the {} topolint expands",
            total, cap));
      }
      // The written ids are shared, not copied.
      return GroupList::Shared(groups.SharedIds(), groups.group_ends);
    }
    case hlo::ReplicaGroups::Form::kIota:
      return ExpandIota(groups.iota, cap);
    case hlo::ReplicaGroups::Form::kMesh:
      return ExpandMesh(groups.mesh, cap);
  }
  return absl::InternalError("unknown replica_groups form");
}

absl::StatusOr<GroupList> ExpandMesh(const hlo::MeshSpec& mesh, int64_t cap) {
  std::vector<int64_t> sizes;
  std::vector<std::string> names;
  for (const hlo::MeshAxis& axis : mesh.axes) {
    if (std::find(names.begin(), names.end(), axis.name) != names.end()) {
      return absl::InvalidArgumentError(
          fmt::format("mesh axis {} is declared twice", axis.name));
    }
    sizes.push_back(axis.size);
    names.push_back(axis.name);
  }
  TOPOLINT_ASSIGN_OR_RETURN(const int64_t total,
                            CheckedProduct(sizes, cap, "mesh axes"));

  // Which refs name each axis; a whole-axis ref excludes every other ref.
  std::vector<std::vector<int64_t>> refs_of_axis(names.size());
  for (size_t r = 0; r < mesh.grouped.size(); ++r) {
    const hlo::MeshAxisRef& ref = mesh.grouped[r];
    auto it = std::find(names.begin(), names.end(), ref.name);
    if (it == names.end()) {
      return absl::InvalidArgumentError(
          fmt::format("mesh axis {} is not declared; the mesh has axes {}",
                      ref.name, absl::StrJoin(names, ", ")));
    }
    std::vector<int64_t>& refs = refs_of_axis[it - names.begin()];
    for (int64_t other : refs) {
      if (ref.pre_size == 0 || mesh.grouped[other].pre_size == 0) {
        return absl::InvalidArgumentError(
            fmt::format("mesh axis {} is grouped twice ({} and {})", ref.name,
                        RefToString(mesh.grouped[other]), RefToString(ref)));
      }
    }
    refs.push_back(static_cast<int64_t>(r));
  }

  std::vector<Piece> pieces;
  for (size_t a = 0; a < names.size(); ++a) {
    const std::vector<int64_t>& refs = refs_of_axis[a];
    if (refs.empty()) {
      pieces.push_back(Piece{sizes[a], -1});
    } else if (mesh.grouped[refs[0]].pre_size == 0) {
      pieces.push_back(Piece{sizes[a], refs[0]});
    } else if (absl::Status s = SplitAxis(mesh, sizes[a], refs, &pieces);
               !s.ok()) {
      return s;
    }
  }

  // Unselected pieces in axis order, then selected ones in listed order.
  std::vector<int64_t> dims, perm, selected(mesh.grouped.size(), -1);
  int64_t group_size = 1;
  for (size_t i = 0; i < pieces.size(); ++i) {
    dims.push_back(pieces[i].size);
    if (pieces[i].ref < 0) {
      perm.push_back(static_cast<int64_t>(i));
    } else {
      selected[pieces[i].ref] = static_cast<int64_t>(i);
      group_size *= pieces[i].size;  // divides total: no overflow
    }
  }
  perm.insert(perm.end(), selected.begin(), selected.end());

  TOPOLINT_ASSIGN_OR_RETURN(const std::vector<int64_t> devices,
                            DeviceArray(mesh, total, cap));
  std::vector<int64_t> ids = hlo::TransposedIndices(dims, perm);
  if (!devices.empty()) {
    for (int64_t& id : ids) id = devices[static_cast<size_t>(id)];
  }
  return GroupList::Uniform(total / group_size, group_size, std::move(ids));
}

}  // namespace topolint::model
