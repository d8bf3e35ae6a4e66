#include "checker/core/dir_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "checker/core/dir_entries.h"
#include "checker/core/worker_thread.h"
#include "checker/diag/input_file.h"
#include "fmt/format.h"

namespace topolint {
namespace fs = std::filesystem;
namespace {

using DirId = std::pair<dev_t, ino_t>;

// One directory of the walk and what it holds, in name order. Directories
// are listed by whichever thread is free; the results are put together in
// depth-first order afterwards (Emit), so that they do not depend on -j.
struct Node {
  enum Kind { kFile, kSkip, kNotSearched, kChild };
  struct Event {
    Kind kind;
    std::string text;    // the path
    std::string reason;  // kSkip, kNotSearched
    size_t n = 0;        // kSkip: files it stands for; kChild: child index
    std::string in;      // kNotSearched: the directory listed above it
  };
  std::string path;  // display: generic, no trailing '/'
  int depth = 0;
  const Node* parent = nullptr;
  bool have_id = false;  // stat() succeeded: `id` says which directory
  DirId id{};
  bool listed = false;  // every entry was read
  bool has_settings = false;
  std::vector<Event> events;
  std::vector<std::unique_ptr<Node>> children;
  size_t children_handed = 0;  // children already on the listing stack

  // `p` could not be entered (an unchecked-input finding).
  void NotSearched(std::string p, std::string message) {
    // The node itself (in its parent's settings), or an entry of it.
    std::string above = p != path           ? path
                        : parent != nullptr ? parent->path
                                            : std::string();
    events.push_back(
        {kNotSearched, std::move(p), std::move(message), 0, std::move(above)});
  }
  void Skip(std::string p, std::string reason, size_t files) {
    events.push_back({kSkip, std::move(p), std::move(reason), files, {}});
  }
};

// Lists directories (Node::List), `jobs` threads at a time once there is
// more than one directory waiting. With more than one thread, a directory's
// subdirectories are handed to the others kHandOff at a time while it is
// still being read (a compile cache's version directory holds thousands of
// entries: the other threads need not wait for all of them).
class Lister {
 public:
  static constexpr size_t kHandOff = 16;

  explicit Lister(const DiscoveryLimits& limits) : limits_(limits) {}

  // Lists `top` (the path given: `root`) and everything below it. Fails when
  // `top` cannot be listed.
  absl::Status Run(Node* top, const std::string& root) {
    root_ = root;
    ++dirs_;
    // Following symlinks, one directory may be met through many paths:
    // listing in depth-first order on one thread lists each once.
    threads_ = limits_.follow_symlinks ? 1 : std::max(1, limits_.jobs);
    stack_.push_back(top);
    std::vector<WorkerThread> pool;
    Work(&pool);
    for (WorkerThread& t : pool) t.join();
    return error_;
  }

  size_t files() const { return files_.load(); }
  size_t dirs() const { return dirs_.load(); }

 private:
  // Pops directories until none is left; the calling thread (`pool` not
  // null) starts the others as soon as there is work for them.
  void Work(std::vector<WorkerThread>* pool) {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return !stack_.empty() || busy_ == 0 || failed_; });
      if (failed_ || stack_.empty()) break;
      StartPoolIfWorthIt(pool);
      Node* node = stack_.back();
      stack_.pop_back();
      ++busy_;
      lock.unlock();
      absl::Status st = List(node, pool);
      lock.lock();
      --busy_;
      if (!st.ok() && !failed_) {
        failed_ = true;
        error_ = st;
      }
      PushChildren(node);
      cv_.notify_all();
    }
  }

  // Under mu_: the calling thread starts the others once more than one
  // directory waits (no thread for a tree of one directory).
  // Workers the system refuses are left out: the others (at least the
  // calling thread) list everything.
  void StartPoolIfWorthIt(std::vector<WorkerThread>* pool) {
    if (pool != nullptr && threads_ > 1 && !pool_started_ &&
        stack_.size() > 1) {
      pool_started_ = true;
      *pool = StartWorkers(threads_ - 1, [this] { Work(nullptr); });
    }
  }

  // Under mu_: puts the children of `node` not handed yet on the stack,
  // reversed: on one thread, the first child is listed next (depth first,
  // as Emit reads them).
  void PushChildren(Node* node) {
    for (size_t i = node->children.size(); i > node->children_handed; --i) {
      stack_.push_back(node->children[i - 1].get());
    }
    node->children_handed = node->children.size();
  }

  // While `node` is being read by a walk of several threads: hands its
  // children found so far to the others.
  void HandOff(Node* node, std::vector<WorkerThread>* pool) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      PushChildren(node);
      StartPoolIfWorthIt(pool);
    }
    cv_.notify_all();
  }

  absl::Status List(Node* node, std::vector<WorkerThread>* pool);
  absl::Status Entry(Node* node, const char* name, unsigned char type);

  const DiscoveryLimits& limits_;
  std::string root_;
  std::atomic<size_t> files_{0};  // regular files found so far
  std::atomic<size_t> dirs_{0};   // directories found so far, tops included
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Node*> stack_;
  int threads_ = 1;
  bool pool_started_ = false;
  int busy_ = 0;
  bool failed_ = false;
  absl::Status error_;
  absl::flat_hash_set<DirId> claimed_;  // one thread only (follow_symlinks)
};

absl::Status Lister::List(Node* node, std::vector<WorkerThread>* pool) {
  const std::string& shown = node->path;
  if (shown.size() >= PATH_MAX) {
    node->NotSearched(shown, NotSearchedTooLong(shown));
    return absl::OkStatus();
  }
  if (node->depth > limits_.max_depth) {
    node->NotSearched(shown, NotSearchedTooDeep(limits_.max_depth, root_));
    return absl::OkStatus();
  }
  // The directory's identity (to know one met twice, Emit) from the open
  // descriptor: one path lookup per directory. Only a directory that cannot
  // be opened costs a stat() for it.
  const int fd = ::open(shown.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const int open_error = fd < 0 ? errno : 0;
  struct stat st;
  if (fd >= 0 ? ::fstat(fd, &st) == 0 : ::stat(shown.c_str(), &st) == 0) {
    node->have_id = true;
    node->id = {st.st_dev, st.st_ino};
    bool again = limits_.follow_symlinks && !claimed_.insert(node->id).second;
    for (const Node* up = node->parent; up != nullptr && !again;
         up = up->parent) {
      again = up->have_id && up->id == node->id;  // a loop
    }
    if (again) {
      if (fd >= 0) ::close(fd);
      return absl::OkStatus();  // Emit reports it
    }
  }
  if (fd < 0) {
    if (node->depth == 0) {  // named on the command line: an unreadable input
      return absl::PermissionDeniedError(fmt::format(
          "{}: cannot read directory: {}", shown, ErrnoMessage(open_error)));
    }
    node->NotSearched(shown, NotSearchedUnreadable(open_error));
    return absl::OkStatus();
  }
  std::string names;
  names.reserve(256);  // one block for the names of a small directory
  std::vector<DirEntry> entries;
  node->listed = true;
  const int read_error = ReadDirEntries(fd, &names, &entries);
  ::close(fd);
  if (read_error != 0) {
    node->NotSearched(shown, NotSearchedUnreadable(read_error));
    node->listed = false;
    if (node->depth == 0) {
      // Named on the command line (`check .` in a deleted directory): exit 2.
      return absl::NotFoundError(fmt::format("{}: cannot read directory: {}",
                                             shown, ErrnoMessage(read_error)));
    }
  }
  const char* const blob = names.data();
  node->events.reserve(entries.size());
  for (const DirEntry& e : entries) {
    if (auto s = Entry(node, blob + e.offset, e.type); !s.ok()) return s;
    if (threads_ > 1 &&
        node->children.size() - node->children_handed >= kHandOff) {
      HandOff(node, pool);
    }
  }
  return absl::OkStatus();
}

absl::Status Lister::Entry(Node* node, const char* name, unsigned char type) {
  std::string p = JoinPath(node->path, name);
  EntryInfo info = ClassifyDirEntry(p, name, type, limits_.follow_symlinks);
  switch (info.kind) {
    case EntryInfo::kNotSearched:
      node->NotSearched(std::move(p), std::move(info.reason));
      break;
    case EntryInfo::kSettings:
      node->has_settings = info.files != 0;
      break;
    case EntryInfo::kSkip:
      node->Skip(std::move(p), std::move(info.reason), info.files);
      break;
    case EntryInfo::kDir: {
      ++dirs_;
      auto child = std::make_unique<Node>();
      child->path = std::move(p);
      child->depth = node->depth + 1;
      child->parent = node;
      node->events.push_back({Node::kChild, "", "", node->children.size(), {}});
      node->children.push_back(std::move(child));
      break;
    }
    case EntryInfo::kFile:
      ++files_;
      node->events.push_back({Node::kFile, std::move(p), "", 0, {}});
      break;
  }
  return absl::OkStatus();
}

// Puts what the listing found into `result`, depth first and in name order
// (as one thread walking would): a directory met a second time is skipped,
// once, where it is met second.
void Emit(Node* node, const std::shared_ptr<const std::string>& root,
          absl::flat_hash_set<DirId>* seen, WalkResult* result) {
  if (node->have_id && !seen->insert(node->id).second) {
    result->skipped.push_back(
        {node->path, "already searched (a symbolic link leads here twice)", 0});
    return;
  }
  // The node is dropped once emitted: its path moves.
  if (node->listed) {
    result->listed.push_back({std::move(node->path), node->has_settings});
  }
  for (Node::Event& e : node->events) {
    switch (e.kind) {
      case Node::kFile:
        result->files.push_back({std::move(e.text), root, false});
        break;
      case Node::kSkip:
        result->skipped.push_back(
            {std::move(e.text), std::move(e.reason), e.n});
        break;
      case Node::kNotSearched:
        result->skipped.push_back({Abbreviated(e.text), e.reason, 0});
        result->not_searched.push_back(
            {std::move(e.in), std::move(e.text), std::move(e.reason)});
        break;
      case Node::kChild:
        Emit(node->children[e.n].get(), root, seen, result);
        node->children[e.n].reset();
        break;
    }
  }
}

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
  absl::flat_hash_set<DirId> seen;
  Lister lister(limits);
  for (const std::string& p : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) return CheckReadableKind(p);
    if (fs::is_directory(st)) {
      const auto root =
          std::make_shared<const std::string>(WithoutTrailingSlash(p));
      Node top;
      top.path = fs::path(*root).generic_string();
      // A directory named twice (or inside one named before) is listed once.
      struct stat id;
      if (::stat(top.path.c_str(), &id) == 0 &&
          seen.count({id.st_dev, id.st_ino}) != 0) {
        top.have_id = true;
        top.id = {id.st_dev, id.st_ino};
      } else if (auto s = lister.Run(&top, *root); !s.ok()) {
        return s;
      }
      result->files.reserve(lister.files());
      result->listed.reserve(lister.dirs());
      seen.reserve(lister.dirs());
      Emit(&top, root, &seen, result);
      continue;
    }
    // Refuses devices, FIFOs and sockets before anything could block.
    if (absl::Status s = CheckReadableKind(p); !s.ok()) return s;
    std::ifstream probe(p, std::ios::binary);
    if (!probe) {
      return absl::PermissionDeniedError(
          fmt::format("{}: cannot read file", p));
    }
    result->files.push_back(
        {p, std::make_shared<const std::string>(ParentDisplay(p)), true});
  }
  return absl::OkStatus();
}

}  // namespace topolint
