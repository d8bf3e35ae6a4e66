// A model-parallel component configuration (vLLM-on-Neuron or NxD Inference
// neuron_config.json), as located data.
#ifndef TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_
#define TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "checker/json/json_value.h"

namespace topolint::config {

struct ParallelConfig;  // parallel_config.h

// The document of one config and what ReadParallelConfigs read from it
// (which points into that document): shared by every copy of the
// ComponentConfig, so that a config that many units inherit (a compile
// cache's neuron_config.json) is copied by reference and read once.
struct ComponentConfigData {
  explicit ComponentConfigData(json::Value r) : root(std::move(r)) {}
  const json::Value root;
  std::mutex mu;  // guards the first reading of `parallel`
  std::shared_ptr<const std::vector<ParallelConfig>> parallel;
};

// The whole document is kept (configs are small) and never changes once
// loaded. The typed, located view of its parallel fields is
// config::ReadParallelConfig (parallel_config.h); the group families it
// implies are in checker/model/component_groups.h. Copies share the
// document and its reading; reading it is thread-safe.
struct ComponentConfig {
  ComponentConfig() : ComponentConfig("", json::Value()) {}
  ComponentConfig(std::string file_name, json::Value document)
      : file(std::move(file_name)),
        data(std::make_shared<ComponentConfigData>(std::move(document))) {}
  ComponentConfig(std::string file_name,
                  std::shared_ptr<ComponentConfigData> parsed)
      : file(std::move(file_name)), data(std::move(parsed)) {}

  // A null document for a default-constructed config.
  const json::Value& root() const { return data->root; }

  std::string file;  // display name
  std::shared_ptr<ComponentConfigData> data;
};

// True when `root` is a component config in one of the forms
// docs/reference/inputs.md lists (config_sections.h): a parallelism key
// (tp_degree, tensor_parallel_size, data_parallel_size, *_dp_size,
// *_dp_degree) in one of its sections, or a Neuron dict container
// (`neuron_config`, `override_neuron_config`, `additional_config` holding
// one, a sub-model section with one), even one without any parallelism key,
// or a misspelling of one. Defined in config_sections.cc.
bool LooksLikeComponentConfig(const json::Value& root);

}  // namespace topolint::config

#endif  // TOPOLINT_CHECKER_CONFIG_COMPONENT_CONFIG_H_
