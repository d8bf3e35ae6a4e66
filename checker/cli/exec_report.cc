#include "checker/cli/exec_report.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "checker/cli/commands.h"
#include "checker/diag/render_dump.h"
#include "checker/diag/render_sarif.h"
#include "nlohmann/json.hpp"

namespace topolint::cli {
namespace {

using Json = nlohmann::ordered_json;

// Runs `topolint check` with `options`, its report written to `fd`.
int RunCheckInto(const Options& options, int fd) {
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0) {
    if (saved >= 0) close(saved);
    Err("topolint: error: exec: cannot redirect the report\n");
    return kExitUsage;
  }
  // As RunCheck, but without the summary's hint on fixes: exec refuses
  // --fix and --diff, and its own messages say what happens to the compile.
  const CheckSummary summary = RunCheckCounted(options);
  PrintCheckSummary(options, summary, /*hint_fixes=*/false);
  const int rc = summary.code;
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  return rc;
}

// The bytes of the temporary file `f`, from its start.
std::string ReadBack(std::FILE* f) {
  std::string out;
  std::rewind(f);
  char buf[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out.append(buf, n);
  return out;
}

// Adds `offset` to every index into run.artifacts that `v` holds: an
// artifactLocation's (or an artifact's location's) index, and an
// artifact's parentIndex.
void ShiftArtifactIndices(Json& v, int64_t offset) {
  if (v.is_array()) {
    for (Json& e : v) ShiftArtifactIndices(e, offset);
    return;
  }
  if (!v.is_object()) return;
  for (auto it = v.begin(); it != v.end(); ++it) {
    Json& value = it.value();
    if (it.key() == "parentIndex" && value.is_number_integer()) {
      value = value.get<int64_t>() + offset;
    } else if ((it.key() == "artifactLocation" || it.key() == "location") &&
               value.is_object() && value.contains("index") &&
               value["index"].is_number_integer()) {
      value["index"] = value["index"].get<int64_t>() + offset;
    }
    ShiftArtifactIndices(value, offset);
  }
}

}  // namespace

std::string MergeJsonReports(const std::vector<std::string>& documents) {
  Json all = Json::array();
  for (const std::string& d : documents) {
    Json findings = Json::parse(d, nullptr, /*allow_exceptions=*/false);
    if (!findings.is_array()) continue;  // a phase that wrote no report
    for (Json& f : findings) all.push_back(std::move(f));
  }
  return DumpJson(all) + "\n";
}

// The rules of `run` (tool.driver.rules) that `base` lacks are appended to
// base's, and each result of `run` gets the ruleIndex of its rule there.
void MergeRules(Json& run, Json* base) {
  auto rules_of = [](Json& r) -> Json* {
    if (!r.contains("tool") || !r["tool"].contains("driver")) return nullptr;
    Json& driver = r["tool"]["driver"];
    if (!driver.contains("rules") || !driver["rules"].is_array()) {
      driver["rules"] = Json::array();
    }
    return &driver["rules"];
  };
  Json* from = rules_of(run);
  Json* to = rules_of(*base);
  if (from == nullptr || to == nullptr) return;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < to->size(); ++i) {
    index.emplace((*to)[i].value("id", std::string()), i);
  }
  for (Json& result : run["results"]) {
    if (!result.contains("ruleIndex") ||
        !result["ruleIndex"].is_number_integer()) {
      continue;
    }
    const int64_t old = result["ruleIndex"].get<int64_t>();
    if (old < 0 || static_cast<size_t>(old) >= from->size()) {
      result.erase("ruleIndex");
      continue;
    }
    const Json& rule = (*from)[static_cast<size_t>(old)];
    auto [it, added] =
        index.emplace(rule.value("id", std::string()), to->size());
    if (added) to->push_back(rule);
    result["ruleIndex"] = it->second;
  }
}

std::string MergeSarifReports(const std::vector<std::string>& documents) {
  Json merged;
  for (const std::string& d : documents) {
    Json log = Json::parse(d, nullptr, /*allow_exceptions=*/false);
    if (!log.is_object() || !log.contains("runs") || !log["runs"].is_array() ||
        log["runs"].empty()) {
      continue;  // a phase that wrote no report
    }
    if (merged.is_null()) {
      merged = std::move(log);
      continue;
    }
    // Each run lists the rules it has results of: the later run's results
    // point into the first's list, which gains the rules it lacked; the
    // later run's artifacts go after the first's.
    Json& base = merged["runs"][0];
    Json& run = log["runs"][0];
    MergeRules(run, &base);
    const int64_t offset = base.contains("artifacts")
                               ? static_cast<int64_t>(base["artifacts"].size())
                               : 0;
    if (run.contains("artifacts") && !run["artifacts"].empty()) {
      if (!base.contains("artifacts")) base["artifacts"] = Json::array();
      for (Json& a : run["artifacts"]) {
        ShiftArtifactIndices(a, offset);
        base["artifacts"].push_back(std::move(a));
      }
    }
    for (Json& r : run["results"]) {
      ShiftArtifactIndices(r, offset);
      base["results"].push_back(std::move(r));
    }
    if (run.contains("invocations") && !base.contains("invocations")) {
      base["invocations"] = std::move(run["invocations"]);
    }
  }
  if (merged.is_null()) return "";
  CapSarifRun(&merged["runs"][0]);
  return DumpJson(merged) + "\n";
}

ExecReport::ExecReport(const Options& check)
    : check_(check),
      one_document_(check.format == Format::kJson ||
                    check.format == Format::kSarif) {}

absl::Status ExecReport::Open(const std::string& path) {
  if (path.empty()) return absl::OkStatus();
  if (absl::Status st = staged_.Open(path); !st.ok()) return st;
  staged_open_ = true;
  return absl::OkStatus();
}

void ExecReport::Write(const std::string& text) {
  if (!error_.ok() || text.empty()) return;
  error_ = staged_open_ ? staged_.Write(text)
                        : WriteAllFd(STDERR_FILENO, text, "standard error");
}

int ExecReport::RunPhase(const Options& options) {
  // Text to standard error streams as the check goes; everything else is
  // kept whole first (a document to merge, or bytes for the staged file).
  if (!one_document_ && !staged_open_) {
    return RunCheckInto(options, STDERR_FILENO);
  }
  std::FILE* kept = std::tmpfile();
  if (kept == nullptr) {
    Err("topolint: error: exec: cannot keep the report (no temporary file)\n");
    return kExitUsage;
  }
  const int rc = RunCheckInto(options, fileno(kept));
  std::string text = ReadBack(kept);
  std::fclose(kept);
  if (one_document_) {
    documents_.push_back(std::move(text));
  } else {
    Write(text);
  }
  return rc;
}

absl::Status ExecReport::Finish(bool commit) {
  if (one_document_) {
    std::string doc = check_.format == Format::kJson
                          ? MergeJsonReports(documents_)
                          : MergeSarifReports(documents_);
    if (doc.empty()) doc = RenderEmptyReport(check_);
    Write(doc);
  }
  if (staged_open_ && error_.ok()) {
    error_ = staged_.Finish();
    if (error_.ok() && commit) error_ = staged_.Commit();
  }
  return error_;
}

}  // namespace topolint::cli
