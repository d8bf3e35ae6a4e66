// Applies HLO suppression comments (`// topolint: disable=RULE[,RULE]`,
// `disable-next-line=`) to a unit's findings, and reports the ones that
// silence nothing as `unused-suppression` notes.
#ifndef TOPOLINT_CHECKER_CORE_SUPPRESSION_H_
#define TOPOLINT_CHECKER_CORE_SUPPRESSION_H_

#include <vector>

#include "checker/core/rule_selection.h"
#include "checker/core/unit.h"
#include "checker/diag/finding.h"

namespace topolint {

void ApplySuppressions(const Unit& unit, const RuleSelection& selection,
                       std::vector<Finding>* findings);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_SUPPRESSION_H_
