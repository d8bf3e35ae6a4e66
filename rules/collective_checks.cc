#include "rules/collective_checks.h"

#include <utility>

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
  for (const CheckFamily& family : AllCheckFamilies()) {
    if (family.collective_checks == nullptr) continue;
    std::unique_ptr<FamilyChecks> f =
        family.collective_checks(unit, options, emit);
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
  for (const CheckFamily& f : AllCheckFamilies()) {
    if (f.run == family) return f.collective_checks != nullptr;
  }
  return false;
}

}  // namespace topolint
