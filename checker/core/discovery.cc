#include "checker/core/discovery.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "absl/strings/match.h"
#include "checker/config/component_config.h"
#include "checker/core/layout_groups.h"
#include "checker/core/unit_sources.h"
#include "checker/hlo/dispatch/parse_any.h"
#include "checker/hlo/mlir/mlir_reader.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/io/input_file.h"
#include "checker/io/repo_paths.h"
#include "checker/io/status_macros.h"
#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"
#include "fmt/format.h"

namespace topolint {
namespace fs = std::filesystem;
namespace {

// Reads a JSON file met while searching, up to the loader's limit; on
// failure, says why.
bool ReadSmallFile(const std::string& path, std::string* out,
                   std::string* why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = fmt::format("cannot be opened ({})", std::strerror(errno));
    return false;
  }
  char buf[65536];
  while (in.read(buf, sizeof(buf)) || in.gcount() > 0) {
    out->append(buf, static_cast<size_t>(in.gcount()));
    if (out->size() > kMaxJsonFileBytes) {
      *why = fmt::format("more than {} bytes, the limit for JSON inputs",
                         kMaxJsonFileBytes);
      return false;
    }
  }
  if (in.bad()) *why = "a read error";
  return !in.bad();
}

// A `.mlir` file is StableHLO text unless its head says it is bytecode or
// another dialect (checker/hlo/mlir/mlir_reader.h, SniffMlir); false, with
// `c` untouched, for a StableHLO one.
bool UnreadMlir(ClassifiedFile* c) {
  std::ifstream in(c->file.path, std::ios::binary);
  if (!in) return false;  // the loader says why
  std::string head(64 << 10, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  switch (hlo::SniffMlir(head)) {
    case hlo::MlirSniff::kBytecode:
      c->reason = hlo::MlirBytecodeAdvice();
      break;
    case hlo::MlirSniff::kOtherDialect:
      c->reason = hlo::MlirOtherDialectAdvice();
      break;
    case hlo::MlirSniff::kNotMlir:
      if (head.find_first_not_of(" \t\r\n") == std::string::npos) {
        return false;  // empty: nothing to check, nothing missed
      }
      c->reason =
          "a .mlir file whose first op is none the StableHLO reader knows "
          "(module, func.func, \"builtin.module\"): topolint reads "
          "StableHLO / MHLO text; for a JAX function print "
          "`jax.jit(f).lower(x).as_text()`";
      break;
    case hlo::MlirSniff::kStableHlo:
      return false;
  }
  c->role = FileRole::kUnread;
  return true;
}

// The role of an input of `kind` other than kJson: an HLO module or a NEFF
// (the kinds ClassifyName and ClassifyFile give).
FileRole RoleOf(InputKind kind) {
  return kind == InputKind::kNeff ? FileRole::kNeff : FileRole::kHlo;
}

// The .json files whose name says what they are.
bool JsonRoleByName(std::string_view base, FileRole* role) {
  if (base != "def.json" && base != "neuron_config.json") return false;
  *role = base == "def.json" ? FileRole::kDefJson : FileRole::kConfig;
  return true;
}

// What a .json file is: by name, then by content.
void ClassifyJson(ClassifiedFile* c) {
  const std::string& path = c->file.path;
  std::string text, why;
  if (!ReadSmallFile(path, &text, &why)) {
    // Named: loaded anyway, for the loader's error. Met while searching: it
    // may be a def.json or a config that nothing checked.
    c->role = c->file.named ? FileRole::kJson : FileRole::kUnread;
    c->reason = fmt::format(
        "a .json that was not read ({}), so whether it is a NEFF def.json "
        "or a component config is not known",
        why);
    return;
  }
  json::ParseResult parsed = json::Parse(text);
  if (!parsed.ok) {
    // Named: loaded anyway, to report json-syntax.
    c->role = c->file.named ? FileRole::kJson : FileRole::kNone;
    c->reason = fmt::format("not valid JSON ({}:{}: {})", parsed.error.pos.line,
                            parsed.error.pos.column, parsed.error.message);
    return;
  }
  if (neff::IsDefJson(parsed.root)) {
    c->role = FileRole::kDefJson;
  } else if (config::LooksLikeComponentConfig(parsed.root)) {
    c->role = FileRole::kConfig;
    c->config =
        std::make_shared<config::ComponentConfigData>(std::move(parsed.root));
  } else {
    c->role = FileRole::kNone;
    c->reason =
        "JSON that is neither a NEFF def.json (no CCInfo) nor a component "
        "config (no parallelism key or neuron_config section)";
  }
}

// Binary HLO names: a proto (or gzip of one) is only an input when its
// content says so; other `.pb` files (metaneff.pb, TensorFlow graphs) are
// not ours. `.hlo_module.pb` / `.hlo.pb` are always HLO.
bool IsGenericProtoName(const std::string& path) {
  return (absl::EndsWith(path, ".pb") || absl::EndsWith(path, ".pb.gz")) &&
         !absl::EndsWith(path, ".hlo_module.pb") &&
         !absl::EndsWith(path, ".hlo.pb");
}

// The role of a file whose name says what it is (a compile cache's
// model.hlo, def.json, compile_flags.json, model.done); false, with `c`
// untouched, when its content must be read (ClassifyByContent).
bool ClassifyByName(ClassifiedFile* c) {
  const std::string& path = c->file.path;
  const std::string_view base = BaseName(path);
  const bool named = c->file.named;
  if (!named && (base == "model.done" || base == "model.log" ||
                 absl::EndsWith(path, ".lock"))) {
    c->role = FileRole::kCacheMarker;
    return true;
  }
  if (base == "compile_flags.json") {
    c->role = FileRole::kCompileFlags;
    return true;
  }
  if (base.size() > 7 && absl::EndsWith(path, ".mlirbc")) {
    c->role = FileRole::kUnread;
    c->reason = hlo::MlirBytecodeAdvice();
    return true;
  }
  if (!named && base == "wrapped_neff.hlo") {
    c->role = FileRole::kNone;
    c->reason =
        "NxD's NEFF wrapper stub (it wraps the compiled NEFF; the module "
        "compiled is model/graph.hlo)";
    return true;
  }
  if (absl::EndsWith(path, ".mlir") && UnreadMlir(c)) return true;
  InputKind kind;
  if (!ClassifyName(path, &kind) || IsGenericProtoName(path)) return false;
  if (kind == InputKind::kJson) return JsonRoleByName(base, &c->role);
  c->role = RoleOf(kind);
  return true;
}

// The role of a file ClassifyByName left, from its content.
void ClassifyByContent(ClassifiedFile* c) {
  const std::string& path = c->file.path;
  InputKind kind;
  if (!ClassifyFile(path, &kind)) {
    c->role = FileRole::kNone;
    c->reason =
        "not a recognised input (HLO text or proto, StableHLO text, NEFF "
        "def.json or .neff, component config, compile_flags.json)";
    return;
  }
  if (kind == InputKind::kJson) {
    ClassifyJson(c);
  } else {
    c->role = RoleOf(kind);
  }
}

}  // namespace

void ClassifyFound(ClassifiedFile* c) {
  if (!ClassifyByName(c)) ClassifyByContent(c);
}

std::string ParentDirectory(const std::string& path) {
  std::string p = fs::path(path).parent_path().generic_string();
  return p.empty() ? "." : p;
}

bool ClassifyName(const std::string& name, InputKind* kind) {
  // `.pb` takes `.hlo_module.pb` and `.hlo.pb` too.
  if (absl::EndsWith(name, ".hlo") || absl::EndsWith(name, ".hlo.txt") ||
      absl::EndsWith(name, ".pb") || absl::EndsWith(name, ".pb.gz") ||
      absl::EndsWith(name, ".mlir")) {
    *kind = InputKind::kHlo;
  } else if (absl::EndsWith(name, ".json")) {
    *kind = InputKind::kJson;
  } else if (absl::EndsWith(name, ".neff")) {
    *kind = InputKind::kNeff;
  } else {
    return false;
  }
  return true;
}

namespace {

// A generic `.pb` is HLO when its head reads as an HloModuleProto, bare or
// inside up to two wrappers (HloProto, HloSnapshot, ...; each puts the
// module, or the next wrapper, in field 1): the module's first field is its
// name (printable), followed by entry_computation_name (2) or computations
// (3); or it starts with computations. Other `.pb` files (metaneff.pb,
// TensorFlow graphs) fail this and are left alone.
bool LooksLikeHloProtoHead(std::string_view head) {
  size_t p = 0;
  for (int level = 0; level < 3; ++level) {
    if (p >= head.size()) return false;
    const unsigned char tag = static_cast<unsigned char>(head[p]);
    if (tag == 0x1a) return true;  // computations first (no name)
    if (tag != 0x0a) return false;
    ++p;
    uint64_t len = 0;
    int shift = 0;
    while (p < head.size() && shift < 35) {
      const unsigned char b = static_cast<unsigned char>(head[p++]);
      len |= static_cast<uint64_t>(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    if (p >= head.size() || len == 0) return false;
    const unsigned char first = static_cast<unsigned char>(head[p]);
    if (first < 0x20) continue;  // a wrapper: the module is inside
    // The module's name: printable, then field 2 or 3.
    for (uint64_t i = 0; i < len; ++i) {
      if (p + i >= head.size()) return true;  // a long name: plausible
      const unsigned char c = static_cast<unsigned char>(head[p + i]);
      if (c < 0x20 || c == 0x7f) return false;
    }
    if (p + len >= head.size()) return true;
    const unsigned char next = static_cast<unsigned char>(head[p + len]);
    return next == 0x12 || next == 0x1a;
  }
  return false;
}

}  // namespace

bool LooksLikeHloBinaryHead(std::string_view head) {
  switch (hlo::SniffHloEncoding(head)) {
    case hlo::HloEncoding::kGzip:
      return true;
    case hlo::HloEncoding::kProto:
      return LooksLikeHloProtoHead(head);
    case hlo::HloEncoding::kText:
      break;
  }
  return false;
}

bool ClassifyFile(const std::string& path, InputKind* kind) {
  const bool named_hlo = ClassifyName(path, kind);
  if (named_hlo && !IsGenericProtoName(path)) return true;
  // Any other file whose content is HLO: text whose first token (after
  // comments) is HloModule, or a binary module.
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  char buf[4096];
  in.read(buf, sizeof(buf));
  std::string_view head(buf, static_cast<size_t>(in.gcount()));
  if (named_hlo) {  // *.pb, *.pb.gz
    return hlo::SniffHloEncoding(head) == hlo::HloEncoding::kText
               ? hlo::LooksLikeHlo(head)
               : LooksLikeHloBinaryHead(head);
  }
  // StableHLO text: a file whose first op is an MLIR module.
  if (hlo::LooksLikeHlo(head) || hlo::LooksLikeMlirModule(head)) {
    *kind = InputKind::kHlo;
    return true;
  }
  return false;
}

bool LooksLikeMlirHead(std::string_view head) {
  return !hlo::LooksLikeHlo(head) &&
         (hlo::IsMlirBytecode(head) || hlo::LooksLikeMlirText(head));
}

bool ClassifyInMemory(const std::string& name, std::string_view text,
                      InputKind* kind) {
  if (ClassifyName(name, kind)) return true;
  const std::string_view head = text.substr(0, 4096);
  if (hlo::LooksLikeHlo(head) || LooksLikeHloBinaryHead(head) ||
      LooksLikeMlirHead(head)) {
    *kind = InputKind::kHlo;
    return true;
  }
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && head[first] == '{') {
    *kind = InputKind::kJson;
    return true;
  }
  return false;
}

absl::Status DiscoverUnits(const std::vector<std::string>& paths,
                           const DiscoveryLimits& limits,
                           std::vector<UnitSpec>* units,
                           DiscoveryReport* report) {
  UnitSources sources(limits, [report](SkippedPath s) {
    report->skipped.push_back(std::move(s));
  });
  if (absl::Status st =
          sources.AddPaths(paths, /*whole_units=*/false, &report->unrecognised);
      !st.ok()) {
    return st;
  }
  for (;;) {
    StreamedUnit u;
    TOPOLINT_ASSIGN_OR_RETURN(const bool more, sources.Next(&u));
    if (!more) return absl::OkStatus();
    units->push_back(std::move(u.spec));
  }
}

}  // namespace topolint
