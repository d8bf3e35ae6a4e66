// The neff-* family: the CCInfo of every loose def.json and of every graph
// of every .neff archive in the unit. The reader's contract is refuse, not
// reconcile: every inconsistency is reported, none is averaged away.
#include "rules/families.h"
#include "rules/neff_checks.h"

namespace topolint {
namespace neff_rules {

namespace {

void CheckDefJson(const neff::DefJson& d, Emitter& emit) {
  for (const neff::SchemaProblem& p : d.schema_problems) {
    emit.Report(kNeffSchema, At(d.file, p.pos), p.message, {}, p.anchor);
  }
  const model::WorldSize ws = model::ComputeWorldSize(d);
  CheckTopologies(d, ws, emit);
  CheckRaggedGroups(d, emit);
  CheckDuplicateRanks(d, emit);
  CheckExplicitWorldSize(d, emit);
}

}  // namespace
}  // namespace neff_rules

// new-rule.sh(neff) stub: a rule scaffolded by scripts/new-rule.sh,
// called first by CheckNeff:
//   namespace {
//   void Check@Rule@(const Unit& unit, Emitter& emit);
//   }  // namespace

void CheckNeff(const Unit& unit, const CheckOptions& /*options*/,
               Emitter& emit) {
  // new-rule.sh(neff): Check@Rule@(unit, emit);
  for (const neff::DefJson& d : unit.def_jsons) {
    neff_rules::CheckDefJson(d, emit);
  }
  for (const neff::NeffArchive& archive : unit.neff_archives) {
    for (const neff::ArchiveProblem& p : archive.problems) {
      emit.Report(kNeffSchema, p.loc, p.message, {}, p.message);
    }
    for (const neff::DefJson& graph : archive.graphs) {
      neff_rules::CheckDefJson(graph, emit);
    }
  }
}

}  // namespace topolint
