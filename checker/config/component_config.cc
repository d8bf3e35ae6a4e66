#include "checker/config/component_config.h"

#include "absl/strings/match.h"

namespace topolint::config {
namespace {

bool HasParallelKey(const json::Value& obj) {
  if (!obj.is_object()) return false;
  for (const json::Member& m : obj.object) {
    if (m.key == "tp_degree" || m.key == "tensor_parallel_size" ||
        absl::EndsWith(m.key, "_dp_size") ||
        absl::EndsWith(m.key, "_dp_degree")) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool LooksLikeComponentConfig(const json::Value& root) {
  if (HasParallelKey(root)) return true;
  const json::Value* nc = root.Find("neuron_config");
  if (nc != nullptr && HasParallelKey(*nc)) return true;
  const json::Value* ac = root.Find("additional_config");
  nc = ac != nullptr ? ac->Find("neuron_config") : nullptr;
  return nc != nullptr && HasParallelKey(*nc);
}

}  // namespace topolint::config
