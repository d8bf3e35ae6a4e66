// The `--format json` renderer: one array of findings.
#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "nlohmann/json.hpp"

namespace topolint {

std::string RenderJson(const std::vector<Finding>& findings) {
  // ordered_json keeps the documented field order.
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Finding& f : findings) {
    nlohmann::ordered_json notes = nlohmann::ordered_json::array();
    for (const Note& n : f.notes) {
      notes.push_back({{"message", n.message},
                       {"file", n.loc.file},
                       {"line", n.loc.line},
                       {"column", n.loc.column}});
    }
    out.push_back({{"rule", f.rule},
                   {"severity", std::string(SeverityName(f.severity))},
                   {"message", f.message},
                   {"file", f.loc.file},
                   {"line", f.loc.line},
                   {"column", f.loc.column},
                   {"notes", std::move(notes)},
                   {"fingerprint", Fingerprint(f)}});
  }
  // Invalid UTF-8 (a message quoting binary input) becomes U+FFFD instead of
  // throwing.
  return out.dump(2, ' ', false,
                  nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

}  // namespace topolint
