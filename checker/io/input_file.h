// Opening and reading inputs safely: one file-kind check and one bounded
// reader shared by every reader of the tool (HLO, JSON, .topolint.json,
// baselines, .neff, standard input).
//
// What can be read: regular files and anonymous pipes (`-` on a pipe,
// `<(cat model.hlo)` named as /dev/fd/N). What is refused, with a message
// naming the kind: directories, named FIFOs (opening one blocks until a
// writer comes), character and block devices (/dev/zero never ends) and
// sockets. A symlink is judged by its target. Reads are bounded while
// reading (never by asking the size first: a pipe or device reports 0).
#ifndef TOPOLINT_CHECKER_IO_INPUT_FILE_H_
#define TOPOLINT_CHECKER_IO_INPUT_FILE_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace topolint {

enum class FileKind {
  kMissing,
  kRegular,
  kPipe,  // an anonymous pipe (/dev/fd/N of a pipe, process substitution)
  kDirectory,
  kFifo,  // a named FIFO in the file system
  kCharDevice,
  kBlockDevice,
  kSocket,
  kOther,
};

// What `path` is, following symlinks. A FIFO reached through /dev/fd/N or
// /proc/<pid>/fd/N whose link target is "pipe:[...]" is kPipe.
FileKind KindOfPath(const std::string& path);

// "a directory", "a named pipe (FIFO)", "a character device", ...: how
// messages name a kind.
std::string_view KindName(FileKind kind);

// Ok for kRegular and kPipe; otherwise an error "PATH: is a directory, not a
// file" / "PATH: is a character device; only regular files and pipes are
// read" / "PATH: no such file or directory" (NotFound only then).
absl::Status CheckReadableKind(const std::string& path);

// Opens `path` read-only without blocking (a FIFO without a writer would
// block in open), checks what the descriptor is, and returns it in blocking
// mode. The caller owns the descriptor. Errors as CheckReadableKind, or
// "PATH: cannot open: <strerror>".
absl::StatusOr<int> OpenInputFd(const std::string& path);

// An input opened by OpenInput: the descriptor (the caller owns it, in
// blocking mode), what it is (kRegular or kPipe) and, for a regular file,
// its size when it was opened (a hint for sizing reads, never a bound: the
// file may change while it is read).
struct OpenedInput {
  int fd = -1;
  FileKind kind = FileKind::kRegular;
  int64_t size = 0;
};

// How OpenInput looks at `path` before opening it.
enum class OpenCheck {
  // stat() the path first, so that a device, FIFO or socket named by the
  // user is refused without being opened.
  kStatFirst,
  // The directory walk saw a regular file there (its type from readdir):
  // open at once, judge the descriptor. A file replaced by a device or FIFO
  // since the walk is opened (without blocking, without becoming the
  // controlling terminal) and then refused with the same message.
  kSeenRegular,
};

// OpenInputFd, saying what was opened. With kSeenRegular a regular file
// costs open + fstat, nothing else (O_NONBLOCK is not cleared on a regular
// file, where it changes nothing).
absl::StatusOr<OpenedInput> OpenInput(const std::string& path,
                                      OpenCheck check = OpenCheck::kStatFirst);

// As OpenInputFd, wrapped in a FILE* ("rb"); the caller fcloses it.
absl::StatusOr<std::FILE*> OpenInputFile(const std::string& path);

// Reads `fd` to its end into `*out`, failing (ResourceExhausted) as soon as
// more than `limit` bytes arrive: "NAME: more than LIMIT bytes; the limit
// for WHAT is LIMIT". `name` and `what` are for messages ("standard input",
// "baselines"). Read errors are DataLoss "NAME: read error: <strerror>".
absl::Status ReadFdBounded(int fd, const std::string& name, size_t limit,
                           std::string_view what, std::string* out);

// For a descriptor that is not a regular file (a pipe, as from `<(...)`),
// whose head cannot be sniffed without consuming it: reads it to its end
// (at most kMaxStdinBytes, "pipes") into `*out`, closes it and returns true.
// A regular file: false, nothing read, `fd` left open, its size in
// `*file_size` when given.
absl::StatusOr<bool> ReadIfPipe(int fd, const std::string& name,
                                std::string* out, int64_t* file_size = nullptr);

// ReadFdBounded for an input OpenInput opened: a regular file is read with
// one read() of its size (and one that sees its end) into a buffer of that
// size. Does not close the descriptor.
absl::Status ReadOpenedBounded(const OpenedInput& in, const std::string& name,
                               size_t limit, std::string_view what,
                               std::string* out);

// OpenInput + ReadOpenedBounded + close.
absl::Status ReadInputFile(const std::string& path, size_t limit,
                           std::string_view what, std::string* out,
                           OpenCheck check = OpenCheck::kStatFirst);

// Byte limits of the readers that hold a whole input in memory.
inline constexpr size_t kMaxStdinBytes = size_t{1} << 30;  // 1 GiB
// def.json and component configs read from disk (held whole, then parsed:
// at most 2^20 values, ~56 MiB, besides the text).
inline constexpr size_t kMaxJsonFileBytes = size_t{64} << 20;      // 64 MiB
inline constexpr size_t kMaxBaselineBytes = size_t{256} << 20;     // 256 MiB
inline constexpr size_t kMaxProjectConfigBytes = size_t{1} << 20;  // 1 MiB
// HLO is streamed (never held whole); the limit bounds the time spent on an
// endless pipe.
inline constexpr int64_t kMaxHloBytes = int64_t{64} << 30;  // 64 GiB

// The identity of a file, for "is this output one of the inputs?".
struct FileId {
  uint64_t dev = 0;
  uint64_t ino = 0;
  bool operator==(const FileId& o) const {
    return dev == o.dev && ino == o.ino;
  }
};

// The device and inode of `path` (following symlinks), or false when it
// does not exist.
bool IdOfPath(const std::string& path, FileId* id);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_IO_INPUT_FILE_H_
