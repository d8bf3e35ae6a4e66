#include "checker/io/repo_paths.h"

#include <filesystem>
#include <system_error>

namespace topolint {
namespace fs = std::filesystem;

std::string FindGitRoot(const std::string& dir) {
  if (dir.empty()) return "";
  std::error_code ec;
  std::string cwd;
  if (dir[0] != '/') {
    cwd = fs::current_path(ec).generic_string();
    if (ec || cwd.empty()) return "";
  }
  std::string start = AbsoluteNormalPath(dir, cwd);
  while (start.size() > 1 && start.back() == '/') start.pop_back();
  for (fs::path p(start); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / ".git", ec)) return p.generic_string();
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

bool SplitNeffMember(std::string_view file, std::string_view* archive,
                     std::string_view* member) {
  constexpr std::string_view kSeparator = ".neff:";
  const size_t k = file.rfind(kSeparator);
  if (k == std::string_view::npos) return false;
  std::error_code ec;
  if (fs::symlink_status(fs::path(std::string(file)), ec).type() !=
          fs::file_type::not_found &&
      !ec) {
    return false;  // a file or directory of that name: a path
  }
  if (archive != nullptr) *archive = file.substr(0, k + kSeparator.size() - 1);
  if (member != nullptr) *member = file.substr(k + kSeparator.size());
  return true;
}

namespace {

// True when `path` has no empty, "." or ".." component and no trailing
// '/' (a lone "/" is normal).
bool IsPlainNormal(std::string_view path) {
  if (path.empty()) return false;
  if (path == "/") return true;
  size_t begin = path[0] == '/' ? 1 : 0;
  while (begin <= path.size()) {
    size_t end = path.find('/', begin);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view part = path.substr(begin, end - begin);
    if (part.empty() || part == "." || part == "..") return false;
    begin = end + 1;
  }
  return true;
}

}  // namespace

std::string AbsoluteNormalPath(std::string_view path, std::string_view cwd) {
  const bool relative = path.empty() || path[0] != '/';
  if (IsPlainNormal(path) && (!relative || IsPlainNormal(cwd))) {
    if (!relative) return std::string(path);
    std::string out;
    out.reserve(cwd.size() + 1 + path.size());
    out.append(cwd);
    if (out.back() != '/') out.push_back('/');
    out.append(path);
    return out;
  }
  fs::path p{std::string(path.empty() ? "." : path)};
  if (p.is_relative()) p = fs::path(std::string(cwd)) / p;
  return p.lexically_normal().generic_string();
}

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view ParentView(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace topolint
