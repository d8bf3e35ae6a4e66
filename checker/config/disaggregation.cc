#include "checker/config/disaggregation.h"

#include "fmt/format.h"

namespace topolint::config {

DiReading ReadDisaggregation(const ParallelConfig& cfg) {
  DiReading out;
  if (cfg.form != ConfigForm::kVllm) return out;
  const std::string& role = cfg.kv_role.value;
  if (role == "kv_consumer" || role == "kv_both") {
    out.state = DiState::kDecodeRole;
    return out;
  }
  out.state = DiState::kShownOff;
  if (cfg.has_kv_transfer_config) {
    out.shown = !cfg.kv_role.present || cfg.kv_role.is_null
                    ? "kv_transfer_config has no kv_role"
                    : fmt::format("kv_transfer_config.kv_role is {}",
                                  cfg.kv_role.written);
  } else if (cfg.kv_transfer_config_null) {
    out.shown = "kv_transfer_config is null";
  } else if (cfg.apply_prefill_dcp.IsSet() && cfg.apply_prefill_dcp.value) {
    out.shown =
        "apply_prefill_dcp is true, which runs on a disaggregated prefill "
        "server (kv_role \"kv_producer\")";
  } else if (cfg.records_engine_args) {
    out.shown = "there is no kv_transfer_config";
  } else {
    out.state = DiState::kNotRecorded;
  }
  return out;
}

std::string DecodeOnlyDpSizes(const ParallelConfig& cfg) {
  std::string out;
  for (const IntField* f :
       {&cfg.attention_dp_size, &cfg.embedding_dp_size, &cfg.lm_head_dp_size}) {
    if (!f->IsSet() || f->value <= 1) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", f->key(), f->value);
  }
  return out;
}

}  // namespace topolint::config
