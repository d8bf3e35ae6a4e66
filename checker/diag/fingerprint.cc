// Finding fingerprints: stable across runs, machines and line moves.
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "checker/diag/render.h"
#include "checker/io/repo_paths.h"
#include "fmt/format.h"

namespace topolint {
namespace {

// FNV-1a, 64-bit: a fixed, documented algorithm, so fingerprints written to a
// baseline or uploaded to code scanning stay valid across builds (absl::Hash
// and std::hash are salted or unspecified).
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;

void Mix(std::string_view bytes, uint64_t* h) {
  for (unsigned char c : bytes) {
    *h ^= c;
    *h *= kFnvPrime;
  }
}

}  // namespace

std::string RootedFingerprint(const Finding& finding, const SarifRoots* roots) {
  const std::string rooted = RootRelative(finding.loc.file, roots);
  std::string_view file = rooted;
  // "./a.hlo" and "a.hlo" are the same file to the user.
  while (file.substr(0, 2) == "./") file.remove_prefix(2);
  const std::string_view what =
      finding.anchor.empty() ? finding.message : finding.anchor;
  uint64_t h = kFnvOffset;
  Mix(finding.rule, &h);
  Mix(std::string_view("\0", 1), &h);
  Mix(file, &h);
  Mix(std::string_view("\0", 1), &h);
  Mix(what, &h);
  return fmt::format("{:016x}", h);
}

SarifRoots FindReportRoots(std::string_view root_flag,
                           std::string_view first_input) {
  namespace fs = std::filesystem;
  std::error_code ec;
  SarifRoots r;
  r.cwd = fs::current_path(ec).string();
  if (!root_flag.empty()) {
    r.root = fs::absolute(fs::path(root_flag), ec).lexically_normal().string();
  }
  if (r.root.empty()) r.root = FindGitRoot(r.cwd);
  if (r.root.empty() && !first_input.empty() && first_input != "-") {
    // The first input's work tree: from the directory itself (a checkout
    // named from outside it), or from a file's directory.
    fs::path first = fs::absolute(fs::path(first_input), ec).lexically_normal();
    if (!fs::is_directory(first, ec)) first = first.parent_path();
    r.root = FindGitRoot(first.string());
  }
  if (r.root.empty()) r.root = r.cwd;
  while (r.root.size() > 1 && r.root.back() == '/') r.root.pop_back();
  return r;
}

}  // namespace topolint
