// A stable, human-readable dump of a parsed Module, for tests and debugging
// (two parses are equal exactly when their dumps are).
#ifndef TOPOLINT_CHECKER_HLO_HLO_DEBUG_H_
#define TOPOLINT_CHECKER_HLO_HLO_DEBUG_H_

#include <string>

#include "checker/hlo/hlo_module.h"

namespace topolint::hlo {

std::string ShapeToString(const Shape& shape);
std::string ModuleDebugString(const Module& module);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_HLO_DEBUG_H_
