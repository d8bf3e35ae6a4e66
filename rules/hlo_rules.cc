// CheckHlo: runs the hlo-* rule family (except hlo-syntax, which
// rules/syntax_rules.cc reports) over every HLO module of a unit, one
// collective at a time (see rules/collective_checks.h). Each collective's
// replica groups are expanded once and shared by every check; identical
// iota / mesh lists of a module share one expansion (model::ExpansionCache),
// and a module whose distinct lists exceed the expansion budget gets an
// hlo-syntax finding for each op left unchecked.
#include <memory>

#include "absl/status/statusor.h"
#include "checker/model/expansion_cache.h"
#include "checker/model/group_mode.h"
#include "checker/model/module_params.h"
#include "checker/model/replica_groups.h"
#include "rules/collective_checks.h"
#include "rules/families.h"
#include "rules/hlo_rule_util.h"

namespace topolint {
namespace {

// new-rule.sh(hlo) stub: a rule scaffolded by scripts/new-rule.sh, called
// by HloSession (one object per module: members keep the module's state):
//   struct @Rule@ {
//     void Op(const hlo_rules::OpView& view, Emitter& emit);
//     void End(const hlo::Module& module, Emitter& emit);
//   };

class HloSession : public ModuleSession {
 public:
  // `specs` may be null (see FamilyChecks::shared_specs).
  HloSession(const hlo::Module& module, const CheckOptions& options,
             model::GroupSpecTable* specs, Emitter& emit)
      : module_(module),
        params_(model::EffectiveModuleParams(module, options.replica_count,
                                             options.num_partitions)),
        emit_(emit),
        cache_(model::kMaxModuleExpandedIds, model::kMaxRetainedIds, specs) {}

  void Op(const hlo::Collective& op) override {
    const model::ExpansionCache::Result r = cache_.Expand(op.replica_groups);
    hlo_rules::OpView view;
    view.module = &module_;
    view.op = &op;
    view.params = params_;
    view.mode = model::GroupModeOf(op);
    if (r.groups != nullptr) {
      view.groups = &r.groups->groups;
      view.expanded = r.groups.get();
    }

    hlo_rules::CheckGroupMode(view, emit_);
    if (r.over_budget) {
      hlo_rules::ReportOverBudgetGroups(view, cache_, emit_);
    } else if (!r.status.ok()) {
      hlo_rules::ReportUnexpandableGroups(view, r.status, emit_);
    }
    hlo_rules::CheckGroupIds(view, emit_);
    hlo_rules::CheckGroupSizeShape(view, emit_);
    // (A ring the module repeats is checked once.)
    if (!clean_pairs_.Matches(view) &&
        hlo_rules::CheckPermutePairs(view, emit_)) {
      clean_pairs_.Remember(view);
    }
    hlo_rules::CheckNotFlattenedId(view, emit_);
    geometries_.Add(view, r.groups);
    // new-rule.sh(hlo): @rule@_.Op(view, emit_);
  }

  void End() override {
    geometries_.Report(emit_);
    hlo_rules::ReportShardingIssues(module_, emit_);
    // new-rule.sh(hlo): @rule@_.End(module_, emit_);
  }

 private:
  const hlo::Module& module_;
  const model::ModuleParams params_;
  Emitter& emit_;
  // Identical lists of the module are expanded once, within a budget.
  model::ExpansionCache cache_;
  hlo_rules::GeometryTracker geometries_;
  hlo_rules::CleanPairsMemo clean_pairs_;
  // new-rule.sh(hlo): @Rule@ @rule@_;
};

class HloFamily : public FamilyChecks {
 public:
  HloFamily(const CheckOptions& options, Emitter& emit)
      : options_(options), emit_(emit) {}
  std::unique_ptr<ModuleSession> Begin(const hlo::Module& m) override {
    return std::make_unique<HloSession>(m, options_, shared_specs(), emit_);
  }

 private:
  const CheckOptions& options_;
  Emitter& emit_;
};

}  // namespace

std::unique_ptr<FamilyChecks> MakeHloChecks(const Unit& /*unit*/,
                                            const CheckOptions& options,
                                            Emitter& emit) {
  return std::make_unique<HloFamily>(options, emit);
}

void CheckHlo(const Unit& unit, const CheckOptions& options, Emitter& emit) {
  RunFamily(MakeHloChecks(unit, options, emit).get(), unit);
}

}  // namespace topolint
