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

// True when `root`, its "neuron_config" object, or its
// "additional_config.neuron_config" object has any of tp_degree,
// tensor_parallel_size, *_dp_size, *_dp_degree.
bool LooksLikeComponentConfig(const json::Value& root);

}  // namespace topolint::config

#endif  // TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_
