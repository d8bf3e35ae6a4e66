// What one directory holds, read the way the walk needs it
// (discovery_stream.h walks as units are checked): the entries in name
// order, each with what it is and, for an entry left out, why; and what a
// search is given and reports.
#ifndef TOPOLINT_CHECKER_CORE_DIR_ENTRIES_H_
#define TOPOLINT_CHECKER_CORE_DIR_ENTRIES_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace topolint {

class PathSelector;

struct DiscoveryLimits {
  int max_depth = 64;  // directory levels below a path given
  bool follow_symlinks = false;
  int jobs = 1;  // not used by the walk (one thread takes units at a time)
  // --include / --exclude and the config's filters (path_filter.h), applied
  // to the files found before they are classified; null = none.
  PathSelector* selector = nullptr;
  // Leave out what the .gitignore files of a git work tree ignore (for
  // files found by a search, not those named: discovery.h, gitignore.h).
  bool honour_gitignore = false;
};

// A path left out, and why ("not a recognised input", "symbolic link to a
// directory; not followed", ...). `files` is how many regular files it
// stands for (0 for a directory whose contents were never listed).
struct SkippedPath {
  std::string path;
  std::string reason;
  size_t files = 1;
};

struct FoundFile {
  std::string path;  // display: the path given, or joined below it
  // The path given that led here (no trailing '/'): one string for all the
  // files found below it, not a copy per file.
  std::shared_ptr<const std::string> root;
  bool named = false;
};

// "Permission denied" -> "permission denied" (strerror, to fit inside a
// message).
std::string ErrnoMessage(int err);

// A path too long to print whole, by its ends.
std::string Abbreviated(const std::string& path);

// What an unchecked-input finding says of a path the search could not
// enter (UncheckedInput::Kind::kNotSearched; the finding is located at the
// path, so the messages do not repeat it): its path is longer than PATH_MAX,
// it is more than `max_depth` levels below the path given `root`, or it
// cannot be opened or read (`err`, an errno).
std::string NotSearchedTooLong(const std::string& path);
std::string NotSearchedTooDeep(int max_depth, const std::string& root);
std::string NotSearchedUnreadable(int err);

// `dir/name`, allocated once; `name` alone when `dir` is "." (the current
// directory's entries are named without "./").
std::string JoinPath(const std::string& dir, std::string_view name);

// One entry of a directory: its name is names[offset, offset + size), with
// a NUL after it; `type` is getdents64's d_type.
struct DirEntry {
  size_t offset;
  size_t size;
  unsigned char type;
};

// Reads the entries of the open directory `fd` (but "." and "..") into
// `names` / `out`, sorted by name: no readdir() buffer, one string for all
// names. Returns 0, or the errno of a failed read (what was read stays).
int ReadDirEntries(int fd, std::string* names, std::vector<DirEntry>* out);

// What an entry is to a search.
struct EntryInfo {
  enum Kind {
    kFile,         // a regular file (or a symlink to one): searched
    kDir,          // a directory to descend into
    kSkip,         // left out: `reason`, standing for `files` regular files
    kNotSearched,  // not searched, an unchecked-input finding: `reason`
                   // (a path longer than PATH_MAX)
    kSettings,     // `.topolint.json`; `files` is 1 when a regular file
  };
  Kind kind = kFile;
  std::string reason;
  size_t files = 0;
};

// Classifies the entry `name` (d_type `type`) of directory `dir`, whose
// joined path is `path`: only a symlink (or a file system that gives no
// type) costs a stat(). Hidden names (a leading '.') are skipped, but
// `.topolint.json`; a directory symlink is skipped unless `follow_symlinks`.
EntryInfo ClassifyDirEntry(const std::string& path, const char* name,
                           unsigned char type, bool follow_symlinks);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_DIR_ENTRIES_H_
