#include "checker/core/rule_docs.h"

#include "absl/strings/ascii.h"

namespace topolint {

std::string RuleDocSection(std::string_view id, std::string_view heading) {
  std::string_view doc = RuleDoc(id);
  std::string marker = "## " + std::string(heading) + "\n";
  size_t start = doc.find(marker);
  if (start == std::string_view::npos) return "";
  start += marker.size();
  size_t end = doc.find("\n## ", start);
  std::string_view body =
      doc.substr(start, end == std::string_view::npos ? doc.npos : end - start);
  return std::string(
      absl::StripAsciiWhitespace(absl::string_view(body.data(), body.size())));
}

}  // namespace topolint
