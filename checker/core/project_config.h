// `.topolint.json`: per-project settings, found upward from each input.
//
//   {
//     "rules": "-*,neff-*",            // or ["-*", "neff-*"]
//     "severity": {"hlo-not-flattened-id": "error", "config-unknown-key":
//     "off"}, "werror": false, "lnc": 2, "num_cores": 64, "replica_count": 1,
//     "num_partitions": 8, "per_file_ignores": {"legacy/*.hlo":
//     ["hlo-multiple-geometries"]},
//     "include": "\\.hlo$", "exclude": ["^fixtures/", "^third_party/"]
//   }
//
// "include" / "exclude" are RE2 path filters (checker/core/path_filter.h):
// checked when the file is parsed, applied by discovery.
#ifndef TOPOLINT_CHECKER_CORE_PROJECT_CONFIG_H_
#define TOPOLINT_CHECKER_CORE_PROJECT_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "checker/core/rule_selection.h"
#include "checker/model/unit.h"

namespace topolint {

struct ProjectConfig {
  std::string path;                // where it was read from ("" when none)
  std::vector<std::string> rules;  // glob lists, applied in order
  std::vector<std::pair<std::string, std::string>> severity;
  std::optional<bool> werror;
  std::optional<int64_t> lnc;
  std::optional<int64_t> num_cores;
  std::optional<int64_t> replica_count;
  std::optional<int64_t> num_partitions;
  std::optional<int64_t> data_parallel_size;  // vLLM DP (CheckOptions)
  std::vector<std::pair<std::string, std::vector<std::string>>>
      per_file_ignores;
  // Path filters (path_filter.h), each a valid RE2 pattern.
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  std::optional<int64_t> max_findings;  // findings per rule and unit; 0: all
};

// Parses the text of a .topolint.json. An error message carries
// `path:line:col: ` so that the CLI can print it as is (exit 2).
absl::StatusOr<ProjectConfig> ParseProjectConfig(const std::string& text,
                                                 const std::string& path);

// Reads `path`.
absl::StatusOr<ProjectConfig> LoadProjectConfig(const std::string& path);

// Applies `cfg` to a unit's rule selection and check options (rules, then
// severities, per-file ignores, werror, lnc, num_cores, R, P). Errors name
// the config file.
absl::Status ApplyProjectConfig(const ProjectConfig& cfg,
                                RuleSelection* selection, CheckOptions* check);

// The nearest `.topolint.json` in `dir` or its ancestors, up to the root of
// the git work tree holding `dir` (a directory holding `.git`), or "": an
// absolute, lexically normal path (ProjectConfigFinder, which callers
// looking up many directories keep).
std::string FindProjectConfig(const std::string& dir);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_PROJECT_CONFIG_H_
