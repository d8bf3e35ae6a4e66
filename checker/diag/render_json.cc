// The `--format json` renderer: one array of findings.
#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "nlohmann/json.hpp"

namespace topolint {
namespace {

// Binary inputs have no lines: their byte offset and the computation / op.
void AddBinaryPlace(const Location& loc, nlohmann::ordered_json* out) {
  if (loc.byte_offset < 0) return;
  (*out)["byte_offset"] = loc.byte_offset;
  (*out)["logical_location"] = loc.logical;
}

}  // namespace

std::string RenderJson(const std::vector<Finding>& findings) {
  // ordered_json keeps the documented field order.
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Finding& f : findings) {
    nlohmann::ordered_json notes = nlohmann::ordered_json::array();
    for (const Note& n : f.notes) {
      nlohmann::ordered_json note = {{"message", n.message},
                                     {"file", n.loc.file},
                                     {"line", n.loc.line},
                                     {"column", n.loc.column}};
      AddBinaryPlace(n.loc, &note);
      notes.push_back(std::move(note));
    }
    nlohmann::ordered_json item = {
        {"rule", f.rule},
        {"severity", std::string(SeverityName(f.severity))},
        {"message", f.message},
        {"file", f.loc.file},
        {"line", f.loc.line},
        {"column", f.loc.column}};
    AddBinaryPlace(f.loc, &item);
    item["notes"] = std::move(notes);
    item["fingerprint"] = Fingerprint(f);
    out.push_back(std::move(item));
  }
  // Invalid UTF-8 (a message quoting binary input) becomes U+FFFD instead of
  // throwing.
  return out.dump(2, ' ', false,
                  nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

}  // namespace topolint
