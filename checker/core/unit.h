// Unit and CheckOptions live in checker/model/unit.h (the rules read them
// and must not include checker/core). Kept so that existing includes build.
#ifndef TOPOLINT_CHECKER_CORE_UNIT_H_
#define TOPOLINT_CHECKER_CORE_UNIT_H_

#include "checker/model/unit.h"

#endif  // TOPOLINT_CHECKER_CORE_UNIT_H_
