// A model-parallel component configuration (vLLM-on-Neuron or NxD Inference
// neuron_config.json), as located data.
#ifndef TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_
#define TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_

#include <string>

#include "checker/json/json_value.h"

namespace topolint::config {

// The whole document is kept (configs are small). The typed, located view of
// its parallel fields is config::ReadParallelConfig (parallel_config.h); the
// group families it implies are in checker/model/component_groups.h.
struct ComponentConfig {
  std::string file;  // display name
  json::Value root;
};

// True when `root` is a component config in one of the forms SPEC section 2
// lists (config_sections.h, IsComponentConfigDocument): a parallelism key in
// one of its sections, or a Neuron dict container (`neuron_config`,
// `override_neuron_config`, `additional_config.neuron_config`, ...), even
// one without any parallelism key.
bool LooksLikeComponentConfig(const json::Value& root);

}  // namespace topolint::config

#endif  // TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_
