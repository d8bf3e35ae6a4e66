// PLACEHOLDER: to be implemented by its owner; must not remain empty.
#include "rules/families.h"

namespace topolint {

void CheckHlo(const Unit& /*unit*/, const CheckOptions& /*options*/,
         Emitter& /*emit*/) {}

}  // namespace topolint
