// Options and .topolint.json -> RuleSelection + CheckOptions, with the same
// precedence as the CLI (checker/cli/unit_jobs.cc): the project config
// first, explicit options on top.
#include <cstdint>
#include <optional>
#include <string>

#include "checker/api/api_internal.h"
#include "checker/core/project_config.h"
#include "checker/core/project_config_finder.h"
#include "fmt/format.h"

namespace topolint::api::internal {
namespace {

absl::Status CheckPositive(const char* name, const std::optional<int64_t>& v) {
  if (v.has_value() && *v < 1) {
    return absl::InvalidArgumentError(
        fmt::format("{} must be a positive integer, got {}", name, *v));
  }
  return absl::OkStatus();
}

absl::Status Prefixed(const std::string& prefix, const absl::Status& st) {
  return absl::InvalidArgumentError(
      fmt::format("{}: {}", prefix, std::string(st.message())));
}

}  // namespace

absl::Status BuildSettings(const Options& options, const std::string& unit_dir,
                           RuleSelection* selection, CheckOptions* check,
                           ProjectConfigFinder* finder) {
  for (absl::Status st :
       {CheckPositive("lnc", options.lnc),
        CheckPositive("num_cores", options.num_cores),
        CheckPositive("replica_count", options.replica_count),
        CheckPositive("num_partitions", options.num_partitions)}) {
    if (!st.ok()) return st;
  }
  *selection = RuleSelection();
  *check = CheckOptions();
  std::string config_path = options.project_config;
  if (config_path.empty() && options.search_project_config) {
    config_path = finder != nullptr ? finder->Find(unit_dir)
                                    : FindProjectConfig(unit_dir);
  }
  if (!config_path.empty()) {
    absl::StatusOr<ProjectConfig> cfg = LoadProjectConfig(config_path);
    if (!cfg.ok()) {
      // A config that cannot be read is a bad request, like a bad option.
      return absl::InvalidArgumentError(cfg.status().message());
    }
    if (absl::Status st = ApplyProjectConfig(*cfg, selection, check);
        !st.ok()) {
      return st;
    }
  }
  for (const std::string& g : options.rules) {
    if (absl::Status st = selection->ApplyGlobs(g); !st.ok()) {
      return Prefixed("rules", st);
    }
  }
  for (const auto& [rule, level] : options.severity) {
    if (absl::Status st = selection->SetSeverity(rule, level); !st.ok()) {
      return Prefixed("severity", st);
    }
  }
  if (options.werror) selection->set_werror(true);
  if (options.lnc) {
    check->lnc = *options.lnc;
    check->lnc_given = true;
    check->lnc_origin = "the lnc setting";
  }
  if (options.num_cores) check->num_cores = options.num_cores;
  if (options.replica_count) check->replica_count = options.replica_count;
  if (options.num_partitions) check->num_partitions = options.num_partitions;
  return absl::OkStatus();
}

}  // namespace topolint::api::internal
