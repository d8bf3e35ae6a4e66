// The C interface (include/topolint/topolint_c.h): a JSON request in, the
// `--format json` rendering of the findings out. Built into the shared
// library topolint_c (cmake/Install.cmake); nlohmann exceptions and every
// other exception stay inside this file.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/escaping.h"
#include "checker/api/api_internal.h"
#include "checker/diag/render.h"
#include "checker/explain/explain.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "topolint/topolint.h"
#include "topolint/topolint_c.h"

namespace topolint::api {
namespace {

using nlohmann::json;

absl::Status Bad(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

absl::Status ReadPositive(const json& v, const std::string& key,
                          std::optional<int64_t>* out) {
  if (v.is_number_unsigned() &&
      v.get<uint64_t>() <=
          static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    *out = static_cast<int64_t>(v.get<uint64_t>());
  } else if (v.is_number_integer()) {
    *out = v.get<int64_t>();
  } else {
    return Bad(fmt::format("options.{} must be a positive integer", key));
  }
  if (**out < 1) {
    return Bad(fmt::format("options.{} must be a positive integer, got {}", key,
                           **out));
  }
  return absl::OkStatus();
}

absl::Status ReadOptions(const json& o, Options* options) {
  if (!o.is_object()) return Bad("\"options\" must be an object");
  for (const auto& [key, v] : o.items()) {
    absl::Status st;
    if (key == "lnc") {
      st = ReadPositive(v, key, &options->lnc);
    } else if (key == "num_cores") {
      st = ReadPositive(v, key, &options->num_cores);
    } else if (key == "replica_count") {
      st = ReadPositive(v, key, &options->replica_count);
    } else if (key == "num_partitions") {
      st = ReadPositive(v, key, &options->num_partitions);
    } else if (key == "werror") {
      if (!v.is_boolean()) return Bad("options.werror must be true or false");
      options->werror = v.get<bool>();
    } else if (key == "severity") {
      if (!v.is_object()) {
        return Bad("options.severity must be an object: rule -> level");
      }
      for (const auto& [rule, level] : v.items()) {
        if (!level.is_string()) {
          return Bad(
              fmt::format("options.severity.{} must be \"error\", \"warning\", "
                          "\"note\" or \"off\"",
                          rule));
        }
        options->severity.emplace_back(rule, level.get<std::string>());
      }
    } else if (key == "baseline") {
      if (!v.is_string()) return Bad("options.baseline must be a path string");
      options->baseline = v.get<std::string>();
    } else if (key == "config") {
      if (!v.is_string()) return Bad("options.config must be a path string");
      options->project_config = v.get<std::string>();
    } else if (key == "rules") {
      if (v.is_string()) {
        options->rules.push_back(v.get<std::string>());
      } else if (v.is_array()) {
        for (const json& g : v) {
          if (!g.is_string())
            return Bad("options.rules entries must be strings");
          options->rules.push_back(g.get<std::string>());
        }
      } else {
        return Bad("options.rules must be a string or a list of strings");
      }
    } else {
      return Bad(fmt::format(
          "unknown option \"{}\"; expected lnc, num_cores, replica_count, "
          "num_partitions, rules, severity, werror, baseline or config",
          key));
    }
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

// The kind a request names ("hlo"); false for a name that is none.
bool KindNamed(std::string_view name, InputKind* kind) {
  static constexpr std::pair<std::string_view, InputKind> kKinds[] = {
      {"auto", InputKind::kAuto},
      {"hlo", InputKind::kHlo},
      {"def_json", InputKind::kDefJson},
      {"component_config", InputKind::kComponentConfig},
      {"neff", InputKind::kNeff}};
  for (const auto& [n, k] : kKinds) {
    if (n == name) {
      *kind = k;
      return true;
    }
  }
  return false;
}

absl::Status ReadKind(const json& file, size_t i, InputKind* kind) {
  auto it = file.find("kind");
  if (it == file.end() ||
      (it->is_string() && KindNamed(it->get_ref<const std::string&>(), kind))) {
    return absl::OkStatus();
  }
  return Bad(
      fmt::format("files[{}].kind must be \"auto\", \"hlo\", "
                  "\"def_json\", \"component_config\" or \"neff\"",
                  i));
}

// The content of files[i]: its "text", or the bytes its "base64" encodes
// (standard alphabet, padding optional; exactly one of the two).
absl::Status ReadContent(json& file, size_t i, std::string* content) {
  auto text = file.find("text"), b64 = file.find("base64");
  if ((text == file.end()) == (b64 == file.end())) {
    return Bad(fmt::format(
        "files[{}] needs exactly one of \"text\" (a string) and \"base64\" "
        "(binary content: a .neff, a binary HLO module)",
        i));
  }
  if (text != file.end()) {
    if (!text->is_string()) {
      return Bad(fmt::format("files[{}].text must be a string", i));
    }
    // Moved out of the request, not copied: a 500 MB text is held once.
    *content = std::move(text->get_ref<std::string&>());
    return absl::OkStatus();
  }
  if (!b64->is_string() ||
      !absl::Base64Unescape(b64->get_ref<const std::string&>(), content)) {
    return Bad(fmt::format(
        "files[{}].base64 is not valid base64 (standard alphabet A-Z a-z 0-9 "
        "+ /, '=' padding)",
        i));
  }
  return absl::OkStatus();
}

absl::Status ReadFiles(json& files, Unit* unit) {
  if (!files.is_array()) return Bad("\"files\" must be a list");
  for (size_t i = 0; i < files.size(); ++i) {
    json& f = files[i];
    if (!f.is_object())
      return Bad(fmt::format("files[{}] must be an object", i));
    for (const auto& [key, v] : f.items()) {
      if (key != "name" && key != "text" && key != "base64" && key != "kind") {
        return Bad(
            fmt::format("files[{}]: unknown key \"{}\"; expected name, "
                        "text, base64 or kind",
                        i, key));
      }
    }
    auto name = f.find("name");
    if (name == f.end() || !name->is_string()) {
      return Bad(fmt::format("files[{}].name must be a string", i));
    }
    std::string content;
    if (absl::Status st = ReadContent(f, i, &content); !st.ok()) return st;
    InputKind kind = InputKind::kAuto;
    if (absl::Status st = ReadKind(f, i, &kind); !st.ok()) return st;
    Status st =
        unit->AddText(name->get<std::string>(), std::move(content), kind);
    if (!st.ok()) return Bad(st.message);
  }
  return absl::OkStatus();
}

// "search": paths checked as `topolint check PATH...` checks them.
absl::Status ReadSearch(const json& search, std::vector<std::string>* out) {
  if (!search.is_array() || search.empty()) {
    return Bad("\"search\" must be a non-empty list of path strings");
  }
  for (size_t i = 0; i < search.size(); ++i) {
    if (!search[i].is_string()) {
      return Bad(fmt::format("search[{}] must be a string", i));
    }
    out->push_back(search[i].get<std::string>());
  }
  return absl::OkStatus();
}

absl::Status ReadPaths(const json& paths, Unit* unit) {
  if (!paths.is_array()) return Bad("\"paths\" must be a list of strings");
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!paths[i].is_string()) {
      return Bad(fmt::format("paths[{}] must be a string", i));
    }
    const std::string& path = paths[i].get_ref<const std::string&>();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      return Bad(fmt::format(
          "paths[{}]: {} is a directory; \"paths\" are the files of one "
          "unit: use \"search\" to check directories as the CLI does",
          i, path));
    }
    Status st = unit->AddFile(path);
    if (st.code == Status::Code::kNotFound) {
      return absl::NotFoundError(st.message);
    }
    if (!st.ok()) return Bad(st.message);
  }
  return absl::OkStatus();
}

// {"error": message, "code": code}: `code` says what went wrong, for
// programs ("invalid_request": the request itself; "invalid_argument": an
// option, rule glob, severity or settings file; "not_found": a path that
// does not exist or cannot be opened; "unreadable": a read error or an
// input over the limits; "internal": a bug).
std::string ErrorResponse(const std::string& code, const std::string& message) {
  return json{{"error", message}, {"code", code}}.dump(
             -1, ' ', false, json::error_handler_t::replace) +
         "\n";
}

// The error response of a failed check or explain (or an option or path
// the request names), coded by its status.
std::string StatusResponse(const absl::Status& st) {
  std::string code = "unreadable";
  if (absl::IsInvalidArgument(st)) code = "invalid_argument";
  if (absl::IsNotFound(st)) code = "not_found";
  return ErrorResponse(code, std::string(st.message()));
}

// `topolint explain --format json` for one unit, with `options`' settings.
absl::Status ExplainUnitJson(const Unit& unit, const Options& options,
                             std::string* out) {
  UnitSpec spec;
  std::vector<InMemoryInput> in_memory;
  if (absl::Status st = internal::BuildSpec(unit, &spec, &in_memory);
      !st.ok()) {
    return st;
  }
  RuleSelection selection;
  explain::ExplainSettings settings;
  if (absl::Status st = internal::BuildSettings(options, spec.directory,
                                                &selection, &settings.check);
      !st.ok()) {
    return st;
  }
  topolint::Unit loaded;
  if (absl::Status st = LoadUnit(spec, in_memory, &loaded); !st.ok()) {
    return st;
  }
  *out = explain::RenderExplainJson({explain::ExplainUnit(loaded, settings)});
  return absl::OkStatus();
}

enum class Verb { kCheck, kExplain };

// topolint_check_text's input: the caller's bytes, read in place.
struct BorrowedInput {
  const char* name = nullptr;
  const char* kind = nullptr;  // NULL: "auto"
  const char* data = nullptr;
  size_t size = 0;
};

// Adds `in` to `unit` without copying its bytes.
absl::Status AddBorrowed(const BorrowedInput& in, Unit* unit) {
  if (in.name == nullptr || *in.name == '\0') {
    return Bad(
        "the input's name is NULL or empty; expected its display "
        "name, e.g. \"out/model.hlo\"");
  }
  if (in.data == nullptr && in.size != 0) {
    return Bad("the input's data is NULL but its size is not 0");
  }
  InputKind kind = InputKind::kAuto;
  if (in.kind != nullptr && !KindNamed(in.kind, &kind)) {
    return Bad(fmt::format(
        "kind \"{}\" is not one of \"auto\", \"hlo\", \"def_json\", "
        "\"component_config\" and \"neff\"",
        in.kind));
  }
  Status st =
      unit->AddTextView(in.name, std::string_view(in.data, in.size), kind);
  if (!st.ok()) return Bad(st.message);
  return absl::OkStatus();
}

// The response text for a request text (and, from topolint_check_text, one
// more input given as bytes).
std::string Respond(const char* request_json, Verb verb,
                    const BorrowedInput* borrowed = nullptr) {
  auto error = [](const std::string& message) {
    return ErrorResponse("invalid_request", message);
  };
  if (request_json == nullptr && borrowed != nullptr) request_json = "{}";
  if (request_json == nullptr) return error("the request is NULL");
  json request;
  // Values nested deeper than kMaxRequestDepth are dropped while parsing
  // (the callback), so nothing recursive ever meets a deep tree.
  constexpr int kMaxRequestDepth = 64;
  bool too_deep = false;
  try {
    request =
        json::parse(request_json, [&](int depth, json::parse_event_t, json&) {
          if (depth > kMaxRequestDepth) too_deep = true;
          return depth <= kMaxRequestDepth;
        });
  } catch (const json::exception& e) {
    return error(fmt::format("the request is not valid JSON: {}", e.what()));
  }
  if (too_deep) {
    return error(fmt::format("the request is nested deeper than {} levels",
                             kMaxRequestDepth));
  }
  if (!request.is_object()) return error("the request must be a JSON object");
  Unit unit;
  Options options;
  std::vector<std::string> search;
  if (borrowed != nullptr) {
    // First: its directory is the unit's (as the first input's).
    if (absl::Status st = AddBorrowed(*borrowed, &unit); !st.ok()) {
      return error(std::string(st.message()));
    }
  }
  for (auto& [key, v] : request.items()) {
    absl::Status st;
    if (key == "search") {
      st = ReadSearch(v, &search);
    } else if (key == "files") {
      st = ReadFiles(v, &unit);
    } else if (key == "paths") {
      st = ReadPaths(v, &unit);
      if (absl::IsNotFound(st)) {
        return StatusResponse(st);
      }
    } else if (key == "options") {
      st = ReadOptions(v, &options);
      if (!st.ok()) return StatusResponse(st);
    } else {
      st = Bad(fmt::format(
          "unknown request key \"{}\"; expected files, paths, search or "
          "options",
          key));
    }
    if (!st.ok()) return error(std::string(st.message()));
  }
  if (!search.empty()) {
    if (!unit.empty()) {
      return error(
          "\"search\" checks paths as the command line does (each unit on "
          "its own); it cannot be combined with \"files\" or \"paths\" "
          "(one unit)");
    }
    if (verb == Verb::kExplain) {
      return error("\"search\" is for topolint_check_json only");
    }
    // As the CLI: each unit takes the nearest .topolint.json unless the
    // request names one.
    options.search_project_config = true;
  } else if (verb == Verb::kExplain) {
    std::string out;
    if (absl::Status st = ExplainUnitJson(unit, options, &out); !st.ok()) {
      return StatusResponse(st);
    }
    return out;
  }
  std::vector<topolint::Finding> findings;
  SarifRoots roots;
  const absl::Status st =
      search.empty()
          ? internal::CheckUnitFindings(unit, options, &findings, &roots)
          : internal::CheckPathsFindings(search, options, &findings, &roots);
  if (!st.ok()) return StatusResponse(st);
  return RenderJson(findings, &roots);
}

}  // namespace
}  // namespace topolint::api

extern "C" {

namespace {

char* RespondOrNull(const char* request_json, topolint::api::Verb verb,
                    const topolint::api::BorrowedInput* borrowed = nullptr) {
  // A response is JSON, which holds no NUL byte: strdup copies it whole,
  // with malloc (topolint_free frees it). NULL when memory is refused.
  try {
    return strdup(topolint::api::Respond(request_json, verb, borrowed).c_str());
  } catch (const std::exception& e) {
    try {
      return strdup(topolint::api::ErrorResponse(
                        "internal", std::string("internal error: ") + e.what())
                        .c_str());
    } catch (...) {
      return nullptr;
    }
  } catch (...) {
    return nullptr;
  }
}

}  // namespace

char* topolint_check_json(const char* request_json) {
  return RespondOrNull(request_json, topolint::api::Verb::kCheck);
}

char* topolint_check_text(const char* request_json, const char* name,
                          const char* kind, const char* data, size_t size) {
  const topolint::api::BorrowedInput in{name, kind, data, size};
  return RespondOrNull(request_json, topolint::api::Verb::kCheck, &in);
}

char* topolint_explain_json(const char* request_json) {
  return RespondOrNull(request_json, topolint::api::Verb::kExplain);
}

void topolint_free(char* response) { std::free(response); }

const char* topolint_version(void) { return topolint::api::Version(); }

}  // extern "C"
