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

#include "checker/core/rule_selection.h"
#include "checker/core/unit.h"
#include "checker/diag/finding.h"

namespace topolint {

// The suppression comments that silenced a finding: (file, line, column) of
// each comment.
using UsedSuppressions = std::set<std::tuple<std::string, int64_t, int64_t>>;

// True when a suppression comment of `module` silences `finding` (its
// rule, on the comment's target line of the module's file); the comment is
// recorded in `*used`. The emitter asks this as findings are reported, so
// that silenced findings never count towards the findings cap.
bool SilencedBy(const hlo::Module& module, const Finding& finding,
                UsedSuppressions* used);

// Removes the findings the unit's suppression comments silence and appends
// one `unused-suppression` finding per comment that silenced nothing, here
// or earlier (`*used`, filled by SilencedBy).
void ApplySuppressions(const Unit& unit, const RuleSelection& selection,
                       std::vector<Finding>* findings, UsedSuppressions* used);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_SUPPRESSION_H_
