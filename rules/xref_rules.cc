// xref-topology-mismatch, xref-world-size, xref-permute-pairs: every HLO
// module of a unit against every def.json of it (loose files and each graph
// of each .neff). The checks themselves are in xref_topology.cc,
// xref_world_size.cc and xref_pairs.cc.
#include <algorithm>
#include <vector>

#include "checker/model/group_mode.h"
#include "checker/model/module_params.h"
#include "rules/families.h"
#include "rules/xref_checks.h"

namespace topolint {
namespace {

// Expansion bound for an op's groups: lists larger than every def.json
// differ from all of them in size, so they need not be held (an explicit
// list is already in memory, bounded by the parser).
constexpr int64_t kMinExpansionCap = int64_t{1} << 16;

}  // namespace

void CheckXref(const Unit& unit, const CheckOptions& options, Emitter& emit) {
  if (!emit.Enabled("xref-topology-mismatch") &&
      !emit.Enabled("xref-world-size") && !emit.Enabled("xref-permute-pairs")) {
    return;
  }
  std::vector<xref::NeffSide> neffs;
  for (const neff::DefJson& d : unit.def_jsons) {
    neffs.push_back(xref::ReadNeffSide(d));
  }
  for (const neff::NeffArchive& a : unit.neff_archives) {
    for (const neff::DefJson& d : a.graphs) {
      neffs.push_back(xref::ReadNeffSide(d));
    }
  }
  if (neffs.empty()) return;
  int64_t cap = kMinExpansionCap;
  for (const xref::NeffSide& n : neffs) cap = std::max(cap, n.rank_count);

  for (const hlo::Module& module : unit.hlo_modules) {
    const model::ModuleParams params = model::EffectiveModuleParams(
        module, options.replica_count, options.num_partitions);
    bool any_groups = false;
    for (const hlo::Collective& op : module.collectives) {
      if (!xref::CarriesReplicaGroups(op)) {
        for (const xref::NeffSide& n : neffs) {
          xref::CheckPermutePairs(module, op, n, emit);
        }
        continue;
      }
      const xref::OpGroups groups = xref::ReadOpGroups(op, params, cap);
      if (!groups.known_shape) continue;
      any_groups = true;
      for (const xref::NeffSide& n : neffs) {
        const bool shape_reported = xref::CheckTopology(module, groups, n, emit);
        xref::CheckOpWorldSize(module, groups, n, shape_reported, emit);
      }
    }
    for (const xref::NeffSide& n : neffs) {
      xref::CheckDeviceSpace(module, params, any_groups, n, emit);
    }
  }
}

namespace xref {

NeffSide ReadNeffSide(const neff::DefJson& def) {
  NeffSide n;
  n.def = &def;
  n.parts = UsablePartsOf(def);
  n.world = model::ComputeWorldSize(def);
  if (!n.parts.replica_groups) return n;
  // More than one topology, or an empty one, is MPMD: the neff-* rules say
  // so, and no op can be compared against "the" topology.
  if (def.topologies.empty()) {
    n.topology = NeffSide::Topology::kNone;
  } else if (def.topologies.size() == 1 && def.topologies[0].index == 0 &&
             !def.topologies[0].groups.empty()) {
    n.topology = NeffSide::Topology::kOne;
    n.topology0 = TopologyGroups(def.topologies[0]);
    n.rank_count = n.topology0.num_ids();
  }
  return n;
}

OpGroups ReadOpGroups(const hlo::Collective& op,
                      const model::ModuleParams& params, int64_t cap) {
  OpGroups g;
  g.op = &op;
  absl::StatusOr<model::GroupList> list = WrittenGroups(op, params, cap);
  if (list.ok()) {
    g.known_shape = true;
    g.num_groups = list->num_groups();
    g.uniform = list->is_uniform();
    for (int64_t i = 0; i < list->num_groups(); ++i) {
      g.largest_group = std::max(g.largest_group, list->group_size(i));
    }
    g.groups = *std::move(list);
    return g;
  }
  if (!absl::IsResourceExhausted(list.status())) return g;
  // Too large to hold: keep the shape where it is known without expanding.
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (HasImplicitGroups(op)) {
    g.known_shape = true;
    g.num_groups = 1;
    g.largest_group =
        model::SubgroupSize(model::GroupModeOf(op), model::GroupList(),
                            params.replica_count, params.num_partitions);
  } else if (rg.form == hlo::ReplicaGroups::Form::kIota &&
             rg.iota.num_groups > 0 && rg.iota.group_size > 0) {
    g.known_shape = true;
    g.num_groups = rg.iota.num_groups;
    g.largest_group = rg.iota.group_size;
  }
  return g;
}

Location GroupsLocation(const hlo::Module& module, const hlo::Collective& op,
                        int64_t g) {
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (rg.form == hlo::ReplicaGroups::Form::kAbsent) {
    return At(module.file, op.opcode_pos);
  }
  if (rg.form == hlo::ReplicaGroups::Form::kExplicit && g >= 0 &&
      g < static_cast<int64_t>(rg.group_pos.size())) {
    return At(module.file, rg.group_pos[static_cast<size_t>(g)]);
  }
  return At(module.file, rg.pos);
}

}  // namespace xref
}  // namespace topolint
