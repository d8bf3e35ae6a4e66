// PLACEHOLDER: replaced by the NEFF owner.
#include "checker/neff/def_json.h"

namespace topolint::neff {

bool IsDefJson(const json::Value& root) {
  return root.is_object() && root.Find("CCInfo") != nullptr;
}

DefJson BuildDefJson(const json::Value& /*root*/, const std::string& file) {
  DefJson d;
  d.file = file;
  return d;
}

}  // namespace topolint::neff
