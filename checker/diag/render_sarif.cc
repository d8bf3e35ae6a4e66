// The SARIF 2.1.0 renderer, shaped for GitHub code scanning uploads.
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "checker/diag/render.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace topolint {
namespace {

using Json = nlohmann::ordered_json;

// RFC 3986 path characters: unreserved, sub-delims, '@' and '/'. ':' is
// left out on purpose (see PathToUriReference).
bool KeepInUri(unsigned char c) {
  static constexpr std::string_view kAllowed = "-._~!$&'()*+,;=@/";
  return std::isalnum(c) || (c != '\0' && kAllowed.find(static_cast<char>(c)) !=
                                              std::string_view::npos);
}

// "xref-topology-mismatch" -> "XrefTopologyMismatch" (SARIF rule `name`).
std::string CamelCase(std::string_view id) {
  std::string out;
  bool upper = true;
  for (char c : id) {
    if (c == '-' || c == '_') {
      upper = true;
      continue;
    }
    out.push_back(
        upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
              : c);
    upper = false;
  }
  return out;
}

Json PhysicalLocation(const Location& loc) {
  Json pl;
  pl["artifactLocation"] = {{"uri", PathToUriReference(loc.file)}};
  if (loc.line > 0) {
    Json region;
    region["startLine"] = loc.line;
    if (loc.column > 0) region["startColumn"] = loc.column;
    pl["region"] = std::move(region);
  } else if (loc.byte_offset >= 0) {  // a binary input (HLO proto)
    pl["region"] = {{"byteOffset", loc.byte_offset}};
  }
  return pl;
}

// Binary inputs: the computation and op as a logical location.
void AddLogicalLocation(const Location& loc, Json* location) {
  if (loc.byte_offset < 0 || loc.logical.empty()) return;
  (*location)["logicalLocations"] = Json::array(
      {{{"fullyQualifiedName", loc.logical}, {"kind", "function"}}});
}

Json RuleObject(const RuleDescriptor& r) {
  const std::string& full = r.description.empty() ? r.summary : r.description;
  Json rule;
  rule["id"] = r.id;
  rule["name"] = CamelCase(r.id);
  rule["shortDescription"] = {{"text", r.summary}};
  rule["fullDescription"] = {{"text", full}};
  if (r.help_uri.empty()) {
    rule["help"] = {{"text", full}, {"markdown", full}};
  } else {
    rule["help"] = {{"text", fmt::format("{}\n\nSee {}", full, r.help_uri)},
                    {"markdown", fmt::format("{}\n\nSee [{}]({}).", full, r.id,
                                             r.help_uri)}};
    rule["helpUri"] = r.help_uri;
  }
  rule["defaultConfiguration"] = {
      {"level", std::string(SeverityName(r.default_severity))}};
  return rule;
}

Json ResultObject(const Finding& f,
                  const absl::flat_hash_map<std::string, size_t>& rule_index) {
  Json result;
  result["ruleId"] = f.rule;
  auto it = rule_index.find(f.rule);
  if (it != rule_index.end()) result["ruleIndex"] = it->second;
  result["level"] = std::string(SeverityName(f.severity));
  result["message"] = {{"text", f.message}};
  Json primary;
  primary["physicalLocation"] = PhysicalLocation(f.loc);
  AddLogicalLocation(f.loc, &primary);
  result["locations"] = Json::array();
  result["locations"].push_back(std::move(primary));
  if (!f.notes.empty()) {
    Json related = Json::array();
    for (size_t i = 0; i < f.notes.size(); ++i) {
      Json note = {{"id", i},
                   {"physicalLocation", PhysicalLocation(f.notes[i].loc)},
                   {"message", {{"text", f.notes[i].message}}}};
      AddLogicalLocation(f.notes[i].loc, &note);
      related.push_back(std::move(note));
    }
    result["relatedLocations"] = std::move(related);
  }
  result["partialFingerprints"] = {{"topolint/v1", Fingerprint(f)}};
  return result;
}

}  // namespace

std::string PathToUriReference(std::string_view path) {
  std::string out;
  if (!path.empty() && path.front() == '/') out = "file://";
  for (unsigned char c : path) {
    if (KeepInUri(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string RenderSarif(const std::vector<Finding>& findings,
                        const std::vector<RuleDescriptor>& rules,
                        std::string_view tool_version) {
  absl::flat_hash_map<std::string, size_t> rule_index;
  Json driver;
  driver["name"] = "topolint";
  if (!tool_version.empty()) driver["version"] = std::string(tool_version);
  driver["informationUri"] = std::string(kTopolintInformationUri);
  Json rule_list = Json::array();
  for (const RuleDescriptor& r : rules) {
    if (!rule_index.emplace(r.id, rule_list.size()).second) continue;
    rule_list.push_back(RuleObject(r));
  }
  driver["rules"] = std::move(rule_list);

  Json results = Json::array();
  for (const Finding& f : findings)
    results.push_back(ResultObject(f, rule_index));

  // Columns are byte offsets; SARIF's default columnKind (UTF-16 code units)
  // is not claimed to be anything else, so no columnKind is written.
  Json run;
  run["tool"] = {{"driver", std::move(driver)}};
  run["results"] = std::move(results);

  Json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = Json::array();
  log["runs"].push_back(std::move(run));
  return log.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace topolint
