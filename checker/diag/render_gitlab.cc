// The GitLab Code Quality renderer (`artifacts:reports:codequality`): a
// JSON array of issues in the Code Climate form GitLab reads, with the
// fields it requires (description, check_name, fingerprint, severity,
// location.path, location.lines.begin).
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "checker/diag/render.h"
#include "checker/diag/render_dump.h"
#include "checker/io/repo_paths.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace topolint {
namespace {

using Json = nlohmann::ordered_json;

// GitLab's scale is info, minor, major, critical, blocker.
const char* GitlabSeverity(Severity s) {
  static constexpr const char* kLevels[] = {"info", "minor", "major"};
  return BySeverity(kLevels, s);
}

class GitlabReport : public JsonArrayReport {
 public:
  explicit GitlabReport(const SarifRoots* roots) : roots_(roots) {}

 private:
  // The path GitLab shows the issue at: repository-relative, and a .neff
  // member's issue at its .neff (the member is not a file of the
  // repository; the message names it).
  std::string IssuePath(const std::string& file) const {
    std::string_view archive;
    std::string path =
        SplitNeffMember(file, &archive, nullptr) ? std::string(archive) : file;
    return RootRelative(path, roots_);
  }

  Json Element(const Finding& f) override {
    std::string description = f.message;
    if (f.loc.byte_offset >= 0) {
      description += " (" + BinaryPlace(f.loc) + ")";
    } else if (SplitNeffMember(f.loc.file, nullptr, nullptr)) {
      description += fmt::format(" (in {})", f.loc.file);
    }
    // GitLab tells issues apart by fingerprint: findings that share one (the
    // same rule and anchor twice in a file) get their occurrence appended.
    std::string fingerprint = RootedFingerprint(f, roots_);
    const size_t seen = occurrences_[fingerprint]++;
    if (seen > 0) fingerprint += fmt::format("-{}", seen);
    Json issue;
    issue["type"] = "issue";
    issue["description"] = description;
    issue["check_name"] = f.rule;
    issue["fingerprint"] = fingerprint;
    issue["severity"] = GitlabSeverity(f.severity);
    issue["location"] = {
        {"path", IssuePath(f.loc.file)},
        {"lines", {{"begin", f.loc.line > 0 ? f.loc.line : 1}}}};
    return issue;
  }

  const SarifRoots* roots_;
  absl::flat_hash_map<std::string, size_t> occurrences_;
};

}  // namespace

std::unique_ptr<ReportWriter> MakeGitlabReport(const SarifRoots* roots) {
  return std::make_unique<GitlabReport>(roots);
}

}  // namespace topolint
