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
  std::string message = f.message;
  if (f.loc.byte_offset >= 0) message += " (" + BinaryPlace(f.loc) + ")";
  *out += SanitizeForTerminal(
      fmt::format("{}: {}: {} [{}]", PlaceLabel(f.loc, roots, false),
                  SeverityName(f.severity), message, f.rule));
  *out += '\n';
}

class PerFindingReport : public ReportWriter {
 public:
  PerFindingReport(AppendFinding append, const SarifRoots* roots)
      : append_(append), roots_(roots) {}
  void Add(const std::vector<Finding>& findings, std::string* out) override {
    for (const Finding& f : findings) append_(f, roots_, out);
  }

 private:
  AppendFinding append_;
  const SarifRoots* roots_;
};

}  // namespace

std::unique_ptr<ReportWriter> MakePerFindingReport(AppendFinding append,
                                                   const SarifRoots* roots) {
  return std::make_unique<PerFindingReport>(append, roots);
}

std::unique_ptr<ReportWriter> MakeConciseReport(const SarifRoots* roots) {
  return MakePerFindingReport(AppendLine, roots);
}

}  // namespace topolint
