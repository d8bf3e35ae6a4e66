#include "checker/io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "checker/io/repo_paths.h"
#include "fmt/format.h"

namespace topolint {
namespace {

// A status of `code`: `what` (a format and its arguments) and the reason
// errno gives. errno is read first, so the arguments must be values ready
// before the call, not calls that could change it.
template <typename... Args>
absl::Status ErrnoStatus(absl::StatusCode code,
                         fmt::format_string<const Args&...> what,
                         const Args&... args) {
  const int err = errno;
  return absl::Status(code, fmt::format("{}: {}", fmt::format(what, args...),
                                        std::strerror(err)));
}

// Closes `*fd` (set to -1) and checks the close: on some file systems (NFS,
// quotas) it is where a write fails.
absl::Status CloseWritten(int* fd, const std::string& target) {
  const int closing = *fd;
  *fd = -1;
  if (close(closing) == 0 || errno == EINTR) return absl::OkStatus();
  return ErrnoStatus(absl::StatusCode::kDataLoss, "{}: write failed on close",
                     target);
}

// The file a symlink chain ends at, or `path` itself.
std::string ResolveTarget(const std::string& path) {
  struct stat lst;
  if (lstat(path.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) return path;
  char* real = realpath(path.c_str(), nullptr);
  if (real == nullptr) return path;  // dangling: the link is replaced
  std::string resolved(real);
  std::free(real);
  return resolved;
}

// Temporaries that exist under a name, for the signal handler: fixed slots
// of fixed size, so that the handler only reads memory and calls unlink
// (async-signal-safe). A slot is published by its flag after its bytes.
constexpr int kTempSlots = 16;
constexpr size_t kTempPathBytes = PATH_MAX + 1;
char g_temp_paths[kTempSlots][kTempPathBytes];
std::atomic<bool> g_temp_live[kTempSlots];

int RegisterTemp(const std::string& path) {
  if (path.size() >= kTempPathBytes) return -1;
  for (int i = 0; i < kTempSlots; ++i) {
    if (g_temp_live[i].load()) continue;
    std::memcpy(g_temp_paths[i], path.c_str(), path.size() + 1);
    g_temp_live[i].store(true);
    return i;
  }
  return -1;
}

// Frees `*slot` (-1: none) and sets it to -1.
void UnregisterTemp(int* slot) {
  if (*slot >= 0) g_temp_live[*slot].store(false);
  *slot = -1;
}

void RemoveTempsOnSignal(int sig) {
  RemoveLiveTempFiles();
  // Then die of the signal as if it had not been caught.
  signal(sig, SIG_DFL);
  raise(sig);
}

// `DIR/.BASE.topolint-XXXXXX` beside `target` (DIR/BASE), the base cut so
// that the name fits NAME_MAX.
std::string TempName(std::string_view target) {
  constexpr size_t kExtra = sizeof(".") - 1 + sizeof(".topolint-XXXXXX") - 1;
  std::string_view base = BaseName(target);
  if (base.size() + kExtra > NAME_MAX) base = base.substr(0, NAME_MAX - kExtra);
  return fmt::format("{}/.{}.topolint-XXXXXX", ParentView(target), base);
}

// The descriptor of this process that `path` names by one of its aliases
// (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), or -1. Written
// through that descriptor, as a shell writes `> /dev/stderr`: replacing the
// file behind it would drop what others write to the same descriptor (a
// compiler run by exec), and a closed one must fail, not write elsewhere.
int DescriptorAlias(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const size_t n = std::strlen(prefix);
    if (path.compare(0, n, prefix) != 0 || path.size() == n ||
        path.size() - n > 9) {
      continue;
    }
    int fd = 0;
    for (size_t i = n; i < path.size(); ++i) {
      if (path[i] < '0' || path[i] > '9') return -1;
      fd = fd * 10 + (path[i] - '0');
    }
    return fd;
  }
  return -1;
}

// The replacement of an existing file keeps its owner and group, as
// `sed -i` does (root fixing another user's file must not make it root's);
// where the process may not (not root), it keeps what it can: a group the
// user is in, else its own. Then the permissions, after the chown (which
// clears set-user-ID and set-group-ID bits).
void KeepOwnerAndMode(int fd, const struct stat* old, mode_t mode) {
  if (old != nullptr) {
    struct stat now;
    if (fstat(fd, &now) == 0 &&
        (now.st_uid != old->st_uid || now.st_gid != old->st_gid) &&
        fchown(fd, old->st_uid, old->st_gid) != 0) {
      [[maybe_unused]] const int ignored =
          fchown(fd, static_cast<uid_t>(-1), old->st_gid);
    }
  }
  fchmod(fd, mode);
}

mode_t CurrentUmask() {
  const mode_t mask = umask(0);
  umask(mask);
  return mask;
}

}  // namespace

absl::Status WriteAllFd(int fd, std::string_view data,
                        const std::string& name) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus(absl::StatusCode::kDataLoss, "{}: write failed", name);
    }
    if (n == 0) {
      return absl::DataLossError(
          fmt::format("{}: write failed: no progress", name));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

void RemoveLiveTempFiles() {
  for (int i = 0; i < kTempSlots; ++i) {
    if (g_temp_live[i].load()) unlink(g_temp_paths[i]);
  }
}

void RemoveTempFilesOnSignals() {
  struct sigaction sa {};
  sa.sa_handler = RemoveTempsOnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    // A signal ignored by the parent (nohup) stays ignored.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) {
      continue;
    }
    sigaction(sig, &sa, nullptr);
  }
}

StagedOutput::~StagedOutput() { Discard(); }

void StagedOutput::Discard() {
  if (fd_ >= 0) {
    close(fd_);
    fd_ = -1;
  }
  if (!committed_ && !temp_.empty()) {
    unlink(temp_.c_str());
    temp_.clear();
  }
  UnregisterTemp(&slot_);
}

bool StagedOutput::LinkUnnamed() {
  // The unnamed file gets a name next to the target: linkat through
  // /proc/self/fd (or AT_EMPTY_PATH where the process may).
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = TempName(target_);
    // mkstemp's name choice, without keeping the file it makes.
    const int probe = mkostemp(name.data(), O_CLOEXEC);
    if (probe < 0) return false;
    close(probe);
    unlink(name.c_str());
    temp_ = std::move(name);
    slot_ = RegisterTemp(temp_);
    if (linkat(fd_, "", AT_FDCWD, temp_.c_str(), AT_EMPTY_PATH) == 0 ||
        linkat(AT_FDCWD, fmt::format("/proc/self/fd/{}", fd_).c_str(), AT_FDCWD,
               temp_.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      return true;
    }
    const int err = errno;
    UnregisterTemp(&slot_);
    temp_.clear();
    if (err != EEXIST) return false;
  }
  return false;
}

absl::Status StagedOutput::Open(const std::string& path) {
  if (const int alias = DescriptorAlias(path);
      alias >= 0 && fcntl(alias, F_GETFD) != -1) {
    // Written in place through a copy of the descriptor: its writes are
    // checked as any (EBADF for a closed standard stream, which main()
    // holds read-only).
    target_ = path;
    fd_ = fcntl(alias, F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0) {
      return ErrnoStatus(absl::StatusCode::kPermissionDenied,
                         "{}: cannot open for writing", path);
    }
    return absl::OkStatus();
  }
  target_ = ResolveTarget(path);
  struct stat st;
  const bool exists = stat(target_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        fmt::format("{}: is a directory", path));
  }
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or pipe: nothing to replace; write it in place. Non-blocking
    // open so that a FIFO without a reader fails (ENXIO) instead of hanging.
    fd_ = open(target_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) {
      return ErrnoStatus(absl::StatusCode::kPermissionDenied,
                         "{}: cannot open for writing", path);
    }
    const int flags = fcntl(fd_, F_GETFL);
    if (flags >= 0) fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
    return absl::OkStatus();
  }
  const std::string dir(ParentView(target_));
  // The new file gets the old one's permissions, or the usual 0666 & ~umask.
  const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~CurrentUmask());
  // An unnamed file (O_TMPFILE) first: nothing is left behind whatever
  // ends the process, SIGKILL included; it is named only to be renamed.
  fd_ = open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd_ >= 0 && (access("/proc/self/fd", X_OK) == 0 || geteuid() == 0)) {
    unnamed_ = true;
    KeepOwnerAndMode(fd_, exists ? &st : nullptr, mode);
    return absl::OkStatus();
  }
  if (fd_ >= 0) close(fd_);
  std::string templ = TempName(target_);
  fd_ = mkostemp(templ.data(), O_CLOEXEC);
  if (fd_ < 0) {
    return ErrnoStatus(absl::StatusCode::kPermissionDenied,
                       "{}: cannot create a temporary file in {}", path, dir);
  }
  temp_ = std::move(templ);
  slot_ = RegisterTemp(temp_);
  KeepOwnerAndMode(fd_, exists ? &st : nullptr, mode);
  return absl::OkStatus();
}

absl::Status StagedOutput::Write(std::string_view data) {
  if (!error_.ok()) return error_;
  if (fd_ < 0) {
    error_ = absl::FailedPreconditionError(
        fmt::format("{}: not open for writing", target_));
    return error_;
  }
  error_ = WriteAllFd(fd_, data, target_);
  return error_;
}

absl::Status StagedOutput::Finish() {
  if (!error_.ok()) return error_;
  if (fd_ < 0) return absl::FailedPreconditionError("output not open");
  if ((unnamed_ || !temp_.empty()) && fsync(fd_) != 0) {
    error_ = ErrnoStatus(absl::StatusCode::kDataLoss,
                         "{}: cannot flush to disk", target_);
    return error_;
  }
  finished_ = true;
  if (unnamed_) return absl::OkStatus();  // closed by Commit (or Discard)
  error_ = CloseWritten(&fd_, target_);
  return error_;
}

absl::Status StagedOutput::Commit() {
  if (!finished_) {
    return absl::FailedPreconditionError(
        fmt::format("{}: output not finished", target_));
  }
  if (unnamed_) {
    const std::string_view dir = ParentView(target_);
    if (!LinkUnnamed()) {
      return ErrnoStatus(absl::StatusCode::kDataLoss,
                         "{}: cannot name the finished file in {}", target_,
                         dir);
    }
    if (absl::Status closed = CloseWritten(&fd_, target_); !closed.ok()) {
      return closed;
    }
  }
  if (temp_.empty()) {
    committed_ = true;
    return absl::OkStatus();
  }
  if (rename(temp_.c_str(), target_.c_str()) != 0) {
    return ErrnoStatus(absl::StatusCode::kDataLoss,
                       "{}: cannot rename {} into place", target_, temp_);
  }
  committed_ = true;
  temp_.clear();
  UnregisterTemp(&slot_);
  return absl::OkStatus();
}

}  // namespace topolint
