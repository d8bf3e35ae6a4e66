// The component-config side of `explain`: the DP x TP rank grid and the
// group families the config creates (model::GroupFamiliesOf), and what the
// file does not record (TP, DP, disaggregated inference of an
// `--additional-config` JSON alone).
#include <algorithm>
#include <optional>

#include "checker/config/disaggregation.h"
#include "checker/config/parallel_config.h"
#include "checker/explain/explain_internal.h"
#include "checker/model/component_groups.h"
#include "fmt/format.h"

namespace topolint::explain {
namespace {

// What a vLLM-form config does not record, and how to give it.
void NoteNotRecorded(const config::ParallelConfig& pc, ConfigExplanation* c) {
  if (!c->tp_recorded) {
    c->not_recorded.push_back(
        "TP: not recorded; the tensor-parallel size is a `vllm serve "
        "--tensor-parallel-size` argument, which this file does not hold, so "
        "the world size and the group families are not checked (write the "
        "engine arguments, tensor_parallel_size and data_parallel_size, "
        "beside additional_config to check them)");
  }
  if (!c->dp_recorded) {
    c->not_recorded.push_back(
        "DP: not recorded; the data-parallel size is a `vllm serve "
        "--data-parallel-size` argument, which this file does not hold, so "
        "no *_dp_size is checked against it; give it with "
        "--data-parallel-size N or \"data_parallel_size\": N in "
        ".topolint.json");
  }
  const config::DiReading di = config::ReadDisaggregation(pc);
  const std::string sizes = config::DecodeOnlyDpSizes(pc);
  if (di.state == config::DiState::kNotRecorded && !sizes.empty()) {
    c->not_recorded.push_back(fmt::format(
        "disaggregated inference: not recorded; the decode-only DP sizes "
        "({}) need a decode server (kv_role \"kv_consumer\" or "
        "\"kv_both\"), set by `vllm serve --kv-transfer-config`, which this "
        "file does not hold, so config-di-recommended does not check it",
        sizes));
  }
}

}  // namespace

ConfigExplanation ExplainConfig(const config::ParallelConfig& as_read,
                                const CheckOptions& check) {
  const std::optional<config::ParallelConfig> with_dp =
      config::WithDataParallelSize(as_read, check.data_parallel_size,
                                   check.data_parallel_size_origin);
  const config::ParallelConfig& pc = with_dp.has_value() ? *with_dp : as_read;
  ConfigExplanation c;
  c.file = pc.section.empty() ? pc.file
                              : fmt::format("{} ({})", pc.file, pc.section);
  c.form = config::ConfigFormName(pc.form);
  c.world_formula = pc.WorldSizeExplanation();
  if (pc.form == config::ConfigForm::kVllm) {
    for (const config::ComponentDp& d : pc.ComponentDpSizes()) {
      const std::string& path = d.field->path;
      c.component_dp.emplace_back(path.substr(path.rfind('.') + 1),
                                  d.field->value);
    }
    c.tp_recorded = pc.KnownTp().has_value();
    c.dp_recorded = pc.KnownDp().has_value();
    NoteNotRecorded(pc, &c);
    if (!c.tp_recorded || !c.dp_recorded) {
      c.tp = c.tp_recorded ? std::max<int64_t>(pc.Tp().value, 1) : 0;
      c.dp = c.dp_recorded ? pc.data_parallel_size.value : 0;
      c.world = 0;
      c.error = "the world size is not recorded (see above)";
      return c;
    }
  }
  c.tp = std::max<int64_t>(pc.Tp().value, 1);
  const std::optional<int64_t> world = pc.WorldSize();
  c.world = world.value_or(0);
  if (pc.form == config::ConfigForm::kVllm) {
    c.dp = pc.data_parallel_size.value;
  } else {
    c.dp = c.world > 0 && c.world % c.tp == 0 ? c.world / c.tp : 0;
  }
  if (c.dp >= 1) c.grid = RankGrid(c.dp, c.tp);
  if (!world.has_value() || *world > kMaxGridCells) {
    c.error = world.has_value()
                  ? fmt::format("{} ranks: too many to list", *world)
                  : std::string("the config's world size overflows");
    return c;
  }
  absl::StatusOr<std::vector<model::GroupFamily>> families =
      model::GroupFamiliesOf(pc);
  if (!families.ok()) {
    c.error = std::string(families.status().message());
    return c;
  }
  for (model::GroupFamily& f : *families) {
    c.families.push_back({f.DisplayName(), std::move(f.groups)});
  }
  return c;
}

}  // namespace topolint::explain
