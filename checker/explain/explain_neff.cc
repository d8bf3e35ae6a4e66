// The NEFF side of `explain`: the [topology][group][rank] envelope, the
// world size and how topology[0] compares with each collective.
#include <algorithm>
#include <vector>

#include "checker/explain/explain_internal.h"
#include "fmt/format.h"
#include "rules/xref_compare.h"

namespace topolint::explain {
namespace {

// "[1][4][2]": topologies, groups per topology, ranks per group; a dimension
// that differs between topologies / groups is shown as "a|b" or "a..b".
void Shape(NeffExplanation* n) {
  const auto& t = n->topologies;
  n->shape_dims.push_back(static_cast<int64_t>(t.size()));
  n->shape = fmt::format("[{}]", t.size());
  if (t.empty()) return;
  int64_t min_groups = t[0].num_groups(), max_groups = min_groups;
  int64_t min_size = -1, max_size = -1;
  for (const model::GroupList& g : t) {
    min_groups = std::min(min_groups, g.num_groups());
    max_groups = std::max(max_groups, g.num_groups());
    for (int64_t i = 0; i < g.num_groups(); ++i) {
      const int64_t s = g.group_size(i);
      min_size = min_size < 0 ? s : std::min(min_size, s);
      max_size = std::max(max_size, s);
    }
  }
  auto dim = [&](int64_t lo, int64_t hi) {
    if (lo == hi) {
      n->shape_dims.push_back(lo);
      n->shape += fmt::format("[{}]", lo);
    } else {
      n->shape_dims.push_back(std::nullopt);
      n->shape += fmt::format("[{}..{}]", lo, hi);
    }
  };
  dim(min_groups, max_groups);
  if (min_size >= 0) dim(min_size, max_size);
}

std::string MpmdMessage(const model::MpmdError& e) {
  if (e.kind == model::MpmdError::Kind::kEmptyTopology) {
    return fmt::format(
        "Empty topology found at index {}, possible MPMD neff file",
        e.topology_index);
  }
  return fmt::format(
      "Inconsistent worker count across topologies: {} vs {}. Possible MPMD",
      e.a, e.b);
}

std::string Difference(const model::GroupList& op,
                       const model::GroupList& topo) {
  const xref::GroupListDiff d = xref::CompareGroupLists(op, topo);
  switch (d.kind) {
    case xref::GroupListDiff::Kind::kEqual:
      return "";
    case xref::GroupListDiff::Kind::kShape:
      return fmt::format("{} here, {} in topology[0]", xref::DescribeShape(op),
                         xref::DescribeShape(topo));
    case xref::GroupListDiff::Kind::kGroup:
      return fmt::format(
          "group {} is {} here, {} in topology[0]{}", d.group,
          op.GroupToString(d.group), topo.GroupToString(d.group),
          d.same_ranks_reordered
              ? " (same ranks, another order)"
              : (d.same_groups_reordered ? " (same groups, another order)"
                                         : ""));
  }
  return "";
}

void Matches(const std::vector<hlo::Module>& modules, const CheckOptions& check,
             NeffExplanation* n) {
  const bool single = n->topologies.size() == 1 && n->topology_index[0] == 0 &&
                      n->topologies[0].num_groups() > 0;
  const bool none = n->topologies.empty() && n->topology_count == 0;
  if (!single && !none) return;
  for (const hlo::Module& module : modules) {
    const model::ModuleParams params = model::EffectiveModuleParams(
        module, check.replica_count, check.num_partitions);
    for (const hlo::Collective& op : module.collectives) {
      if (!xref::CarriesReplicaGroups(op)) continue;
      absl::StatusOr<model::GroupList> groups = xref::WrittenGroups(op, params);
      if (!groups.ok()) continue;
      TopologyMatch m;
      m.module_file = module.file;
      m.collective = op.name;
      if (none) {
        m.equal =
            xref::HasImplicitGroups(op) || xref::IsSingleIotaGroup(*groups);
        if (!m.equal) {
          m.difference = fmt::format(
              "{} here; no topology (every rank in one group) in the NEFF",
              xref::DescribeShape(*groups));
        }
      } else {
        m.difference = Difference(*groups, n->topologies[0]);
        m.equal = m.difference.empty();
      }
      n->matches.push_back(std::move(m));
    }
  }
}

}  // namespace

NeffExplanation ExplainNeff(const neff::DefJson& def,
                            const std::vector<hlo::Module>& modules,
                            const CheckOptions& check) {
  NeffExplanation n;
  n.file = def.file;
  n.has_cc_info = def.has_cc_info;
  n.topology_count = def.topology_count;
  for (const neff::Topology& t : def.topologies) {
    n.topologies.push_back(xref::TopologyGroups(t));
    n.topology_index.push_back(t.index);
  }
  Shape(&n);
  for (const neff::Pair& p : def.pairs) {
    n.pairs.emplace_back(p.src.value, p.dst.value);
  }
  n.has_explicit_world_size = def.has_explicit_world_size;
  n.world = model::ComputeWorldSize(def);
  for (const model::MpmdError& e : n.world.errors) {
    n.mpmd.push_back(MpmdMessage(e));
  }
  n.schema_problems = static_cast<int64_t>(def.schema_problems.size());
  Matches(modules, check, &n);
  return n;
}

}  // namespace topolint::explain
