// The JUnit XML renderer, for CI systems that show test reports (GitLab's
// `artifacts:reports:junit`, Jenkins, Azure Pipelines): each finding is a
// failed test case named by its place, classed by its rule.
//
// The report is streamed, so the counts a <testsuite> carries are known
// only for what has been seen: each batch of findings is one <testsuite>
// (consumers add the suites up). A run without findings is one suite with
// one passing case, so that the report is not empty.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "checker/diag/render.h"
#include "checker/diag/xml_escape.h"
#include "fmt/format.h"

namespace topolint {
namespace {

void AppendCase(const Finding& f, const SarifRoots* roots, std::string* out) {
  const std::string place = PlaceLabel(f.loc, roots, true);
  std::string body = fmt::format("{}: {}: {} [{}]", place,
                                 SeverityName(f.severity), f.message, f.rule);
  for (const Note& n : f.notes) {
    body += fmt::format("\n{}: note: {}", PlaceLabel(n.loc, roots, true),
                        n.message);
  }
  *out += fmt::format("    <testcase classname=\"{}\" name=\"{}\" file=\"{}\"",
                      EscapeXml(f.rule), EscapeXml(place),
                      EscapeXml(RootRelative(f.loc.file, roots)));
  if (f.loc.line > 0) *out += fmt::format(" line=\"{}\"", f.loc.line);
  // Every finding fails its case, whatever its severity (the type says
  // which): a CI job chooses with --werror and the exit code whether
  // warnings fail the build.
  *out += fmt::format(
      ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n"
      "    </testcase>\n",
      SeverityName(f.severity), EscapeXml(f.message), EscapeXml(body));
}

class JunitReport : public ReportWriter {
 public:
  explicit JunitReport(const SarifRoots* roots) : roots_(roots) {}
  void Begin(std::string* out) override {
    *out +=
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"topolint\">\n";
  }
  void Add(const std::vector<Finding>& findings, std::string* out) override {
    if (findings.empty()) return;
    *out += fmt::format(
        "  <testsuite name=\"topolint\" tests=\"{0}\" failures=\"{0}\" "
        "errors=\"0\" skipped=\"0\">\n",
        findings.size());
    for (const Finding& f : findings) AppendCase(f, roots_, out);
    *out += "  </testsuite>\n";
    count_ += findings.size();
  }
  void End(std::string* out) override {
    if (count_ == 0) {
      *out +=
          "  <testsuite name=\"topolint\" tests=\"1\" failures=\"0\" "
          "errors=\"0\" skipped=\"0\">\n"
          "    <testcase classname=\"topolint\" name=\"no findings\"/>\n"
          "  </testsuite>\n";
    }
    *out += "</testsuites>\n";
  }

 private:
  const SarifRoots* roots_;
  size_t count_ = 0;
};

}  // namespace

std::unique_ptr<ReportWriter> MakeJunitReport(const SarifRoots* roots) {
  return std::make_unique<JunitReport>(roots);
}

}  // namespace topolint
