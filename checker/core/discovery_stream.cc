#include "checker/core/discovery_stream.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <utility>

#include "checker/core/dir_entries.h"
#include "checker/core/gitignore.h"
#include "checker/core/path_filter.h"
#include "checker/io/repo_paths.h"
#include "checker/io/status_macros.h"
#include "fmt/format.h"

namespace topolint {
namespace fs = std::filesystem;

// One directory on the way down from the path given.
struct UnitStream::Frame {
  std::string path;       // display, as DiscoverUnits gives it
  std::string group_dir;  // the units' directory (GroupDir of its files)
  int depth = 0;
  bool has_settings = false;  // a `.topolint.json` that is a regular file
  bool has_git = false;       // a `.git`: the top of a work tree
  std::optional<std::pair<uint64_t, uint64_t>> id;  // device, inode
  std::vector<std::string> subdirs;  // names, in path order ("d/")
  size_t next_sub = 0;
  DirGroup group;
  // An NxD bucket with a `model/` below: grouped once that is listed.
  bool bucket_waits = false;
  // Its configs are in the units below that inherit them.
  bool config_inherited = false;
  bool configs_counted = false;
  // A directory of configs only: its unit, until a unit below inherits
  // them (then it is dropped) or the subtree is done (then it is queued).
  std::optional<UnitSpec> config_only;
  std::string config_only_key;
};

std::string RealPath(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) != nullptr ? std::string(buf)
                                                  : std::string();
}

std::string WithoutTrailingSlash(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

namespace {

// Whether directory name `a` sorts before `b` in path order, where a
// directory `d` sorts as "d/": (a + '/') < (b + '/'), without building
// either string (a sort of 20,000 names compares ~300,000 times).
bool SlashedLess(const std::string& a, const std::string& b) {
  const size_t n = std::min(a.size(), b.size());
  const int c = std::char_traits<char>::compare(a.data(), b.data(), n);
  if (c != 0) return c < 0;
  if (a.size() == b.size()) return false;
  const auto slash = static_cast<unsigned char>('/');
  if (a.size() < b.size()) {
    return b[n] == '/' || slash < static_cast<unsigned char>(b[n]);
  }
  return a[n] != '/' && static_cast<unsigned char>(a[n]) < slash;
}

}  // namespace

UnitStream::UnitStream(std::string root, const DiscoveryLimits& limits,
                       SkippedFn on_skipped, std::shared_ptr<FileNames> names)
    : limits_(limits),
      root_(std::make_shared<const std::string>(
          WithoutTrailingSlash(std::move(root)))),
      on_skipped_(std::move(on_skipped)),
      names_(names != nullptr ? std::move(names)
                              : std::make_shared<FileNames>()) {}

std::string WalkedPathBelow(const std::string& top, std::string_view target,
                            int max_depth) {
  const bool below = top == "/" ? target.size() > 1
                                : target.size() > top.size() + 1 &&
                                      target.compare(0, top.size(), top) == 0 &&
                                      target[top.size()] == '/';
  if (!below) return "";
  const std::string_view rel = target.substr(top == "/" ? 1 : top.size() + 1);
  // Hidden names are not searched, nor levels below the limit.
  int levels = 0;
  for (size_t at = 0; at < rel.size();) {
    if (rel[at] == '.') return "";
    const size_t slash = rel.find('/', at);
    if (slash == std::string_view::npos) break;
    ++levels;
    at = slash + 1;
  }
  if (levels > max_depth) return "";
  return std::string(rel);
}

UnitStream::~UnitStream() = default;

absl::StatusOr<bool> UnitStream::Next(StreamedUnit* unit) {
  if (absl::Status st = Fill(); !st.ok()) return st;
  if (ready_.empty()) return false;
  auto it = ready_.begin();
  *unit = std::move(it->second);
  ready_.erase(it);
  return true;
}

absl::Status UnitStream::Fill() {
  while (error_.ok()) {
    if (!ready_.empty()) {
      const std::optional<std::string> bound = Bound();
      if (!bound || ready_.begin()->first.first < *bound) break;
    }
    if (started_ && stack_.empty()) break;
    error_ = Step();
  }
  return error_;
}

absl::Status UnitStream::Step() {
  if (!started_) {
    started_ = true;
    return List(fs::path(*root_).generic_string(), 0);
  }
  Frame& top = *stack_.back();
  if (top.next_sub < top.subdirs.size()) {
    const std::string& name = top.subdirs[top.next_sub++];
    return List(JoinPath(top.path, name), top.depth + 1);
  }
  Finish(&top);
  stack_.pop_back();
  return absl::OkStatus();
}

std::optional<std::string> UnitStream::Bound() const {
  std::optional<std::string> bound;
  auto lower = [&bound](std::string b) {
    if (!bound || b < *bound) bound = std::move(b);
  };
  for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
    const Frame& f = **it;
    if (f.next_sub < f.subdirs.size()) {
      // The directory's own path: a skipped compile-cache entry or an
      // unchecked-input record of the directory is reported there.
      lower(JoinPath(f.path, f.subdirs[f.next_sub]));
      break;  // frames below continue after this subtree: later paths
    }
  }
  for (const auto& f : stack_) {
    if (f->bucket_waits) lower(f->path);
    if (f->config_only) lower(f->config_only_key);
  }
  return bound;
}

std::string UnitStream::NoteListed(const std::string& dir, bool has_gitignore) {
  if (!LookUpGitignore()) return "";
  std::string rel =
      GitignoreSearchRoot(gitignore_->root(), AbsoluteNormalPath(dir, cwd_));
  if (!rel.empty()) gitignore_->NoteListed(rel, has_gitignore);
  return rel;
}

bool UnitStream::LookUpGitignore() {
  if (!limits_.honour_gitignore) return false;
  if (!gitignore_looked_up_) {
    gitignore_looked_up_ = true;
    std::error_code ec;
    cwd_ = fs::current_path(ec).string();
    if (ec) return false;
    const std::string abs = AbsoluteNormalPath(*root_, cwd_);
    const std::string git_root = FindGitRoot(abs);
    if (!git_root.empty()) {
      gitignore_ = std::make_unique<GitignoreFilter>(git_root);
      search_root_ = GitignoreSearchRoot(git_root, abs);
    }
  }
  return gitignore_ != nullptr;
}

bool UnitStream::Ignored(const FoundFile& f) {
  if (!LookUpGitignore()) return false;
  const std::string p = AbsoluteNormalPath(f.path, cwd_);
  const std::string& top = gitignore_->root();
  if (p.size() <= top.size() || p.compare(0, top.size(), top) != 0 ||
      p[top.size()] != '/') {
    return false;
  }
  return gitignore_->Ignored(std::string_view(p).substr(top.size() + 1),
                             /*is_dir=*/false, search_root_);
}

void UnitStream::Ready(const Frame* frame, StreamedUnit out) {
  if (frame != nullptr && out.spec.directory == frame->path) {
    out.dir_listed = true;
    out.dir_has_settings = frame->has_settings;
    out.dir_has_git = frame->has_git;
  }
  std::string key = out.key;
  ready_.emplace(std::make_pair(std::move(key), sequence_++), std::move(out));
}

std::string UnitStream::SecondName(int dir_fd, const std::string& path,
                                   bool maybe_link) {
  const std::string_view dir = ParentView(path);
  struct stat st;
  if (::fstatat(dir_fd, std::string(BaseName(path)).c_str(), &st, 0) != 0) {
    return "";
  }
  const std::pair<uint64_t, uint64_t> id{st.st_dev, st.st_ino};
  if (maybe_link) {
    struct stat lst;
    maybe_link = ::fstatat(dir_fd, std::string(BaseName(path)).c_str(), &lst,
                           AT_SYMLINK_NOFOLLOW) == 0 &&
                 S_ISLNK(lst.st_mode);
  }
  if (st.st_nlink <= 1 && !maybe_link) return "";
  // A name met before, in another directory (several names in one
  // directory: DropSameFiles chooses among them).
  auto it = names_->checked.find(id);
  if (it != names_->checked.end()) {
    return ParentView(it->second) != dir ? it->second : std::string();
  }
  if (maybe_link) {
    // A symlink to a file that a search walks under its own name: that name
    // is checked (before or after this one).
    std::string target = WalkedName(path);
    if (!target.empty() && ParentView(target) != dir) {
      names_->checked.emplace(id, target);
      return target;
    }
  }
  names_->checked.emplace(id, path);
  return "";
}

std::string UnitStream::WalkedName(const std::string& link) {
  const std::string target = RealPath(link);
  if (target.empty()) return "";
  if (canonical_root_.empty()) {
    canonical_root_ = RealPath(*root_);
    if (canonical_root_.empty()) canonical_root_ = "\n";  // matches no path
  }
  // This search first (its filters apply), then the other directories of
  // the command line.
  const std::string rel =
      WalkedPathBelow(canonical_root_, target, limits_.max_depth);
  if (!rel.empty()) {
    FoundFile file{JoinPath(*root_, rel), root_, false};
    if (limits_.selector != nullptr) {
      absl::StatusOr<std::string> why = limits_.selector->Reject(file);
      if (!why.ok() || !why->empty()) return "";
    }
    if (Ignored(file)) return "";
    return std::move(file.path);
  }
  for (const auto& [top, given] : names_->roots) {
    if (top == canonical_root_) continue;
    std::string other = WalkedPathBelow(top, target, limits_.max_depth);
    if (!other.empty()) return JoinPath(given, other);
  }
  return "";
}

void UnitStream::NotSearched(const Frame* in, std::string path,
                             std::string message) {
  on_skipped_({Abbreviated(path), message, 0});
  StreamedUnit out;
  out.key = path;
  out.spec =
      NotSearchedUnit(in != nullptr ? in->path : std::string(ParentView(path)),
                      std::move(path), std::move(message));
  Ready(in, std::move(out));
}

// One directory in walk order: open it, refuse loops, read its entries,
// classify and hand on its files, form its units. Measured at cognitive
// complexity 68 and 166 lines when the checks came in (after issue 46 §3
// made this the only walk); its split into those steps is the next change
// here, not one made blind in the same commit.
// NOLINTNEXTLINE(readability-function-size,readability-function-cognitive-complexity)
absl::Status UnitStream::List(const std::string& path, int depth) {
  // What cannot be entered is an unchecked-input finding, in the settings
  // of the directory listed above it.
  const Frame* above = stack_.empty() ? nullptr : stack_.back().get();
  if (path.size() >= PATH_MAX) {
    NotSearched(above, path, NotSearchedTooLong(path));
    return absl::OkStatus();
  }
  if (depth > limits_.max_depth) {
    NotSearched(above, path, NotSearchedTooDeep(limits_.max_depth, *root_));
    return absl::OkStatus();
  }
  auto frame = std::make_unique<Frame>();
  frame->path = path;
  frame->depth = depth;
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const int open_error = fd < 0 ? errno : 0;
  struct stat st;
  if (fd >= 0 ? ::fstat(fd, &st) == 0 : ::stat(path.c_str(), &st) == 0) {
    frame->id.emplace(st.st_dev, st.st_ino);
    bool again = limits_.follow_symlinks && !claimed_.insert(*frame->id).second;
    for (const auto& up : stack_) {
      again = again || up->id == frame->id;  // a loop
    }
    if (again) {
      if (fd >= 0) ::close(fd);
      on_skipped_(
          {path, "already searched (a symbolic link leads here twice)", 0});
      return absl::OkStatus();
    }
  }
  if (fd < 0) {
    if (depth == 0) {
      return absl::PermissionDeniedError(fmt::format(
          "{}: cannot read directory: {}", path, ErrnoMessage(open_error)));
    }
    NotSearched(above, path, NotSearchedUnreadable(open_error));
    return absl::OkStatus();
  }
  std::string names;
  std::vector<DirEntry> entries;
  const int read_error = ReadDirEntries(fd, &names, &entries);
  ++listed_;
  if (read_error != 0) {
    if (depth == 0) {
      return absl::NotFoundError(fmt::format("{}: cannot read directory: {}",
                                             path, ErrnoMessage(read_error)));
    }
    // The entries read before the error are searched.
    NotSearched(above, path, NotSearchedUnreadable(read_error));
  }
  std::vector<std::string> files;
  std::vector<bool> file_is_link;  // by files' index
  std::vector<std::pair<std::string, std::string>> too_long;
  bool has_gitignore = false;
  for (const DirEntry& e : entries) {
    const char* name = names.data() + e.offset;
    if (std::string_view(name, e.size) == ".gitignore") has_gitignore = true;
    std::string p = JoinPath(path, std::string_view(name, e.size));
    EntryInfo info = ClassifyDirEntry(p, name, e.type, limits_.follow_symlinks);
    switch (info.kind) {
      case EntryInfo::kNotSearched:
        too_long.emplace_back(std::move(p), std::move(info.reason));
        break;
      case EntryInfo::kSettings:
        frame->has_settings = info.files != 0;
        break;
      case EntryInfo::kSkip:
        if (std::string_view(name) == ".git") frame->has_git = true;
        on_skipped_({std::move(p), std::move(info.reason), info.files});
        break;
      case EntryInfo::kDir:
        frame->subdirs.emplace_back(name, e.size);
        break;
      case EntryInfo::kFile:
        files.push_back(std::move(p));
        file_is_link.push_back(e.type == DT_LNK || e.type == DT_UNKNOWN);
        break;
    }
  }
  // Path order: a directory `d` sorts as "d/" among its siblings.
  std::sort(frame->subdirs.begin(), frame->subdirs.end(), SlashedLess);
  // An NxD bucket's `model/` files belong to the bucket's units.
  Frame* parent = stack_.empty() ? nullptr : stack_.back().get();
  const std::string_view base = BaseName(path);
  const bool bucket_model = parent != nullptr && base == "model" &&
                            IsBucketName(BaseName(parent->path));
  frame->group_dir = depth == 0 ? GroupDir(JoinPath(path, "x")) : path;
  frame->group.dir = frame->group_dir;
  frame->bucket_waits =
      IsBucketName(base) &&
      std::binary_search(frame->subdirs.begin(), frame->subdirs.end(),
                         std::string("model"), SlashedLess);
  Frame* owner = bucket_model ? parent : frame.get();
  if (limits_.selector != nullptr) {
    limits_.selector->HintDirectory(
        path, SeenDir{frame->has_settings, frame->has_git});
  }
  // The directory relative to the work tree, once: each file's is that
  // and its name ("" when not below the work tree's top: judged by path).
  const std::string rel_dir =
      files.empty() ? std::string() : NoteListed(path, has_gitignore);
  std::string rel_file;
  for (size_t i = 0; i < files.size(); ++i) {
    std::string& p = files[i];
    ClassifiedFile c;
    c.file = {std::move(p), root_, false};
    if (!names_->named.empty()) {
      // A file also named on the command line: kept as named.
      struct stat fst;
      c.file.named = ::fstatat(fd, std::string(BaseName(c.file.path)).c_str(),
                               &fst, 0) == 0 &&
                     names_->named.count({fst.st_dev, fst.st_ino}) != 0;
    }
    if (limits_.selector != nullptr) {
      TOPOLINT_ASSIGN_OR_RETURN(std::string why,
                                limits_.selector->Reject(c.file));
      if (!why.empty()) {
        on_skipped_({std::move(c.file.path), std::move(why), 1});
        continue;
      }
    }
    bool ignored;
    if (c.file.named) {
      ignored = false;  // .gitignore leaves named files alone
    } else if (!rel_dir.empty()) {
      rel_file.assign(rel_dir).append("/").append(BaseName(c.file.path));
      ignored = gitignore_->Ignored(rel_file, /*is_dir=*/false, search_root_);
    } else {
      ignored = Ignored(c.file);
    }
    if (ignored) {
      on_skipped_({std::move(c.file.path),
                   "ignored by .gitignore (--no-ignore reads it)", 1});
      continue;
    }
    ClassifyFound(&c);
    if (c.role == FileRole::kNone) {
      on_skipped_({std::move(c.file.path), std::move(c.reason), 1});
      continue;
    }
    if (c.role == FileRole::kUnread) {
      // Counted as skipped, and reported by its directory's unit.
      on_skipped_({c.file.path, c.reason, 1});
    }
    if (c.role != FileRole::kCacheMarker && c.role != FileRole::kUnread) {
      if (std::string first = SecondName(fd, c.file.path, file_is_link[i]);
          !first.empty()) {
        on_skipped_({c.file.path,
                     fmt::format("same file as {} (one device and inode); "
                                 "checked once, as {}",
                                 first, first),
                     1});
        continue;
      }
    }
    AddFileToGroup(std::move(c), &owner->group);
  }
  ::close(fd);
  for (auto& [p, why] : too_long) {
    NotSearched(frame.get(), std::move(p), std::move(why));
  }
  stack_.push_back(std::move(frame));
  Frame& added = *stack_.back();
  if (!added.bucket_waits) FormUnits(&added);
  return absl::OkStatus();
}

std::vector<StreamedUnit> GroupUnits(
    DirGroup* g, const std::function<void(SkippedPath)>& on_skipped,
    bool count_shared) {
  std::vector<SkippedPath> dropped;
  DropSameFiles(g, &dropped);
  for (SkippedPath& d : dropped) on_skipped(std::move(d));
  std::vector<std::string> shared;  // listed by several units
  for (const InputFile& f : g->configs) shared.push_back(f.path);
  DirUnitList mine = DirUnits(*g);
  if (mine.size() > 1) {
    for (const InputFile& f : g->shared) shared.push_back(f.path);
  }
  std::vector<StreamedUnit> units;
  for (UnitSpec& u : mine) {
    StreamedUnit out;
    out.key = UnitKeyOf(u);
    out.shared = shared;
    for (const InputFile& f : u.files) {
      if (std::find(shared.begin(), shared.end(), f.path) == shared.end()) {
        ++out.new_files;
      }
    }
    if (count_shared && units.empty()) out.new_files += shared.size();
    out.spec = std::move(u);
    units.push_back(std::move(out));
  }
  return units;
}

void SortByPath(UnitSpec* spec) {
  std::sort(
      spec->files.begin(), spec->files.end(),
      [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
}

void UnitStream::FormUnits(Frame* frame) {
  DirGroup& g = frame->group;
  if (g.files == 0) return;
  const std::string dir(g.dir);
  UncheckedInput::Kind kind;
  if (std::string why = CacheEntryProblem(g, &kind); !why.empty()) {
    on_skipped_({dir, "compile-cache entry: " + why,
                 g.files - g.markers.size() - g.unread.size()});
    StreamedUnit out;
    out.spec = SkippedEntryUnit(dir, kind, why);
    out.key = dir;
    Ready(frame, std::move(out));
    return;
  }
  if (g.markers.size() == g.files) return;  // markers alone
  const bool modules = g.modules();
  const bool own_unit = modules || !g.shared.empty() || !g.unread.empty();
  // The nearest component config above, up to the path given.
  Frame* from = nullptr;
  if (g.configs.empty() && modules && dir != g.root && dir != ParentView(dir)) {
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
      Frame* up = it->get();
      if (up == frame || up->path.size() >= dir.size()) continue;
      if (!up->group.configs.empty()) {
        from = up;
        break;
      }
    }
  }
  std::vector<StreamedUnit> units =
      GroupUnits(&g, on_skipped_, own_unit && !frame->configs_counted);
  if (!own_unit) {
    frame->config_only = std::move(units.front().spec);
    frame->config_only_key = std::move(units.front().key);
    return;
  }
  frame->configs_counted = true;
  for (StreamedUnit& out : units) {
    if (from != nullptr) {
      for (InputFile f : from->group.configs) {
        f.named = false;
        out.shared.push_back(f.path);
        out.spec.files.push_back(std::move(f));
      }
      from->config_inherited = true;
      from->config_only.reset();
      if (!from->configs_counted) {
        out.new_files += from->group.configs.size();
        from->configs_counted = true;
      }
    }
    SortByPath(&out.spec);
    Ready(frame, std::move(out));
  }
}

void UnitStream::Finish(Frame* frame) {
  if (frame->bucket_waits) {
    frame->bucket_waits = false;
    FormUnits(frame);
  }
  if (frame->config_only && !frame->config_inherited) {
    StreamedUnit out;
    out.key = frame->config_only_key;
    for (const InputFile& f : frame->group.configs)
      out.shared.push_back(f.path);
    out.new_files = frame->config_only->files.size();
    out.spec = *std::move(frame->config_only);
    frame->config_only.reset();
    SortByPath(&out.spec);
    Ready(frame, std::move(out));
  }
}

}  // namespace topolint
