// xref-topology-mismatch: an op's groups, as written after iota / mesh
// expansion, must be the NEFF's replica_groups[0] bit for bit, in order.
#include <string>
#include <vector>

#include "fmt/format.h"
#include "rules/xref_checks.h"

namespace topolint::xref {
namespace {

constexpr RuleId kRule = kXrefTopologyMismatch;

// "4 groups of 2", also for a list too large to have been expanded.
std::string OpShape(const OpGroups& g) {
  if (g.groups != nullptr) return DescribeShape(*g.groups);
  return fmt::format("{} group{} of {}", g.num_groups,
                     g.num_groups == 1 ? "" : "s", g.largest_group);
}

// An op against a NEFF that lists no topology (replica_groups is [] or
// absent): the reader then puts every rank in one group, so only an op that
// says the same (an empty list, or the single group {0..n-1}) agrees.
bool CompareWithNoTopology(const hlo::Module& module, const OpGroups& g,
                           const neff::DefJson& def, Emitter& emit) {
  const hlo::Collective& op = *g.op;
  if (HasImplicitGroups(op) ||
      (g.groups != nullptr && IsSingleIotaGroup(*g.groups))) {
    return false;
  }
  std::vector<Note> notes;
  if (def.has_replica_groups) {
    notes.push_back({At(def.file, def.replica_groups_pos),
                     "replica_groups holds no topology here"});
  } else {
    notes.push_back(
        {At(def.file, def.cc_info_pos), "CCInfo has no replica_groups"});
  }
  emit.Report(kRule, GroupsLocation(module, op),
              fmt::format("{} has {} but the NEFF lists no topology, which "
                          "puts every rank in one group",
                          op.name, OpShape(g)),
              std::move(notes), op.name);
  return true;
}

}  // namespace

bool CheckTopology(const hlo::Module& module, const OpGroups& g,
                   const NeffSide& n, Emitter& emit,
                   absl::flat_hash_map<std::string, GroupListDiff>* memo) {
  if (!emit.Enabled(kRule)) return false;
  const neff::DefJson& def = *n.def;
  if (n.topology == NeffSide::Topology::kSkip) return false;
  if (n.topology == NeffSide::Topology::kNone) {
    return CompareWithNoTopology(module, g, def, emit);
  }
  const hlo::Collective& op = *g.op;
  const neff::Topology& topo = def.topologies[0];
  const model::GroupList& neff_groups = n.topology0;
  std::vector<Note> notes;
  notes.push_back({At(def.file, topo.pos), "topology[0] is declared here"});
  const std::string implied =
      HasImplicitGroups(op) ? " (implied by the empty list)" : "";

  // A list too large to expand holds more ids than topology[0].
  GroupListDiff diff;
  diff.kind = GroupListDiff::Kind::kShape;
  if (g.groups != nullptr) {
    const bool keyed =
        memo != nullptr && g.expanded != nullptr && !g.expanded->key.empty();
    if (!keyed) {
      diff = CompareGroupLists(*g.groups, neff_groups);
    } else if (auto it = memo->find(g.expanded->key); it != memo->end()) {
      diff = it->second;
    } else {
      diff = CompareGroupLists(*g.groups, neff_groups);
      memo->emplace(g.expanded->key, diff);
    }
  }
  if (diff.kind == GroupListDiff::Kind::kEqual) return false;
  if (diff.kind == GroupListDiff::Kind::kShape) {
    emit.Report(kRule, GroupsLocation(module, op),
                fmt::format("{} has {}{} but topology[0] has {}", op.name,
                            OpShape(g), implied, DescribeShape(neff_groups)),
                std::move(notes), op.name);
    return true;
  }
  const model::GroupList& groups = *g.groups;
  const int64_t i = diff.group;
  std::string why;
  if (diff.same_ranks_reordered) {
    why =
        " (the same ranks in another order; a rank's position in its "
        "group is its rank in the collective, so the order must match)";
  } else if (diff.same_groups_reordered) {
    why =
        " (the same groups in another order; topology[0] must list them "
        "in the HLO's order)";
  }
  notes.push_back({At(def.file, topo.group_pos(i)),
                   fmt::format("group {} of topology[0] is {}", i,
                               neff_groups.GroupToString(i))});
  emit.Report(kRule, GroupsLocation(module, op, i),
              fmt::format("replica group {} is {} here{} but {} in "
                          "topology[0]{}",
                          i, groups.GroupToString(i), implied,
                          neff_groups.GroupToString(i), why),
              std::move(notes), op.name);
  return groups.group_size(i) != neff_groups.group_size(i);
}

}  // namespace topolint::xref
