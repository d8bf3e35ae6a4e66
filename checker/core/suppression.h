// Applies HLO suppression comments (`// topolint: disable=RULE[,RULE]`,
// `disable-next-line=`) to a unit's findings, and reports the ones that
// silence nothing as `unused-suppression` notes.
#ifndef TOPOLINT_CHECKER_CORE_SUPPRESSION_H_
#define TOPOLINT_CHECKER_CORE_SUPPRESSION_H_

#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "checker/core/rule_selection.h"
#include "checker/diag/finding.h"
#include "checker/model/unit.h"
#include "rules/emitter.h"

namespace topolint {

// The suppression comments that silenced a finding: (file, line, column) of
// each comment.
using UsedSuppressions = std::set<std::tuple<std::string, int64_t, int64_t>>;

// Says whether a suppression comment of a module silences a finding (its
// rule, on the comment's target line of the module's file), recording the
// comment in `*used`. The runner asks it as findings are reported, so that
// silenced findings never count towards the findings cap. The comments are
// indexed by target line as they appear (a module being parsed gains
// comments), so each question costs the comments on one line, not all of
// them. Holds no pointer between calls that outlives the modules.
class SuppressionIndex {
 public:
  bool Silences(const hlo::Module& module, const Finding& finding,
                UsedSuppressions* used);

 private:
  struct Entry {
    const hlo::Module* module = nullptr;  // the module indexed (identity)
    size_t indexed = 0;                   // its comments indexed so far
    absl::flat_hash_map<int64_t, std::vector<size_t>> by_line;
  };
  absl::flat_hash_map<std::string, Entry> by_file_;
};

// Removes the findings the unit's suppression comments silence and reports
// one `unused-suppression` finding per comment that silenced nothing, here
// or earlier (`*used`, filled by SuppressionIndex), through `emit`: like
// every other finding it is capped (--max-findings) and per-file ignores
// apply to it.
void ApplySuppressions(const Unit& unit, const RuleSelection& selection,
                       std::vector<Finding>* findings, UsedSuppressions* used,
                       Emitter* emit);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_SUPPRESSION_H_
