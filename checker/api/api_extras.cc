// Baselines and `explain` for the library APIs (topolint.h, topolint_c.h).
#include <fstream>
#include <sstream>
#include <utility>

#include "checker/api/api_internal.h"
#include "checker/diag/baseline.h"
#include "checker/explain/explain.h"
#include "fmt/format.h"

namespace topolint::api::internal {

absl::Status ApplyBaselineFile(const std::string& path,
                               std::vector<topolint::Finding>* findings) {
  if (path.empty()) return absl::OkStatus();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(fmt::format("{}: cannot read baseline", path));
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string error;
  std::optional<Baseline> baseline = LoadBaseline(text.str(), &error);
  if (!baseline) {
    return absl::InvalidArgumentError(fmt::format("{}: {}", path, error));
  }
  *findings = ApplyBaseline(std::move(*findings), *baseline).kept;
  return absl::OkStatus();
}

absl::Status ExplainUnitJson(const Unit& unit, const Options& options,
                             std::string* json) {
  UnitSpec spec;
  std::vector<InMemoryInput> in_memory;
  if (absl::Status st = BuildSpec(unit, &spec, &in_memory); !st.ok()) {
    return st;
  }
  RuleSelection selection;
  explain::ExplainSettings settings;
  if (absl::Status st =
          BuildSettings(options, spec.directory, &selection, &settings.check);
      !st.ok()) {
    return st;
  }
  topolint::Unit loaded;
  if (absl::Status st = LoadUnit(spec, in_memory, &loaded); !st.ok()) {
    return st;
  }
  *json = explain::RenderExplainJson({explain::ExplainUnit(loaded, settings)});
  return absl::OkStatus();
}

}  // namespace topolint::api::internal
