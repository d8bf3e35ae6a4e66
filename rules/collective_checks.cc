#include "rules/collective_checks.h"

#include <utility>

#include "rules/families.h"

namespace topolint {

void RunFamily(FamilyChecks* checks, const Unit& unit) {
  if (checks == nullptr) return;
  checks->CheckUnitParts();
  for (const hlo::Module& m : unit.hlo_modules) {
    std::unique_ptr<ModuleSession> s = checks->Begin(m);
    if (s == nullptr) continue;
    for (const hlo::Collective& op : m.collectives) s->Op(op);
    s->End();
  }
}

CollectiveChecks::CollectiveChecks(const Unit& unit,
                                   const CheckOptions& options, Emitter& emit) {
  for (auto make :
       {MakeHloChecks, MakeXrefChecks, MakeConfigXrefChecks, MakeLncChecks}) {
    std::unique_ptr<FamilyChecks> f = make(unit, options, emit);
    if (f != nullptr) families_.push_back(std::move(f));
  }
}

CollectiveChecks::~CollectiveChecks() = default;

void CollectiveChecks::CheckUnitParts() {
  for (const std::unique_ptr<FamilyChecks>& f : families_) f->CheckUnitParts();
}

void CollectiveChecks::BeginModule(const hlo::Module& module) {
  sessions_.clear();
  specs_ = std::make_unique<model::GroupSpecTable>();
  for (const std::unique_ptr<FamilyChecks>& f : families_) {
    f->set_shared_specs(specs_.get());
    std::unique_ptr<ModuleSession> s = f->Begin(module);
    f->set_shared_specs(nullptr);
    if (s != nullptr) sessions_.push_back(std::move(s));
  }
}

void CollectiveChecks::Op(const hlo::Collective& op) {
  if (sessions_.empty()) return;
  model::GroupSpecTable::Pin pin(*specs_, op.replica_groups);
  for (const std::unique_ptr<ModuleSession>& s : sessions_) s->Op(op);
}

void CollectiveChecks::EndModule() {
  for (const std::unique_ptr<ModuleSession>& s : sessions_) s->End();
  sessions_.clear();
  specs_.reset();
}

bool CollectiveChecks::Replaces(CheckFn family) {
  return family == &CheckHlo || family == &CheckXref ||
         family == &CheckConfigXref || family == &CheckLnc;
}

}  // namespace topolint
