// Baselines and `explain` for the library APIs (topolint.h, topolint_c.h).
#include <utility>

#include "checker/api/api_internal.h"
#include "checker/diag/baseline.h"
#include "checker/explain/explain.h"
#include "fmt/format.h"

namespace topolint::api::internal {

absl::Status ApplyBaselineFile(const std::string& path,
                               const topolint::SarifRoots& roots,
                               std::vector<topolint::Finding>* findings) {
  if (path.empty()) return absl::OkStatus();
  if (path.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(
        "baseline: the path holds a NUL byte; expected a file name");
  }
  // The CLI's reader: FIFOs, devices and directories are refused (never
  // read or waited on), the size is bounded, the text is never held.
  absl::StatusOr<Baseline> baseline = ReadBaselineFile(path);
  if (!baseline.ok()) {
    if (baseline.status().code() == absl::StatusCode::kNotFound) {
      return baseline.status();
    }
    return absl::InvalidArgumentError(baseline.status().message());
  }
  *findings = ApplyBaseline(std::move(*findings), *baseline, &roots).kept;
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
