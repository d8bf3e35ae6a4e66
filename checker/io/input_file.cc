#include "checker/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

#include "absl/strings/match.h"
#include "checker/io/status_macros.h"
#include "fmt/format.h"

namespace topolint {
namespace {

// True when `path` names a descriptor (/dev/fd/N, /proc/self/fd/N,
// /proc/PID/fd/N) whose link target is an anonymous pipe: "pipe:[inode]".
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

// What `path` is (following symlinks) from one stat(); `*err` is its
// errno when it fails (the kind is then kMissing).
FileKind StatKind(const std::string& path, int* err) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *err = errno;
    return FileKind::kMissing;
  }
  *err = 0;
  FileKind kind = KindOfMode(st.st_mode);
  if (kind == FileKind::kFifo && PathIsAnonymousPipe(path)) {
    kind = FileKind::kPipe;
  }
  return kind;
}

// Reads `fd` to its end into `*out`, at most `limit` bytes (ReadFdBounded).
// `sized`: `expected` is the file's size, so the first read asks for one
// byte more (the read after it sees the end) into a buffer of that size;
// otherwise reads go 64 KiB first, then doubling.
absl::Status ReadFdSized(int fd, const std::string& name, size_t limit,
                         std::string_view what, bool sized, size_t expected,
                         std::string* out) {
  out->clear();
  constexpr size_t kChunk = size_t{1} << 16;
  // Never more than limit + 1 bytes: one past the limit proves it.
  size_t cap = std::min(sized ? expected + 1 : kChunk, limit + 1);
  while (true) {
    const size_t old = out->size();
    if (old == cap) cap = std::min(std::max(2 * cap, old + kChunk), limit + 1);
    const size_t want = cap - old;
    out->resize(cap);
    ssize_t n;
    do {
      n = read(fd, out->data() + old, want);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      const int err = errno;
      out->clear();
      return absl::DataLossError(
          fmt::format("{}: read error: {}", name, std::strerror(err)));
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

}  // namespace

FileKind KindOfPath(const std::string& path) {
  int err = 0;
  return StatKind(path, &err);
}

std::string_view KindName(FileKind kind) {
  // In the order of FileKind.
  static constexpr std::string_view kNames[] = {"missing",
                                                "a regular file",
                                                "a pipe",
                                                "a directory",
                                                "a named pipe (FIFO)",
                                                "a character device",
                                                "a block device",
                                                "a socket",
                                                "not a regular file"};
  static_assert(std::size(kNames) == static_cast<size_t>(FileKind::kOther) + 1);
  return kNames[static_cast<size_t>(kind)];
}

absl::Status CheckReadableKind(const std::string& path) {
  int err = 0;
  const FileKind kind = StatKind(path, &err);
  if (err != 0 && err != ENOENT && err != ENOTDIR) {
    return absl::PermissionDeniedError(
        fmt::format("{}: cannot access: {}", path, std::strerror(err)));
  }
  return KindError(path, kind);
}

absl::StatusOr<OpenedInput> OpenInput(const std::string& path,
                                      OpenCheck check) {
  // A socket cannot be opened at all (ENXIO): say what it is instead.
  if (check == OpenCheck::kStatFirst) {
    if (absl::Status st = CheckReadableKind(path); !st.ok()) return st;
  }
  int fd;
  do {
    fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int err = errno;
    if (check == OpenCheck::kSeenRegular) {
      // Worded as the stat-first open words it (gone, a socket now, ...).
      if (absl::Status st = CheckReadableKind(path); !st.ok()) return st;
    }
    const std::string message =
        fmt::format("{}: cannot open: {}", path, std::strerror(err));
    return err == ENOENT ? absl::NotFoundError(message)
                         : absl::PermissionDeniedError(message);
  }
  // The path may have changed since it was looked at: judge the descriptor.
  struct stat st;
  FileKind kind = FileKind::kOther;
  if (fstat(fd, &st) == 0) kind = KindOfMode(st.st_mode);
  if (kind == FileKind::kFifo &&
      PathIsAnonymousPipe(fmt::format("/proc/self/fd/{}", fd))) {
    kind = FileKind::kPipe;
  }
  if (absl::Status bad = KindError(path, kind); !bad.ok()) {
    close(fd);
    return bad;
  }
  OpenedInput in;
  in.fd = fd;
  in.kind = kind;
  if (kind == FileKind::kRegular) {
    in.size = static_cast<int64_t>(st.st_size);
  } else {
    // A pipe is read blocking (O_NONBLOCK only kept open() from waiting).
    const int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  }
  return in;
}

absl::StatusOr<int> OpenInputFd(const std::string& path) {
  TOPOLINT_ASSIGN_OR_RETURN(const OpenedInput in, OpenInput(path));
  return in.fd;
}

absl::StatusOr<std::FILE*> OpenInputFile(const std::string& path) {
  TOPOLINT_ASSIGN_OR_RETURN(const int fd, OpenInputFd(path));
  std::FILE* f = fdopen(fd, "rb");
  if (f == nullptr) {
    const int err = errno;
    close(fd);
    return absl::ResourceExhaustedError(
        fmt::format("{}: cannot open: {}", path, std::strerror(err)));
  }
  return f;
}

absl::Status ReadFdBounded(int fd, const std::string& name, size_t limit,
                           std::string_view what, std::string* out) {
  return ReadFdSized(fd, name, limit, what, /*sized=*/false, 0, out);
}

absl::StatusOr<bool> ReadIfPipe(int fd, const std::string& name,
                                std::string* out, int64_t* file_size) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (file_size != nullptr) *file_size = static_cast<int64_t>(st.st_size);
    return false;
  }
  const absl::Status read =
      ReadFdBounded(fd, name, kMaxStdinBytes, "pipes", out);
  ::close(fd);
  if (!read.ok()) return read;
  return true;
}

absl::Status ReadOpenedBounded(const OpenedInput& in, const std::string& name,
                               size_t limit, std::string_view what,
                               std::string* out) {
  const bool sized = in.kind == FileKind::kRegular && in.size >= 0;
  return ReadFdSized(in.fd, name, limit, what, sized,
                     sized ? static_cast<size_t>(in.size) : 0, out);
}

absl::Status ReadInputFile(const std::string& path, size_t limit,
                           std::string_view what, std::string* out,
                           OpenCheck check) {
  TOPOLINT_ASSIGN_OR_RETURN(const OpenedInput in, OpenInput(path, check));
  absl::Status st = ReadOpenedBounded(in, path, limit, what, out);
  close(in.fd);
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
