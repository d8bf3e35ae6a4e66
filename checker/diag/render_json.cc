// The `--format json` renderer: one array of findings.
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "checker/diag/fix.h"
#include "checker/diag/render.h"
#include "checker/diag/render_dump.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace topolint {
namespace {

// A file name as a JSON string. A valid UTF-8 name is kept; another one
// would become U+FFFD at each bad byte, so two names could print the same:
// there every byte >= 0x80 is written `\xHH` and a backslash `\\`, which
// keeps distinct names distinct (as SARIF's percent-encoded URIs do).
std::string JsonFileName(const std::string& name) {
  try {
    (void)nlohmann::json(name).dump();  // throws on invalid UTF-8
    return name;
  } catch (const nlohmann::json::exception&) {
  }
  std::string out;
  for (char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      out += fmt::format("\\x{:02x}", u);
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out += c;
    }
  }
  return out;
}

// The place of a finding or a note: file, line and column, and for a
// binary input (which has no lines) its byte offset and the computation /
// op.
void AddPlace(const Location& loc, const SarifRoots* roots,
              nlohmann::ordered_json* out) {
  (*out)["file"] = JsonFileName(RootRelative(loc.file, roots));
  (*out)["line"] = loc.line;
  (*out)["column"] = loc.column;
  if (loc.byte_offset < 0) return;
  (*out)["byte_offset"] = loc.byte_offset;
  (*out)["logical_location"] = loc.logical;
}

// The edit kinds as the JSON names them (docs/findings.schema.json), in
// the order of TextEdit::Kind.
constexpr const char* kEditKindNames[] = {"replace", "remove_line_comment",
                                          "replace_integer_array"};
static_assert(std::size(kEditKindNames) ==
              static_cast<size_t>(TextEdit::Kind::kReplaceIntegerArray) + 1);

// The fix as data: its edits as the rule states them (a position and byte
// offset, and the bytes it saw there), which `check --fix` resolves against the
// file's bytes and refuses when they are not what the rule saw.
nlohmann::ordered_json FixObject(const Fix& fix, const SarifRoots* roots) {
  nlohmann::ordered_json edits = nlohmann::ordered_json::array();
  for (const TextEdit& e : fix.edits) {
    nlohmann::ordered_json edit = {
        {"kind", kEditKindNames[static_cast<size_t>(e.kind)]},
        {"file", JsonFileName(RootRelative(e.file, roots))},
        {"line", e.line},
        {"column", e.column},
        {"offset", e.offset}};
    edit["original"] = e.original;
    if (e.kind != TextEdit::Kind::kRemoveLineComment) {
      edit["replacement"] = e.replacement;
    }
    edits.push_back(std::move(edit));
  }
  return {{"title", fix.title},
          {"applied_by", fix.needs_fix_from.empty()
                             ? std::string("--fix")
                             : "--fix --fix-from " + fix.needs_fix_from},
          {"edits", std::move(edits)}};
}

nlohmann::ordered_json FindingObject(const Finding& f, const SarifRoots* roots,
                                     const SarifRoots* fingerprint_roots) {
  // ordered_json keeps the documented field order.
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  for (const Note& n : f.notes) {
    nlohmann::ordered_json note = {{"message", n.message}};
    AddPlace(n.loc, roots, &note);
    notes.push_back(std::move(note));
  }
  nlohmann::ordered_json item = {
      {"rule", f.rule},
      {"severity", std::string(SeverityName(f.severity))},
      {"message", f.message}};
  AddPlace(f.loc, roots, &item);
  item["notes"] = std::move(notes);
  item["fingerprint"] = RootedFingerprint(f, fingerprint_roots);
  // Only a fix `check --fix` could write (not into a binary module, a
  // compressed file or an archive).
  if (f.fix != nullptr && WritableFix(*f.fix))
    item["fix"] = FixObject(*f.fix, roots);
  return item;
}

// The array a 2-space indented dump of all findings would give, one element
// at a time.
class JsonReport : public JsonArrayReport {
 public:
  // Files are named with `roots`, fingerprints hashed with
  // `fingerprint_roots` (the library keeps its caller's paths but gives the
  // CLI's fingerprints).
  JsonReport(const SarifRoots* roots, const SarifRoots* fingerprint_roots)
      : roots_(roots), fingerprint_roots_(fingerprint_roots) {}

 private:
  nlohmann::ordered_json Element(const Finding& f) override {
    return FindingObject(f, roots_, fingerprint_roots_);
  }

  const SarifRoots* roots_;
  const SarifRoots* fingerprint_roots_;
};

}  // namespace

std::unique_ptr<ReportWriter> MakeJsonReport(const SarifRoots* roots) {
  return std::make_unique<JsonReport>(roots, roots);
}

std::string RenderJson(const std::vector<Finding>& findings,
                       const SarifRoots* fingerprint_roots) {
  return JsonReport(nullptr, fingerprint_roots).RenderAll(findings);
}

}  // namespace topolint
