#include "checker/diag/render_dump.h"

namespace topolint {

std::string DumpJson(const nlohmann::ordered_json& value) {
  // Invalid UTF-8 (a message quoting binary input) becomes U+FFFD instead of
  // throwing.
  return value.dump(2, ' ', false,
                    nlohmann::ordered_json::error_handler_t::replace);
}

void AppendNested(std::string_view text, size_t indent, std::string* out) {
  // A dump has no raw newline inside a string: each one starts a line.
  const std::string pad(indent, ' ');
  for (char c : text) {
    out->push_back(c);
    if (c == '\n') *out += pad;
  }
}

}  // namespace topolint
