// Finds the `.topolint.json` that applies to each unit (FindProjectConfig),
// with every directory looked at once.
#ifndef TOPOLINT_CHECKER_CLI_PROJECT_CONFIG_FINDER_H_
#define TOPOLINT_CHECKER_CLI_PROJECT_CONFIG_FINDER_H_

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "checker/core/dir_entries.h"

namespace topolint::cli {

// What a streamed walk saw in a directory while listing it.
struct SeenDir {
  bool has_settings = false;  // a `.topolint.json` that is a regular file
  bool has_git = false;       // a `.git`: the top of a work tree
};

// FindProjectConfig with every directory looked at once: many units share
// their ancestors (a compile cache of thousands of entries). What the walk
// saw in a unit's directory is handed in (SeenDir): a unit there costs no
// syscall. Results are absolute paths, as FindProjectConfig gives.
class ProjectConfigFinder {
 public:
  // Find for a unit's directory: units of one parent (a compile cache's
  // entries) share the parent's answer, and a unit's own directory is not
  // remembered (no other unit has it).
  // `seen`: what a streamed walk saw in `dir` when it listed it (no stat()
  // for it), or null.
  std::string FindForUnit(const std::string& dir,
                          const SeenDir* seen = nullptr) {
    if (!IsPlain(dir) || dir == "/") return Find(dir);
    if (seen != nullptr ? seen->has_settings : HasSettings(dir)) {
      return Absolute(dir) + "/.topolint.json";
    }
    if (seen != nullptr ? seen->has_git : IsRepositoryRoot(dir)) return "";
    const std::string_view parent = PlainParent(dir);
    if (!last_parent_valid_ || parent != last_parent_) {
      last_parent_.assign(parent.data(), parent.size());
      last_result_ = Find(last_parent_);
      last_parent_valid_ = true;
    }
    return last_result_;
  }

  std::string Find(const std::string& dir) {
    if (auto it = by_display_.find(dir); it != by_display_.end()) {
      return it->second;
    }
    std::string result;
    if (!IsPlain(dir)) {
      std::error_code ec;
      std::filesystem::path p =
          std::filesystem::absolute(dir.empty() ? "." : dir, ec);
      if (!ec) result = FindAbsolute(p.lexically_normal());
    } else if (HasSettings(dir)) {
      result = Absolute(dir) + "/.topolint.json";
    } else if (dir != "/" && !IsRepositoryRoot(dir)) {
      result = Find(std::string(PlainParent(dir)));
    }
    by_display_.emplace(dir, result);
    return result;
  }

 private:
  // The parent of a plain directory other than "/" (IsPlain).
  static std::string_view PlainParent(std::string_view dir) {
    const size_t slash = dir.rfind('/');
    return slash == std::string_view::npos ? "."
           : slash == 0                    ? "/"
                                           : dir.substr(0, slash);
  }

  // A path whose parent is a matter of strings: no "." (but a leading
  // "./"), "..", empty component or trailing '/'.
  static bool IsPlain(std::string_view d) {
    if (d == "/") return true;
    if (d.empty() || d == "." || d.back() == '/') return false;
    if (d.substr(0, 2) == "./") d.remove_prefix(2);
    size_t start = d[0] == '/' ? 1 : 0;
    for (;;) {
      size_t end = d.find('/', start);
      std::string_view c = d.substr(start, end - start);
      if (c.empty() || c == "." || c == "..") return false;
      if (end == std::string_view::npos) return true;
      start = end + 1;
    }
  }

  // The lookup stops at the root of a git work tree (a `.git` directory
  // or file), as FindProjectConfig does: settings above a repository are
  // not the repository's.
  static bool IsRepositoryRoot(const std::string& dir) {
    std::error_code ec;
    return std::filesystem::exists(dir + "/.git", ec);
  }

  bool HasSettings(const std::string& dir) {
    std::error_code ec;
    return std::filesystem::is_regular_file(dir + "/.topolint.json", ec);
  }

  // `dir` is plain (IsPlain).
  std::string Absolute(const std::string& dir) {
    if (dir[0] == '/') return dir == "/" ? "" : dir;
    if (cwd_.empty()) {
      std::error_code ec;
      cwd_ = std::filesystem::current_path(ec).string();
      if (!cwd_.empty() && cwd_.back() == '/') cwd_.pop_back();
    }
    return cwd_ + "/" + (dir.compare(0, 2, "./") == 0 ? dir.substr(2) : dir);
  }

  std::string FindAbsolute(const std::filesystem::path& p) {
    std::string key = p.string();
    if (auto it = found_.find(key); it != found_.end()) return it->second;
    std::filesystem::path candidate = p / ".topolint.json";
    std::error_code ec;
    std::string result;
    if (std::filesystem::is_regular_file(candidate, ec)) {
      result = candidate.string();
    } else if (p.has_parent_path() && p.parent_path() != p &&
               !IsRepositoryRoot(p.string())) {
      result = FindAbsolute(p.parent_path());
    }
    found_.emplace(std::move(key), result);
    return result;
  }

  absl::flat_hash_map<std::string, std::string> by_display_;
  std::map<std::string, std::string> found_;
  std::string cwd_;
  // FindForUnit's last parent and its answer.
  bool last_parent_valid_ = false;
  std::string last_parent_;
  std::string last_result_;
};

}  // namespace topolint::cli

#endif  // TOPOLINT_CHECKER_CLI_PROJECT_CONFIG_FINDER_H_
