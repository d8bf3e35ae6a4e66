#include "checker/diag/baseline.h"

#include <algorithm>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "checker/diag/render.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace topolint {
namespace {

constexpr int kBaselineVersion = 1;

using Json = nlohmann::json;

// Reads an optional string member of `entry` into `*out`.
bool ReadString(const Json& entry, const char* key, size_t index, bool required,
                std::string* out, std::string* error) {
  auto it = entry.find(key);
  if (it == entry.end()) {
    if (!required) return true;
    *error = fmt::format("findings[{}]: missing \"{}\"", index, key);
    return false;
  }
  if (!it->is_string()) {
    *error = fmt::format("findings[{}].{}: expected a string", index, key);
    return false;
  }
  *out = it->get<std::string>();
  return true;
}

}  // namespace

std::string WriteBaseline(const std::vector<Finding>& findings) {
  std::vector<BaselineEntry> entries;
  entries.reserve(findings.size());
  for (const Finding& f : findings) {
    entries.push_back({f.rule, f.loc.file, Fingerprint(f), f.message});
  }
  std::sort(entries.begin(), entries.end(),
            [](const BaselineEntry& a, const BaselineEntry& b) {
              return std::tie(a.file, a.rule, a.fingerprint, a.message) <
                     std::tie(b.file, b.rule, b.fingerprint, b.message);
            });
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const BaselineEntry& e : entries) {
    list.push_back({{"rule", e.rule},
                    {"file", e.file},
                    {"fingerprint", e.fingerprint},
                    {"message", e.message}});
  }
  nlohmann::ordered_json doc;
  doc["version"] = kBaselineVersion;
  doc["findings"] = std::move(list);
  return doc.dump(2, ' ', false,
                  nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

std::optional<Baseline> LoadBaseline(std::string_view text,
                                     std::string* error) {
  // The non-throwing parse: a discarded value signals a syntax error.
  const Json doc = Json::parse(text.begin(), text.end(), nullptr,
                               /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    *error = "not valid JSON";
    return std::nullopt;
  }
  if (!doc.is_object()) {
    *error = "expected a JSON object with \"version\" and \"findings\"";
    return std::nullopt;
  }
  auto version = doc.find("version");
  if (version == doc.end()) {
    *error = "missing \"version\"";
    return std::nullopt;
  }
  if (!version->is_number_integer() ||
      version->get<int64_t>() != kBaselineVersion) {
    *error = fmt::format("unsupported baseline version {} (expected {})",
                         version->dump(), kBaselineVersion);
    return std::nullopt;
  }
  auto list = doc.find("findings");
  if (list == doc.end() || !list->is_array()) {
    *error = "\"findings\": expected an array";
    return std::nullopt;
  }
  Baseline baseline;
  baseline.entries.reserve(list->size());
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& entry = (*list)[i];
    if (!entry.is_object()) {
      *error = fmt::format("findings[{}]: expected an object", i);
      return std::nullopt;
    }
    BaselineEntry e;
    if (!ReadString(entry, "fingerprint", i, true, &e.fingerprint, error) ||
        !ReadString(entry, "rule", i, false, &e.rule, error) ||
        !ReadString(entry, "file", i, false, &e.file, error) ||
        !ReadString(entry, "message", i, false, &e.message, error)) {
      return std::nullopt;
    }
    if (e.fingerprint.empty()) {
      *error = fmt::format("findings[{}].fingerprint: must not be empty", i);
      return std::nullopt;
    }
    baseline.entries.push_back(std::move(e));
  }
  return baseline;
}

BaselineResult ApplyBaseline(std::vector<Finding> findings,
                             const Baseline& baseline) {
  absl::flat_hash_map<std::string, int64_t> remaining;
  for (const BaselineEntry& e : baseline.entries) ++remaining[e.fingerprint];
  BaselineResult result;
  for (Finding& f : findings) {
    auto it = remaining.find(Fingerprint(f));
    if (it != remaining.end() && it->second > 0) {
      --it->second;
      ++result.suppressed;
    } else {
      result.kept.push_back(std::move(f));
    }
  }
  for (const auto& [fingerprint, count] : remaining) result.stale += count;
  return result;
}

}  // namespace topolint
