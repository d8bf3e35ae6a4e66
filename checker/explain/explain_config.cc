// The component-config side of `explain`: the DP x TP rank grid and the
// group families the config creates (model::GroupFamiliesOf).
#include <algorithm>

#include "checker/config/parallel_config.h"
#include "checker/explain/explain_internal.h"
#include "checker/model/component_groups.h"
#include "fmt/format.h"

namespace topolint::explain {

ConfigExplanation ExplainConfig(const config::ParallelConfig& pc) {
  ConfigExplanation c;
  c.file = pc.section.empty() ? pc.file
                              : fmt::format("{} ({})", pc.file, pc.section);
  c.form = config::ConfigFormName(pc.form);
  c.tp = std::max<int64_t>(pc.Tp().value, 1);
  const std::optional<int64_t> world = pc.WorldSize();
  c.world = world.value_or(0);
  c.world_formula = pc.WorldSizeExplanation();
  if (pc.form == config::ConfigForm::kVllm) {
    c.dp = pc.data_parallel_size.value;
    for (const config::ComponentDp& d : pc.ComponentDpSizes()) {
      const std::string& path = d.field->path;
      c.component_dp.emplace_back(path.substr(path.rfind('.') + 1),
                                  d.field->value);
    }
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
