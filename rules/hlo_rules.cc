// CheckHlo: runs the hlo-* rule family (except hlo-syntax, which
// rules/syntax_rules.cc reports) over every HLO module of a unit. Each
// collective's replica groups are expanded once and shared by every check.
#include "absl/status/statusor.h"
#include "checker/model/group_mode.h"
#include "checker/model/module_params.h"
#include "checker/model/replica_groups.h"
#include "rules/families.h"
#include "rules/hlo_rule_util.h"

namespace topolint {

void CheckHlo(const Unit& unit, const CheckOptions& options, Emitter& emit) {
  for (const hlo::Module& module : unit.hlo_modules) {
    const model::ModuleParams params = model::EffectiveModuleParams(
        module, options.replica_count, options.num_partitions);
    hlo_rules::GeometryTracker geometries;
    for (const hlo::Collective& op : module.collectives) {
      absl::StatusOr<model::GroupList> groups =
          model::ExpandReplicaGroups(op.replica_groups);
      hlo_rules::OpView view;
      view.module = &module;
      view.op = &op;
      view.params = params;
      view.mode = model::GroupModeOf(op);
      view.groups = groups.ok() ? &*groups : nullptr;

      hlo_rules::CheckGroupMode(view, emit);
      if (!groups.ok()) {
        hlo_rules::ReportUnexpandableGroups(view, groups.status(), emit);
      }
      hlo_rules::CheckGroupIds(view, emit);
      hlo_rules::CheckGroupSizeShape(view, emit);
      hlo_rules::CheckPermutePairs(view, emit);
      hlo_rules::CheckNotFlattenedId(view, emit);
      geometries.Add(view);
    }
    geometries.Report(emit);
  }
}

}  // namespace topolint
