// The concise renderer: one line per finding, as ruff's `concise` output,
// for grep, editors' quickfix lists and logs.
#include <memory>
#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "checker/diag/source_snippet.h"
#include "fmt/format.h"

namespace topolint {
namespace {

void AppendLine(const Finding& f, const SarifRoots* roots, std::string* out) {
  std::string where = RootRelative(f.loc.file, roots);
  if (f.loc.line > 0) {
    where += fmt::format(":{}", f.loc.line);
    if (f.loc.column > 0) where += fmt::format(":{}", f.loc.column);
  }
  std::string message = f.message;
  if (f.loc.byte_offset >= 0) message += " (" + BinaryPlace(f.loc) + ")";
  *out += SanitizeForTerminal(fmt::format(
      "{}: {}: {} [{}]", where, SeverityName(f.severity), message, f.rule));
  *out += '\n';
}

class ConciseReport : public ReportWriter {
 public:
  explicit ConciseReport(const SarifRoots* roots) : roots_(roots) {}
  void Begin(std::string* /*out*/) override {}
  void Add(const std::vector<Finding>& findings, std::string* out) override {
    for (const Finding& f : findings) AppendLine(f, roots_, out);
  }
  void End(std::string* /*out*/) override {}

 private:
  const SarifRoots* roots_;
};

}  // namespace

std::unique_ptr<ReportWriter> MakeConciseReport(const SarifRoots* roots) {
  return std::make_unique<ConciseReport>(roots);
}

std::string RenderConcise(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) AppendLine(f, nullptr, &out);
  return out;
}

}  // namespace topolint
