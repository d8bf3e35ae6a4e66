// hlo-syntax and json-syntax: parse failures recorded by the loaders.
#include "rules/families.h"

namespace topolint {

// new-rule.sh(syntax) stub: a rule scaffolded by scripts/new-rule.sh,
// called first by CheckSyntax:
//   namespace {
//   void Check@Rule@(const Unit& unit, Emitter& emit);
//   }  // namespace

void CheckSyntax(const Unit& unit, const CheckOptions& /*options*/,
                 Emitter& emit) {
  // new-rule.sh(syntax): Check@Rule@(unit, emit);
  for (const hlo::Module& m : unit.hlo_modules) {
    for (const hlo::SyntaxError& e : m.syntax_errors) {
      emit.Report(kHloSyntax, At(m.file, e.pos), e.message, {},
                  "syntax:" + e.message);
    }
  }
  for (const JsonSyntaxProblem& p : unit.json_syntax) {
    emit.Report(kJsonSyntax, p.loc, p.message, {}, "syntax:" + p.message);
  }
  // Members of .neff archives (x.neff:sg00/def.json) that do not parse.
  for (const neff::NeffArchive& a : unit.neff_archives) {
    for (const neff::ArchiveProblem& p : a.json_syntax) {
      emit.Report(kJsonSyntax, p.loc, p.message, {}, "syntax:" + p.message);
    }
  }
}

}  // namespace topolint
