#include "checker/core/project_config_finder.h"

#include <filesystem>
#include <system_error>

#include "checker/io/repo_paths.h"

namespace topolint {
namespace fs = std::filesystem;

std::string ProjectConfigFinder::Find(const std::string& dir,
                                      const SeenDir* seen) {
  if (last_valid_ && dir == last_dir_) return last_result_;
  if (!cwd_valid_) {
    std::error_code ec;
    cwd_ = fs::current_path(ec).generic_string();
    cwd_valid_ = true;
  }
  std::string abs = AbsoluteNormalPath(dir, cwd_);
  // "a/b/" is normal with its '/': the directory is "a/b".
  if (abs.size() > 1 && abs.back() == '/') abs.pop_back();
  // No current directory (removed): a relative `dir` has no ancestors.
  std::string result = abs.empty() || abs[0] != '/'
                           ? std::string()
                           : FindAbsolute(abs, seen, seen == nullptr);
  last_dir_ = dir;
  last_result_ = result;
  last_valid_ = true;
  return result;
}

std::string ProjectConfigFinder::FindAbsolute(const std::string& abs,
                                              const SeenDir* seen,
                                              bool remember) {
  if (auto it = found_.find(abs); it != found_.end()) return it->second;
  std::error_code ec;
  const std::string candidate =
      abs == "/" ? "/.topolint.json" : abs + "/.topolint.json";
  std::string result;
  if (seen != nullptr ? seen->has_settings
                      : fs::is_regular_file(candidate, ec)) {
    result = candidate;
  } else if (seen != nullptr ? seen->has_git
                             : fs::exists(fs::path(abs) / ".git", ec)) {
    // Not above the root of a git work tree: settings in a home directory
    // above a checkout are not the checkout's.
  } else if (abs != "/") {
    // `abs` is normal: its parent is what comes before its last '/'.
    const size_t slash = abs.rfind('/');
    result = FindAbsolute(abs.substr(0, slash == 0 ? 1 : slash), nullptr,
                          /*remember=*/true);
  }
  if (remember) found_.emplace(abs, result);
  return result;
}

}  // namespace topolint
