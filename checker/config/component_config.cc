#include "checker/config/component_config.h"

#include "checker/config/config_sections.h"

namespace topolint::config {

bool LooksLikeComponentConfig(const json::Value& root) {
  return IsComponentConfigDocument(root);
}

}  // namespace topolint::config
