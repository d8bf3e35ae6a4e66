#include "checker/core/dir_walk.h"

#include <limits.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

#include "checker/diag/input_file.h"
#include "fmt/format.h"

namespace topolint {
namespace fs = std::filesystem;
namespace {

// "Permission denied" -> "permission denied", to fit inside a message.
std::string LowercaseFirst(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z')
    s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

// A path too long to print whole stays recognisable by its ends.
std::string Abbreviated(const std::string& path) {
  if (path.size() <= 160) return path;
  return fmt::format("{}...{}", path.substr(0, 100),
                     path.substr(path.size() - 50));
}

std::string TypeName(fs::file_type t) {
  switch (t) {
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    default:
      return "not a regular file";
  }
}

struct Walker {
  const DiscoveryLimits& limits;
  WalkResult* result;
  std::string root;
  std::set<std::pair<dev_t, ino_t>> seen_dirs;  // to break symlink loops
  size_t files = 0;

  void Skip(const fs::path& p, std::string reason, size_t n) {
    result->skipped.push_back({p.generic_string(), std::move(reason), n});
  }

  absl::Status AddFile(const fs::path& p) {
    if (++files > limits.max_files) {
      return absl::ResourceExhaustedError(fmt::format(
          "more than {} files under the given paths; narrow the search",
          limits.max_files));
    }
    result->files.push_back({p.generic_string(), root, false});
    return absl::OkStatus();
  }

  absl::Status Walk(const fs::path& dir, int depth) {
    std::string shown = dir.generic_string();
    if (shown.size() >= PATH_MAX) {
      result->warnings.push_back(fmt::format(
          "{} ({} bytes): path longer than PATH_MAX ({}); not searched",
          Abbreviated(shown), shown.size(), PATH_MAX));
      return absl::OkStatus();
    }
    if (depth > limits.max_depth) {
      result->warnings.push_back(
          fmt::format("{}: more than {} directory levels below {}; not "
                      "searched",
                      shown, limits.max_depth, root));
      return absl::OkStatus();
    }
    std::error_code ec;
    // One stat() (not realpath(), which stats every component) to know a
    // directory met twice through symlinks.
    struct stat st;
    if (::stat(shown.c_str(), &st) == 0 &&
        !seen_dirs.insert({st.st_dev, st.st_ino}).second) {
      Skip(dir, "already searched (a symbolic link leads here twice)", 0);
      return absl::OkStatus();
    }
    // No skip_permission_denied: it turns a directory that cannot be opened
    // into an empty one, silently.
    fs::directory_iterator it(dir, ec);
    if (ec) {
      if (depth == 0) {  // named on the command line: an unreadable input
        return absl::PermissionDeniedError(
            fmt::format("{}: cannot read directory: {}", shown,
                        LowercaseFirst(ec.message())));
      }
      result->warnings.push_back(
          fmt::format("cannot read directory {}: {}; skipped", shown,
                      LowercaseFirst(ec.message())));
      return absl::OkStatus();
    }
    std::vector<fs::directory_entry> entries;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) {
        result->warnings.push_back(
            fmt::format("cannot read directory {}: {}; skipped", shown,
                        LowercaseFirst(ec.message())));
        break;
      }
      entries.push_back(*it);
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.path() < b.path(); });
    for (const fs::directory_entry& e : entries) {
      if (auto st = Entry(e, depth); !st.ok()) return st;
    }
    return absl::OkStatus();
  }

  absl::Status Entry(const fs::directory_entry& e, int depth) {
    std::string name = e.path().filename().string();
    std::string p = e.path().generic_string();
    if (p.size() >= PATH_MAX) {
      // Not even stat() takes it: report, do not guess what it is.
      result->warnings.push_back(fmt::format(
          "{} ({} bytes): path longer than PATH_MAX ({}); not searched",
          Abbreviated(p), p.size(), PATH_MAX));
      return absl::OkStatus();
    }
    std::error_code ec;
    // The type readdir gave is cached in `e`: only a symlink costs a stat().
    bool link = e.is_symlink(ec);
    bool dir = e.is_directory(ec);  // follows a symlink
    bool regular = !dir && e.is_regular_file(ec);
    if (!name.empty() && name[0] == '.') {
      // .git, .topolint.json (read as settings), editor files.
      if (name != ".topolint.json") {
        Skip(e.path(), "hidden (names starting with '.' are not searched)",
             regular ? 1 : 0);
      }
      return absl::OkStatus();
    }
    if (dir) {
      if (link && !limits.follow_symlinks) {
        Skip(e.path(),
             "symbolic link to a directory; not followed "
             "(--follow-symlinks follows it)",
             0);
        return absl::OkStatus();
      }
      return Walk(e.path(), depth + 1);
    }
    if (regular) return AddFile(e.path());
    fs::file_status st = e.status(ec);
    if (ec || !fs::exists(st)) {
      Skip(e.path(), "broken symbolic link", 0);
    } else {
      Skip(e.path(), TypeName(st.type()), 0);
    }
    return absl::OkStatus();
  }
};

std::string WithoutTrailingSlash(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

std::string ParentDisplay(const std::string& path) {
  std::string parent = fs::path(path).parent_path().generic_string();
  return parent.empty() ? "." : parent;
}

}  // namespace

absl::Status WalkPaths(const std::vector<std::string>& paths,
                       const DiscoveryLimits& limits, WalkResult* result) {
  Walker walker{limits, result, "", {}, 0};
  for (const std::string& p : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) return CheckReadableKind(p);
    if (fs::is_directory(st)) {
      walker.root = WithoutTrailingSlash(p);
      if (auto s = walker.Walk(fs::path(walker.root), 0); !s.ok()) return s;
      continue;
    }
    // Refuses devices, FIFOs and sockets before anything could block.
    if (absl::Status s = CheckReadableKind(p); !s.ok()) return s;
    std::ifstream probe(p, std::ios::binary);
    if (!probe) {
      return absl::PermissionDeniedError(
          fmt::format("{}: cannot read file", p));
    }
    result->files.push_back({p, ParentDisplay(p), true});
  }
  return absl::OkStatus();
}

}  // namespace topolint
