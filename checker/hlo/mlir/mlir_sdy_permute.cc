// sdy.collective_permute: its source-target pairs, which follow from its
// operand's sharding and its out_sharding, as Shardy's lowering computes
// them (sdy-convert-global-to-local, CollectivePermuteOpPattern in
// openxla/shardy shardy/dialect/sdy/transforms/export/
// convert_global_to_local.cc, with getOrderedAxisRefs of ir/utils.cc and
// getShardIndex of transforms/export/utils.cc): the mesh axes are cut into
// the sub-axes either sharding names; each sharding orders them (its
// dimensions' axes first, then the rest) into a shard index per device; the
// device holding shard k under the operand's sharding sends to the device
// holding shard k under out_sharding. Every device has a pair (i -> i when
// its shard stays).
//
// The operand's sharding is found by Reader::ValueSharding
// (mlir_sdy_values.cc).
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/hlo/mlir/mlir_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::mlir {
namespace {

// A piece of a mesh axis: sizes pre (the product of the more major pieces)
// and size, major first, as Shardy's sub-axis `"x":(pre)size`.
struct Atom {
  size_t axis = 0;
  int64_t pre = 1;
  int64_t size = 1;
};

// The permutes read stop here (DeviceMesh's bound on explicit ids).
constexpr int64_t kMaxPermuteDevices = int64_t{1} << 16;

bool SameAxes(const SdyMesh& a, const SdyMesh& b) {
  if (a.axes.size() != b.axes.size()) return false;
  for (size_t k = 0; k < a.axes.size(); ++k) {
    if (a.axes[k].name != b.axes[k].name || a.axes[k].size != b.axes[k].size) {
      return false;
    }
  }
  return true;
}

// position[id] = the index of device `id` in the mesh (Shardy requires the
// ids to be a permutation of 0..total-1).
bool Positions(const SdyMesh& mesh, int64_t total,
               std::vector<int64_t>* position) {
  position->assign(static_cast<size_t>(total), -1);
  if (mesh.device_ids.empty()) {
    for (int64_t i = 0; i < total; ++i) (*position)[static_cast<size_t>(i)] = i;
    return true;
  }
  if (static_cast<int64_t>(mesh.device_ids.size()) != total) return false;
  for (size_t k = 0; k < mesh.device_ids.size(); ++k) {
    const int64_t id = mesh.device_ids[k];
    if (id < 0 || id >= total || (*position)[static_cast<size_t>(id)] >= 0) {
      return false;
    }
    (*position)[static_cast<size_t>(id)] = static_cast<int64_t>(k);
  }
  return true;
}

class PermuteMath {
 public:
  explicit PermuteMath(const SdyMesh& mesh) : mesh_(mesh) {}

  // The devices of the mesh; false (with why_) past the bound.
  bool Init() {
    for (const MeshAxis& a : mesh_.axes) {
      if (a.size < 1 || total_ > kMaxPermuteDevices / a.size) {
        why_ = fmt::format(
            "its mesh has more than {} devices, more than "
            "topolint computes a permute over",
            kMaxPermuteDevices);
        return false;
      }
      total_ *= a.size;
      cuts_.push_back({1, a.size});
    }
    suffix_.assign(mesh_.axes.size(), 1);
    for (size_t k = mesh_.axes.size(); k-- > 1;) {
      suffix_[k - 1] = suffix_[k] * mesh_.axes[k].size;
    }
    return true;
  }

  // The cuts of the sub-axes `s` names; false when it names an axis the
  // mesh lacks or a sub-axis that does not fit in its axis.
  bool AddCuts(const SdySharding& s) {
    for (const std::vector<MeshAxisRef>& dim : s.dims) {
      for (const MeshAxisRef& ref : dim) {
        const int64_t k = AxisIndex(ref.name);
        if (k < 0) {
          why_ = fmt::format(
              "a sharding names the axis \"{}\", which its mesh "
              "does not have",
              ref.name);
          return false;
        }
        if (ref.pre_size == 0) continue;
        const int64_t full = mesh_.axes[static_cast<size_t>(k)].size;
        if (ref.pre_size < 1 || ref.size < 1 || ref.pre_size > full ||
            ref.size > full / ref.pre_size ||
            full % (ref.pre_size * ref.size) != 0) {
          why_ = fmt::format(
              "the sub-axis \"{}\":({}){} does not fit in the "
              "axis of size {}",
              ref.name, ref.pre_size, ref.size, full);
          return false;
        }
        cuts_[static_cast<size_t>(k)].push_back(ref.pre_size);
        cuts_[static_cast<size_t>(k)].push_back(ref.pre_size * ref.size);
      }
    }
    return true;
  }

  // The pieces every axis is cut into (getOrderedAxisRefs), mesh order,
  // major first; false when two sub-axes of one axis overlap unevenly.
  bool MakeAtoms() {
    for (size_t k = 0; k < cuts_.size(); ++k) {
      std::vector<int64_t>& c = cuts_[k];
      std::sort(c.begin(), c.end());
      c.erase(std::unique(c.begin(), c.end()), c.end());
      for (size_t i = 0; i + 1 < c.size(); ++i) {
        if (c[i + 1] % c[i] != 0) {
          why_ = fmt::format("sub-axes of \"{}\" that do not nest",
                             mesh_.axes[k].name);
          return false;
        }
        atoms_.push_back({k, c[i], c[i + 1] / c[i]});
      }
    }
    return true;
  }

  // The pieces in the order of `s`: those its dimensions' axes contain,
  // dimension by dimension, then the others.
  std::vector<size_t> Order(const SdySharding& s) const {
    std::vector<size_t> order;
    std::vector<bool> used(atoms_.size(), false);
    for (const std::vector<MeshAxisRef>& dim : s.dims) {
      for (const MeshAxisRef& ref : dim) {
        const size_t k = static_cast<size_t>(AxisIndex(ref.name));
        const int64_t pre = ref.pre_size > 0 ? ref.pre_size : 1;
        const int64_t end =
            ref.pre_size > 0 ? ref.pre_size * ref.size : mesh_.axes[k].size;
        for (size_t a = 0; a < atoms_.size(); ++a) {
          const Atom& t = atoms_[a];
          if (!used[a] && t.axis == k && pre <= t.pre &&
              t.pre * t.size <= end) {
            used[a] = true;
            order.push_back(a);
          }
        }
      }
    }
    for (size_t a = 0; a < atoms_.size(); ++a) {
      if (!used[a]) order.push_back(a);
    }
    return order;
  }

  // The shard the device at `position` of the mesh holds.
  int64_t ShardIndex(int64_t position, const std::vector<size_t>& order) const {
    int64_t index = 0;
    for (size_t a : order) {
      const Atom& t = atoms_[a];
      const int64_t stride = mesh_.axes[t.axis].size / (t.pre * t.size);
      const int64_t coord = (position / (suffix_[t.axis] * stride)) % t.size;
      index = index * t.size + coord;
    }
    return index;
  }

  int64_t total() const { return total_; }
  const std::string& why() const { return why_; }

 private:
  int64_t AxisIndex(const std::string& name) const {
    for (size_t k = 0; k < mesh_.axes.size(); ++k) {
      if (mesh_.axes[k].name == name) return static_cast<int64_t>(k);
    }
    return -1;
  }

  const SdyMesh& mesh_;
  int64_t total_ = 1;
  std::vector<std::vector<int64_t>> cuts_;
  std::vector<int64_t> suffix_;
  std::vector<Atom> atoms_;
  std::string why_;
};

}  // namespace

bool SdyPermutePairs(const SdyMesh& in_mesh, const SdySharding& in,
                     const SdyMesh& out_mesh, const SdySharding& out,
                     std::vector<std::pair<int64_t, int64_t>>* pairs,
                     std::string* why) {
  if (!SameAxes(in_mesh, out_mesh)) {
    *why =
        "its operand's mesh and its out_sharding's mesh have different axes "
        "(Shardy requires the same axes)";
    return false;
  }
  PermuteMath math(out_mesh);
  if (!math.Init() || !math.AddCuts(in) || !math.AddCuts(out) ||
      !math.MakeAtoms()) {
    *why = math.why();
    return false;
  }
  const int64_t total = math.total();
  std::vector<int64_t> in_position, out_position;
  if (!Positions(in_mesh, total, &in_position) ||
      !Positions(out_mesh, total, &out_position)) {
    *why = "a mesh's device_ids are not a permutation of its devices";
    return false;
  }
  const std::vector<size_t> in_order = math.Order(in);
  const std::vector<size_t> out_order = math.Order(out);
  // The device that holds each shard under out_sharding.
  std::vector<int64_t> holder(static_cast<size_t>(total), -1);
  for (int64_t j = 0; j < total; ++j) {
    holder[static_cast<size_t>(
        math.ShardIndex(out_position[static_cast<size_t>(j)], out_order))] = j;
  }
  pairs->clear();
  for (int64_t i = 0; i < total; ++i) {
    pairs->emplace_back(i,
                        holder[static_cast<size_t>(math.ShardIndex(
                            in_position[static_cast<size_t>(i)], in_order))]);
  }
  return true;
}

void Reader::SdyPermute(TextPos name_pos, SdyOpRead* r) {
  SdySharding in;
  std::string why;
  if (!ValueSharding(r->operand, &in, &why)) {
    SdyNotChecked(name_pos, why);
    return;
  }
  const SdyMesh* in_mesh = SdyMeshOf(in);
  if (in_mesh == nullptr) {
    SdyNotChecked(name_pos,
                  fmt::format("the mesh @{} of its operand {}'s sharding is "
                              "not defined in this module",
                              in.mesh_name, r->operand));
    return;
  }
  std::vector<std::pair<int64_t, int64_t>> pairs;
  if (!SdyPermutePairs(*in_mesh, in, *SdyMeshOf(r->out), r->out, &pairs,
                       &why)) {
    SdyNotChecked(name_pos, why);
    return;
  }
  // Every shard stays: the op moves nothing (Shardy's canonicalizer
  // removes it, and its lowering makes no collective of it).
  if (std::all_of(pairs.begin(), pairs.end(),
                  [](const auto& p) { return p.first == p.second; })) {
    return;
  }
  SourceTargetPairs& stp = op_.source_target_pairs;
  stp.present = true;
  stp.pos = r->out.mesh_pos;
  stp.pairs = std::move(pairs);
  stp.pair_pos.assign(stp.pairs.size(), stp.pos);
  // A channel of its own (handle N, type 1): cross-partition, the pairs
  // partition ids.
  op_.has_channel_id = true;
  op_.channel_id = ++sdy_channels_;
  op_.channel_id_pos = name_pos;
  Emit();
}

}  // namespace topolint::hlo::mlir
