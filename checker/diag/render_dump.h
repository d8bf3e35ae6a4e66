// Helpers the JSON, GitLab and SARIF renderers share to write a 2-space
// indented document piece by piece, byte-identical to dumping it whole.
#ifndef TOPOLINT_CHECKER_DIAG_RENDER_DUMP_H_
#define TOPOLINT_CHECKER_DIAG_RENDER_DUMP_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "checker/diag/render.h"
#include "nlohmann/json.hpp"

namespace topolint {

// `value` dumped with a 2-space indent, invalid UTF-8 replaced by U+FFFD.
std::string DumpJson(const nlohmann::ordered_json& value);

// Appends `text` (a dump) with every line but the first indented by
// `indent` more spaces, as it reads when nested that deep in a larger dump
// (the first line continues the line the caller has begun).
void AppendNested(std::string_view text, size_t indent, std::string* out);

// A report that is one JSON array of an Element per finding (JSON, GitLab).
class JsonArrayReport : public ReportWriter {
 public:
  void Begin(std::string* out) override { *out += "["; }
  void Add(const std::vector<Finding>& findings, std::string* out) override {
    for (const Finding& f : findings) {
      *out += count_++ == 0 ? "\n  " : ",\n  ";
      AppendNested(DumpJson(Element(f)), 2, out);
    }
  }
  void End(std::string* out) override { *out += count_ == 0 ? "]\n" : "\n]\n"; }

 protected:
  virtual nlohmann::ordered_json Element(const Finding& f) = 0;

 private:
  size_t count_ = 0;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_RENDER_DUMP_H_
