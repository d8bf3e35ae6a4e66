// The three xref-* checks of one HLO module against one def.json. Internal to
// rules/: CheckXref (xref_rules.cc) pairs every module of a unit with every
// def.json (loose, or a graph of a .neff) and runs these, one collective at a
// time, so that at most one op's expanded groups are held at once.
#ifndef TOPOLINT_RULES_XREF_CHECKS_H_
#define TOPOLINT_RULES_XREF_CHECKS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/expansion_cache.h"
#include "checker/model/group_list.h"
#include "checker/model/module_params.h"
#include "checker/model/world_size.h"
#include "checker/neff/def_json.h"
#include "rules/emitter.h"
#include "rules/xref_compare.h"

namespace topolint::xref {

// What is known of one def.json, computed once per file.
struct NeffSide {
  const neff::DefJson* def = nullptr;
  UsableParts parts;
  model::WorldSize world;
  // How ops are compared with it: against topology[0], against "no
  // topology" (every rank in one group), or not at all (MPMD, an empty
  // topology, or replica_groups with schema problems).
  enum class Topology { kSkip, kNone, kOne } topology = Topology::kSkip;
  // kOne, once a module is checked against it (a def.json checked without
  // an HLO module never needs this copy of its ranks).
  model::GroupList topology0;
  int64_t rank_count = 0;  // ranks in topology[0]
};

// One collective that carries replica groups, as the xref checks see it.
struct OpGroups {
  OpGroups() = default;
  OpGroups(const OpGroups&) = delete;
  OpGroups& operator=(const OpGroups&) = delete;

  const hlo::Collective* op = nullptr;
  // The written groups after expansion (WrittenGroups); null when they hold
  // more ids than any def.json of the unit has ranks (an iota then keeps
  // only its shape below), do not expand at all, or are beyond the module's
  // expansion budget. Points into `expanded` (shared with identical lists
  // of the module) or `implied`.
  const model::GroupList* groups = nullptr;
  std::shared_ptr<const model::ExpandedGroups> expanded;
  model::GroupList implied;
  bool known_shape = false;  // groups, or the shape of a large iota
  int64_t num_groups = 0;
  int64_t largest_group = 0;
  bool uniform = true;
};

// xref-topology-mismatch for one op. Returns true when it reported that the
// op's groups have another count or size than topology[0] (or that there is
// no topology), which xref-world-size then need not repeat.
// `memo` (may be null) caches CompareGroupLists results by the op's cache
// key, so that ops sharing a list are compared with topology[0] once.
bool CheckTopology(
    const hlo::Module& module, const OpGroups& g, const NeffSide& n,
    Emitter& emit,
    absl::flat_hash_map<std::string, GroupListDiff>* memo = nullptr);
// xref-world-size, the per-op part: world size == the op's group size.
void CheckOpWorldSize(const hlo::Module& module, const OpGroups& g,
                      const NeffSide& n, bool shape_reported, Emitter& emit);
// xref-world-size, the per-module part: every NEFF rank is a device of the
// module; and #rank_world_size fits a module without grouped collectives.
void CheckDeviceSpace(const hlo::Module& module,
                      const model::ModuleParams& params, bool any_groups,
                      const NeffSide& n, Emitter& emit);
// xref-permute-pairs for one collective-permute / send / recv.
void CheckPermutePairs(const hlo::Module& module, const hlo::Collective& op,
                       const NeffSide& n, Emitter& emit);

// Where an op's replica_groups finding points: group `g`'s '{' for an
// explicit list (g >= 0), else the value, else (absent) the opcode.
Location GroupsLocation(const hlo::Module& module, const hlo::Collective& op,
                        int64_t g = -1);

}  // namespace topolint::xref

#endif  // TOPOLINT_RULES_XREF_CHECKS_H_
