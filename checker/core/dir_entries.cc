#include "checker/core/dir_entries.h"

#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <system_error>

#include "absl/strings/ascii.h"
#include "fmt/format.h"

namespace topolint {
namespace {

std::string TypeName(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

}  // namespace

std::string ErrnoMessage(int err) {
  std::string s = std::generic_category().message(err);
  if (!s.empty()) s[0] = absl::ascii_tolower(static_cast<unsigned char>(s[0]));
  return s;
}

std::string Abbreviated(const std::string& path) {
  if (path.size() <= 160) return path;
  return fmt::format("{}...{}", path.substr(0, 100),
                     path.substr(path.size() - 50));
}

std::string NotSearchedTooLong(const std::string& path) {
  return fmt::format(
      "not searched: the path is {} bytes, longer than PATH_MAX ({}), so it "
      "cannot be opened; any input below it was not checked (expected a "
      "path shorter than PATH_MAX: check it from a directory nearer to it)",
      path.size(), PATH_MAX);
}

std::string NotSearchedTooDeep(int max_depth, const std::string& root) {
  return fmt::format(
      "directory not searched: more than {} directory levels below {}, the "
      "search's depth limit; any input below it was not checked (expected at "
      "most {} levels: name a directory nearer to it to check it)",
      max_depth, root, max_depth);
}

std::string NotSearchedUnreadable(int err) {
  return fmt::format(
      "directory not searched: it cannot be read ({}); any input below it "
      "was not checked (expected a directory topolint can list: make it "
      "readable, or leave it out with --exclude)",
      ErrnoMessage(err));
}

std::string JoinPath(const std::string& dir, std::string_view name) {
  // The current directory's entries are named as ruff and git name them:
  // "llama/def.json", not "./llama/def.json", so that every format (text,
  // JSON, SARIF, JUnit, GitHub) shows one path when run from the root.
  if (dir == "." || dir == "./") return std::string(name);
  const bool slash = dir.back() != '/';
  std::string out;
  out.reserve(dir.size() + slash + name.size());
  out.append(dir);
  if (slash) out.push_back('/');
  out.append(name);
  return out;
}

int ReadDirEntries(int fd, std::string* names, std::vector<DirEntry>* out) {
  alignas(8) char buf[32768];
  int err = 0;
  for (;;) {
    const ssize_t n = ::getdents64(fd, buf, sizeof(buf));
    if (n < 0) {
      err = errno;
      break;
    }
    if (n == 0) break;
    bool bad_record = false;
    for (size_t off = 0; off < static_cast<size_t>(n);) {
      unsigned short reclen;
      std::memcpy(&reclen, buf + off + offsetof(struct dirent64, d_reclen),
                  sizeof(reclen));
      const unsigned char type = static_cast<unsigned char>(
          buf[off + offsetof(struct dirent64, d_type)]);
      const char* name = buf + off + offsetof(struct dirent64, d_name);
      if (reclen == 0) {  // cannot happen; never loop forever
        bad_record = true;
        break;
      }
      off += reclen;
      if (name[0] == '.' &&
          (name[1] == 0 || (name[1] == '.' && name[2] == 0))) {
        continue;
      }
      const size_t size = std::strlen(name);
      out->push_back({names->size(), size, type});
      names->append(name, size + 1);
    }
    if (bad_record) break;
  }
  const char* const blob = names->data();
  std::sort(out->begin(), out->end(),
            [blob](const DirEntry& a, const DirEntry& b) {
              return std::string_view(blob + a.offset, a.size) <
                     std::string_view(blob + b.offset, b.size);
            });
  return err;
}

EntryInfo ClassifyDirEntry(const std::string& path, const char* name,
                           unsigned char type, bool follow_symlinks) {
  EntryInfo info;
  if (path.size() >= PATH_MAX) {
    // Not even stat() takes it: report, do not guess what it is.
    info.kind = EntryInfo::kNotSearched;
    info.reason = NotSearchedTooLong(path);
    return info;
  }
  mode_t mode = DTTOIF(type);  // 0 for DT_UNKNOWN
  bool broken = false;
  struct stat st;
  if (type == DT_UNKNOWN) {
    broken = ::lstat(path.c_str(), &st) != 0;
    if (!broken) mode = st.st_mode;
  }
  const bool link = S_ISLNK(mode);
  if (link) {
    broken = ::stat(path.c_str(), &st) != 0;
    mode = broken ? 0 : st.st_mode;
  }
  const bool dir = S_ISDIR(mode);
  const bool regular = S_ISREG(mode);
  if (name[0] == '.') {
    // .git, .topolint.json (read as settings), editor files.
    if (std::string_view(name) == ".topolint.json") {
      info.kind = EntryInfo::kSettings;
      info.files = regular ? 1 : 0;
    } else {
      info.kind = EntryInfo::kSkip;
      info.reason = "hidden (names starting with '.' are not searched)";
      info.files = regular ? 1 : 0;
    }
    return info;
  }
  if (dir) {
    if (link && !follow_symlinks) {
      info.kind = EntryInfo::kSkip;
      info.reason =
          "symbolic link to a directory; not followed "
          "(--follow-symlinks follows it)";
      return info;
    }
    info.kind = EntryInfo::kDir;
    return info;
  }
  if (regular) {
    info.kind = EntryInfo::kFile;
    info.files = 1;
    return info;
  }
  info.kind = EntryInfo::kSkip;
  info.reason = broken ? "broken symbolic link" : TypeName(mode);
  return info;
}

}  // namespace topolint
