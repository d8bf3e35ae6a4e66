// The check families that read HLO collectives, one collective at a time.
//
// The families with a `collective_checks` factory in the registry
// (rules/registry.cc: hlo, xref, config-xref, lnc) are the only families that
// look at `hlo::Module::collectives`. Each one's work on a module is a session:
// begin with the module's header, feed every collective in source order, end
// with the module-level findings. The batch family functions run exactly these
// sessions over `module.collectives`; CollectiveChecks runs the same sessions
// while a module is still being parsed, so that the caller can drop each
// collective once it is checked and never hold a module's collectives at all
// (docs/reference/quality.md: memory grows with the collectives, not with the
// file). Both ways report the same findings.
//
// Internal to rules/ and checker/core (the runner).
#ifndef TOPOLINT_RULES_COLLECTIVE_CHECKS_H_
#define TOPOLINT_RULES_COLLECTIVE_CHECKS_H_

#include <memory>
#include <vector>

#include "checker/hlo/hlo_module.h"
#include "checker/model/group_spec_table.h"
#include "checker/model/unit.h"
#include "rules/emitter.h"
#include "rules/registry.h"

namespace topolint {

// Per-module sessions of the four families. Each is created with a module
// whose header (name, replica_count, num_partitions, file) is final and
// which outlives the session; Op() is called once per collective in source
// order; End() once. A session keeps nothing of a collective after Op()
// returns beyond small copies (e.g. the first op of each group geometry).
// Not copyable or movable.
class ModuleSession {
 public:
  virtual ~ModuleSession() = default;
  virtual void Op(const hlo::Collective& op) = 0;
  virtual void End() = 0;
};

// One family's unit-level state (the def.json and config sides, computed
// once per unit) and the factory of its module sessions. The Make*Checks
// functions return null when the family has nothing to do for the unit
// (its rules disabled, no def.json, no config, no --num-cores).
class FamilyChecks {
 public:
  virtual ~FamilyChecks() = default;
  // The family's work that reads no HLO module. Called once per unit.
  virtual void CheckUnitParts() {}
  // A session for `m`, or null when the family checks nothing in it.
  virtual std::unique_ptr<ModuleSession> Begin(const hlo::Module& m) = 0;

  // The table of replica-group specifications that the sessions Begin()
  // creates share with the other families' sessions of the module (null:
  // each session keeps its own). Set around Begin() by CollectiveChecks;
  // the table outlives those sessions.
  void set_shared_specs(model::GroupSpecTable* specs) { shared_specs_ = specs; }
  model::GroupSpecTable* shared_specs() const { return shared_specs_; }

 private:
  model::GroupSpecTable* shared_specs_ = nullptr;
};

std::unique_ptr<FamilyChecks> MakeHloChecks(const Unit& unit,
                                            const CheckOptions& options,
                                            Emitter& emit);
std::unique_ptr<FamilyChecks> MakeXrefChecks(const Unit& unit,
                                             const CheckOptions& options,
                                             Emitter& emit);
std::unique_ptr<FamilyChecks> MakeConfigXrefChecks(const Unit& unit,
                                                   const CheckOptions& options,
                                                   Emitter& emit);
std::unique_ptr<FamilyChecks> MakeLncChecks(const Unit& unit,
                                            const CheckOptions& options,
                                            Emitter& emit);

// What a batch family function does: the unit parts, then the sessions over
// every module's `collectives`.
void RunFamily(FamilyChecks* checks, const Unit& unit);

// The four families over one unit whose JSON and NEFF inputs are loaded,
// with HLO modules fed one at a time:
//
//   CollectiveChecks checks(unit, options, emit);
//   checks.CheckUnitParts();
//   for each module: BeginModule(m); Op(op)...; EndModule();
//
// `unit.hlo_modules` is not read (the modules are fed instead); `unit`,
// `options` and `emit` must outlive this object. Not copyable or movable.
class CollectiveChecks {
 public:
  CollectiveChecks(const Unit& unit, const CheckOptions& options,
                   Emitter& emit);
  ~CollectiveChecks();
  CollectiveChecks(const CollectiveChecks&) = delete;
  CollectiveChecks& operator=(const CollectiveChecks&) = delete;

  // The families' work that reads no HLO module (lnc-rank-range on def.json
  // ranks). Call once.
  void CheckUnitParts();

  // `module` must keep its address until EndModule(); its header must be
  // final. Its `collectives` are not read.
  void BeginModule(const hlo::Module& module);
  // The op's replica-group specification is looked up once for every
  // family (model::GroupSpecTable::Pin).
  void Op(const hlo::Collective& op);
  void EndModule();

  // True for the family functions this class stands in for, which a caller
  // feeding modules through it must not also run over the unit.
  static bool Replaces(CheckFn family);

 private:
  std::vector<std::unique_ptr<FamilyChecks>> families_;
  // The module's specifications, shared by its sessions (declared first:
  // it outlives them).
  std::unique_ptr<model::GroupSpecTable> specs_;
  std::vector<std::unique_ptr<ModuleSession>> sessions_;
};

}  // namespace topolint

#endif  // TOPOLINT_RULES_COLLECTIVE_CHECKS_H_
