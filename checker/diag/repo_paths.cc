#include "checker/diag/repo_paths.h"

#include <filesystem>
#include <system_error>

namespace topolint {
namespace fs = std::filesystem;

std::string FindGitRoot(const std::string& dir) {
  std::error_code ec;
  for (fs::path p = fs::path(dir).lexically_normal(); !p.empty();
       p = p.parent_path()) {
    if (fs::exists(p / ".git", ec)) {
      std::string s = p.string();
      while (s.size() > 1 && s.back() == '/') s.pop_back();
      return s;
    }
    if (p == p.parent_path()) break;
  }
  return "";
}

bool PathUnderRoot(std::string_view file, const std::string& root,
                   const std::string& cwd, std::string* out) {
  fs::path p{std::string(file)};
  if (p.is_relative()) p = fs::path(cwd) / p;
  p = p.lexically_normal();
  const fs::path rel = p.lexically_relative(fs::path(root));
  if (!rel.empty() && *rel.begin() != ".." && rel != ".") {
    *out = rel.generic_string();
    return true;
  }
  *out = p.generic_string();
  return false;
}

}  // namespace topolint
