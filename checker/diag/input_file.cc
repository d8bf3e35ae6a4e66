#include "checker/diag/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/match.h"
#include "fmt/format.h"

namespace topolint {
namespace {

std::string Errno(int err) { return std::strerror(err); }

// True when descriptor `fd` (a FIFO) is an anonymous pipe: its /proc link
// reads "pipe:[inode]".
bool FdIsAnonymousPipe(int fd) {
  char target[64];
  const std::string link = fmt::format("/proc/self/fd/{}", fd);
  const ssize_t n = readlink(link.c_str(), target, sizeof(target) - 1);
  if (n <= 0) return false;
  return std::string_view(target, static_cast<size_t>(n)).substr(0, 5) ==
         "pipe:";
}

// True when `path` names a descriptor (/dev/fd/N, /proc/self/fd/N,
// /proc/PID/fd/N) whose link target is an anonymous pipe.
bool PathIsAnonymousPipe(const std::string& path) {
  char target[64];
  const ssize_t n = readlink(path.c_str(), target, sizeof(target) - 1);
  if (n > 0 && std::string_view(target, static_cast<size_t>(n)).substr(0, 5) ==
                   "pipe:") {
    return true;
  }
  // /dev/fd/N -> /proc/self/fd/N -> pipe:[...]
  if (n > 0 && absl::StartsWith(path, "/dev/fd/")) {
    return PathIsAnonymousPipe(std::string(target, static_cast<size_t>(n)));
  }
  return false;
}

FileKind KindOfMode(mode_t mode) {
  if (S_ISREG(mode)) return FileKind::kRegular;
  if (S_ISDIR(mode)) return FileKind::kDirectory;
  if (S_ISFIFO(mode)) return FileKind::kFifo;
  if (S_ISCHR(mode)) return FileKind::kCharDevice;
  if (S_ISBLK(mode)) return FileKind::kBlockDevice;
  if (S_ISSOCK(mode)) return FileKind::kSocket;
  return FileKind::kOther;
}

absl::Status KindError(const std::string& path, FileKind kind) {
  switch (kind) {
    case FileKind::kRegular:
    case FileKind::kPipe:
      return absl::OkStatus();
    case FileKind::kMissing:
      return absl::NotFoundError(
          fmt::format("{}: no such file or directory", path));
    case FileKind::kDirectory:
      return absl::FailedPreconditionError(
          fmt::format("{}: is a directory, not a file", path));
    default:
      return absl::FailedPreconditionError(
          fmt::format("{}: is {}; only regular files and pipes are read", path,
                      KindName(kind)));
  }
}

}  // namespace

FileKind KindOfPath(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return FileKind::kMissing;
  FileKind kind = KindOfMode(st.st_mode);
  if (kind == FileKind::kFifo && PathIsAnonymousPipe(path)) {
    kind = FileKind::kPipe;
  }
  return kind;
}

std::string_view KindName(FileKind kind) {
  switch (kind) {
    case FileKind::kMissing:
      return "missing";
    case FileKind::kRegular:
      return "a regular file";
    case FileKind::kPipe:
      return "a pipe";
    case FileKind::kDirectory:
      return "a directory";
    case FileKind::kFifo:
      return "a named pipe (FIFO)";
    case FileKind::kCharDevice:
      return "a character device";
    case FileKind::kBlockDevice:
      return "a block device";
    case FileKind::kSocket:
      return "a socket";
    case FileKind::kOther:
      break;
  }
  return "not a regular file";
}

absl::Status CheckReadableKind(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 && errno != ENOENT && errno != ENOTDIR) {
    const int err = errno;
    return absl::PermissionDeniedError(
        fmt::format("{}: cannot access: {}", path, Errno(err)));
  }
  return KindError(path, KindOfPath(path));
}

absl::StatusOr<int> OpenInputFd(const std::string& path) {
  // A socket cannot be opened at all (ENXIO): say what it is instead.
  if (absl::Status st = CheckReadableKind(path); !st.ok()) return st;
  int fd;
  do {
    fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int err = errno;
    const std::string message =
        fmt::format("{}: cannot open: {}", path, Errno(err));
    return err == ENOENT ? absl::NotFoundError(message)
                         : absl::PermissionDeniedError(message);
  }
  // The path may have changed between the two looks: judge the descriptor.
  struct stat st;
  FileKind kind = FileKind::kOther;
  if (fstat(fd, &st) == 0) kind = KindOfMode(st.st_mode);
  if (kind == FileKind::kFifo && FdIsAnonymousPipe(fd)) kind = FileKind::kPipe;
  if (absl::Status bad = KindError(path, kind); !bad.ok()) {
    close(fd);
    return bad;
  }
  const int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

absl::StatusOr<std::FILE*> OpenInputFile(const std::string& path) {
  absl::StatusOr<int> fd = OpenInputFd(path);
  if (!fd.ok()) return fd.status();
  std::FILE* f = fdopen(*fd, "rb");
  if (f == nullptr) {
    const int err = errno;
    close(*fd);
    return absl::ResourceExhaustedError(
        fmt::format("{}: cannot open: {}", path, Errno(err)));
  }
  return f;
}

absl::Status ReadFdBounded(int fd, const std::string& name, size_t limit,
                           std::string_view what, std::string* out) {
  out->clear();
  constexpr size_t kChunk = size_t{1} << 16;
  while (true) {
    const size_t old = out->size();
    // Never more than limit + 1 bytes: one past the limit proves it.
    const size_t want = std::min(kChunk, limit + 1 - old);
    out->resize(old + want);
    ssize_t n;
    do {
      n = read(fd, out->data() + old, want);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      const int err = errno;
      out->clear();
      return absl::DataLossError(
          fmt::format("{}: read error: {}", name, Errno(err)));
    }
    out->resize(old + static_cast<size_t>(n));
    if (n == 0) return absl::OkStatus();
    if (out->size() > limit) {
      out->clear();
      out->shrink_to_fit();
      return absl::ResourceExhaustedError(
          fmt::format("{}: more than {} bytes; the limit for {} is {} bytes",
                      name, limit, what, limit));
    }
  }
}

absl::Status ReadInputFile(const std::string& path, size_t limit,
                           std::string_view what, std::string* out) {
  absl::StatusOr<int> fd = OpenInputFd(path);
  if (!fd.ok()) return fd.status();
  absl::Status st = ReadFdBounded(*fd, path, limit, what, out);
  close(*fd);
  return st;
}

bool IdOfPath(const std::string& path, FileId* id) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return false;
  id->dev = static_cast<uint64_t>(st.st_dev);
  id->ino = static_cast<uint64_t>(st.st_ino);
  return true;
}

}  // namespace topolint
