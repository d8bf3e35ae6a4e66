#include "checker/diag/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fmt/format.h"

namespace topolint {
namespace {

std::string Errno(int err) { return std::strerror(err); }

std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
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
      const int err = errno;
      return absl::DataLossError(
          fmt::format("{}: write failed: {}", name, Errno(err)));
    }
    if (n == 0) {
      return absl::DataLossError(
          fmt::format("{}: write failed: no progress", name));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
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
}

absl::Status StagedOutput::Open(const std::string& path) {
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
      const int err = errno;
      return absl::PermissionDeniedError(
          fmt::format("{}: cannot open for writing: {}", path, Errno(err)));
    }
    const int flags = fcntl(fd_, F_GETFL);
    if (flags >= 0) fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
    return absl::OkStatus();
  }
  const std::string dir = DirOf(target_);
  std::string templ =
      fmt::format("{}/.{}.topolint-XXXXXX", dir, BaseOf(target_));
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  fd_ = mkostemp(buf.data(), O_CLOEXEC);
  if (fd_ < 0) {
    const int err = errno;
    return absl::PermissionDeniedError(fmt::format(
        "{}: cannot create a temporary file in {}: {}", path, dir, Errno(err)));
  }
  temp_ = buf.data();
  // The new file gets the old one's permissions, or the usual 0666 & ~umask.
  const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~CurrentUmask());
  fchmod(fd_, mode);
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
  if (!temp_.empty() && fsync(fd_) != 0) {
    const int err = errno;
    error_ = absl::DataLossError(
        fmt::format("{}: cannot flush to disk: {}", target_, Errno(err)));
    return error_;
  }
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0 && errno != EINTR) {
    const int err = errno;
    error_ = absl::DataLossError(
        fmt::format("{}: write failed on close: {}", target_, Errno(err)));
    return error_;
  }
  finished_ = true;
  return absl::OkStatus();
}

absl::Status StagedOutput::Commit() {
  if (!finished_) {
    return absl::FailedPreconditionError(
        fmt::format("{}: output not finished", target_));
  }
  if (temp_.empty()) {
    committed_ = true;
    return absl::OkStatus();
  }
  if (rename(temp_.c_str(), target_.c_str()) != 0) {
    const int err = errno;
    return absl::DataLossError(fmt::format(
        "{}: cannot rename {} into place: {}", target_, temp_, Errno(err)));
  }
  committed_ = true;
  temp_.clear();
  return absl::OkStatus();
}

}  // namespace topolint
