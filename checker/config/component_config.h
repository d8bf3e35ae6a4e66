// A model-parallel component configuration (vLLM-on-Neuron or NxD Inference
// neuron_config.json), as located data.
#ifndef TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_
#define TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_

#include <memory>
#include <string>
#include <vector>

#include "checker/json/json_value.h"

namespace topolint::config {

struct ParallelConfig;  // parallel_config.h

// What ReadParallelConfigs read from one config's root (and which points
// into that root): kept with the config it was read from, so that the rules
// of a unit read a config once, and dropped by a copy or a move, whose root
// is another object.
class ParallelConfigCache {
 public:
  ParallelConfigCache() = default;
  ParallelConfigCache(const ParallelConfigCache& /*other*/) {}
  ParallelConfigCache(ParallelConfigCache&& /*other*/) noexcept {}
  ParallelConfigCache& operator=(const ParallelConfigCache& /*other*/) {
    configs.reset();
    return *this;
  }
  ParallelConfigCache& operator=(ParallelConfigCache&& /*other*/) noexcept {
    configs.reset();
    return *this;
  }
  ~ParallelConfigCache() = default;

  std::shared_ptr<const std::vector<ParallelConfig>> configs;
};

// The whole document is kept (configs are small). The typed, located view of
// its parallel fields is config::ReadParallelConfig (parallel_config.h); the
// group families it implies are in checker/model/component_groups.h.
// `root` is not to change once it has been read (the reading is kept in
// `parallel`); the first reading is not thread-safe.
struct ComponentConfig {
  std::string file;  // display name
  json::Value root;
  mutable ParallelConfigCache parallel{};  // ReadParallelConfigs's
};

// True when `root` is a component config in one of the forms
// docs/reference/inputs.md lists (config_sections.h,
// IsComponentConfigDocument): a parallelism key in one of its sections, or a
// Neuron dict container (`neuron_config`, `override_neuron_config`,
// `additional_config.neuron_config`, ...), even one without any parallelism
// key.
bool LooksLikeComponentConfig(const json::Value& root);

}  // namespace topolint::config

#endif  // TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_
