#include "checker/core/project_config.h"

#include <iterator>

#include "absl/strings/ascii.h"
#include "checker/core/path_filter.h"
#include "checker/core/project_config_finder.h"
#include "checker/core/rule_selection.h"
#include "checker/diag/spelling.h"
#include "checker/io/input_file.h"
#include "checker/io/status_macros.h"
#include "checker/json/json_loader.h"
#include "fmt/format.h"

namespace topolint {
namespace {

absl::Status ErrorAt(const std::string& path, TextPos pos,
                     const std::string& msg) {
  return absl::InvalidArgumentError(
      fmt::format("{}:{}:{}: {}", path, pos.line, pos.column, msg));
}

absl::StatusOr<std::vector<std::string>> StringOrList(const std::string& path,
                                                      const json::Member& m) {
  std::vector<std::string> out;
  if (m.value.is_string()) {
    out.push_back(m.value.string_value);
    return out;
  }
  if (m.value.is_array()) {
    for (const json::Value& v : m.value.array) {
      if (!v.is_string()) {
        return ErrorAt(path, v.pos,
                       fmt::format("\"{}\" entries must be strings", m.key));
      }
      out.push_back(v.string_value);
    }
    return out;
  }
  return ErrorAt(
      path, m.value.pos,
      fmt::format("\"{}\" must be a string or a list of strings", m.key));
}

constexpr std::string_view kKeys[] = {"rules",
                                      "severity",
                                      "werror",
                                      "lnc",
                                      "num_cores",
                                      "replica_count",
                                      "num_partitions",
                                      "per_file_ignores",
                                      "include",
                                      "exclude",
                                      "data_parallel_size",
                                      "max_findings"};

// "include" / "exclude": a pattern or a list of them, each valid RE2 (the
// error names the string's position in the file and the column in it).
absl::StatusOr<std::vector<std::string>> PatternList(const std::string& path,
                                                     const json::Member& m) {
  TOPOLINT_ASSIGN_OR_RETURN(std::vector<std::string> list,
                            StringOrList(path, m));
  for (size_t i = 0; i < list.size(); ++i) {
    auto re = CompilePathPattern(list[i], fmt::format("\"{}\"", m.key));
    if (!re.ok()) {
      const json::Value& at = m.value.is_array() ? m.value.array[i] : m.value;
      return ErrorAt(path, at.pos, std::string(re.status().message()));
    }
  }
  return list;
}

// "unknown key "serverity"; did you mean "severity"? (expected ...)".
std::string UnknownKeyMessage(const std::string& key) {
  const std::string best =
      key.size() <= 64
          ? NearestSpelling(absl::AsciiStrToLower(key), kKeys, /*limit=*/2)
          : "";
  std::string hint =
      best.empty() ? "" : fmt::format("did you mean \"{}\"? ", best);
  return fmt::format("unknown key \"{}\"; {}(expected {} or {})", key, hint,
                     fmt::join(std::begin(kKeys), std::end(kKeys) - 1, ", "),
                     kKeys[std::size(kKeys) - 1]);
}

// "severity": {"rule": "level", ...}.
absl::Status ReadSeverity(const std::string& path, const json::Member& m,
                          ProjectConfig* cfg) {
  if (!m.value.is_object()) {
    return ErrorAt(path, m.value.pos, "\"severity\" must be an object");
  }
  for (const json::Member& s : m.value.object) {
    if (!s.value.is_string()) {
      return ErrorAt(path, s.value.pos,
                     "severity must be \"error\", \"warning\", \"note\" "
                     "or \"off\"");
    }
    cfg->severity.emplace_back(s.key, s.value.string_value);
  }
  return absl::OkStatus();
}

// "per_file_ignores": {"file glob": rule glob or [rule globs], ...}.
absl::Status ReadPerFileIgnores(const std::string& path, const json::Member& m,
                                ProjectConfig* cfg) {
  if (!m.value.is_object()) {
    return ErrorAt(path, m.value.pos,
                   "\"per_file_ignores\" must be an object of "
                   "file glob -> rule globs");
  }
  for (const json::Member& f : m.value.object) {
    TOPOLINT_ASSIGN_OR_RETURN(std::vector<std::string> v,
                              StringOrList(path, f));
    // A rule glob that matches no rule would silence nothing, silently.
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string& glob = v[i];
      if (GlobMatchesAnyRule(glob)) continue;
      const json::Value& at = f.value.is_array() ? f.value.array[i] : f.value;
      return ErrorAt(path, at.pos,
                     fmt::format("\"per_file_ignores\" rule glob '{}' "
                                 "(for files '{}') matches no rule{} "
                                 "(see `topolint rules`)",
                                 glob, f.key, SuggestRule(glob)));
    }
    cfg->per_file_ignores.emplace_back(f.key, std::move(v));
  }
  return absl::OkStatus();
}

// The field of an integer key >= 1 ("lnc", ...); null for other keys.
std::optional<int64_t> ProjectConfig::*IntField(const std::string& key) {
  static constexpr std::pair<std::string_view,
                             std::optional<int64_t> ProjectConfig::*>
      kFields[] = {{"lnc", &ProjectConfig::lnc},
                   {"num_cores", &ProjectConfig::num_cores},
                   {"replica_count", &ProjectConfig::replica_count},
                   {"num_partitions", &ProjectConfig::num_partitions},
                   {"data_parallel_size", &ProjectConfig::data_parallel_size}};
  for (const auto& [name, field] : kFields) {
    if (name == key) return field;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<ProjectConfig> ParseProjectConfig(const std::string& text,
                                                 const std::string& path) {
  json::ParseResult parsed = json::Parse(text);
  if (!parsed.ok) return ErrorAt(path, parsed.error.pos, parsed.error.message);
  const json::Value& root = parsed.root;
  if (!root.is_object()) {
    return ErrorAt(path, root.pos, "expected a JSON object");
  }
  ProjectConfig cfg;
  cfg.path = path;
  for (const json::Member& m : root.object) {
    if (m.key == "rules") {
      TOPOLINT_ASSIGN_OR_RETURN(cfg.rules, StringOrList(path, m));
    } else if (m.key == "severity") {
      if (absl::Status st = ReadSeverity(path, m, &cfg); !st.ok()) return st;
    } else if (m.key == "werror") {
      if (!m.value.is_bool()) {
        return ErrorAt(path, m.value.pos, "\"werror\" must be true or false");
      }
      cfg.werror = m.value.bool_value;
    } else if (std::optional<int64_t> ProjectConfig::*field = IntField(m.key)) {
      if (m.value.type != json::Type::kInt || m.value.int_value < 1) {
        return ErrorAt(
            path, m.value.pos,
            fmt::format("\"{}\" must be a positive integer, found {}", m.key,
                        m.value.TypeName()));
      }
      cfg.*field = m.value.int_value;
    } else if (m.key == "per_file_ignores") {
      if (absl::Status st = ReadPerFileIgnores(path, m, &cfg); !st.ok()) {
        return st;
      }
    } else if (m.key == "include" || m.key == "exclude") {
      auto v = PatternList(path, m);
      if (!v.ok()) return v.status();
      (m.key == "include" ? cfg.include : cfg.exclude) = *std::move(v);
    } else if (m.key == "max_findings") {
      if (m.value.type != json::Type::kInt || m.value.int_value < 0) {
        return ErrorAt(
            path, m.value.pos,
            fmt::format("\"max_findings\" must be an integer >= 0 (0: no "
                        "cap), found {}",
                        m.value.TypeName()));
      }
      cfg.max_findings = m.value.int_value;
    } else {
      return ErrorAt(path, m.key_pos, UnknownKeyMessage(m.key));
    }
  }
  return cfg;
}

absl::StatusOr<ProjectConfig> LoadProjectConfig(const std::string& path) {
  std::string text;
  if (absl::Status st =
          ReadInputFile(path, kMaxProjectConfigBytes, "settings files", &text);
      !st.ok()) {
    return absl::Status(
        st.code(), fmt::format("settings file {}", std::string(st.message())));
  }
  return ParseProjectConfig(text, path);
}

absl::Status ApplyProjectConfig(const ProjectConfig& cfg,
                                RuleSelection* selection, CheckOptions* check) {
  auto prefixed = [&](const absl::Status& st) {
    return absl::InvalidArgumentError(
        fmt::format("{}: {}", cfg.path, std::string(st.message())));
  };
  for (const std::string& g : cfg.rules) {
    if (absl::Status st = selection->ApplyGlobs(g); !st.ok()) {
      return prefixed(st);
    }
  }
  for (const auto& [rule, level] : cfg.severity) {
    if (absl::Status st = selection->SetSeverity(rule, level); !st.ok()) {
      return prefixed(st);
    }
  }
  for (const auto& [glob, rules] : cfg.per_file_ignores) {
    selection->AddFileIgnore(glob, rules);
  }
  if (cfg.werror) selection->set_werror(*cfg.werror);
  if (cfg.lnc) {
    check->lnc = *cfg.lnc;
    check->lnc_given = true;
    check->lnc_origin = ".topolint.json";
  }
  if (cfg.num_cores) check->num_cores = cfg.num_cores;
  if (cfg.replica_count) check->replica_count = cfg.replica_count;
  if (cfg.num_partitions) check->num_partitions = cfg.num_partitions;
  if (cfg.data_parallel_size) {
    check->data_parallel_size = cfg.data_parallel_size;
    check->data_parallel_size_origin = ".topolint.json";
  }
  if (cfg.max_findings) check->max_findings = *cfg.max_findings;
  return absl::OkStatus();
}

std::string FindProjectConfig(const std::string& dir) {
  return ProjectConfigFinder().Find(dir);
}

}  // namespace topolint
