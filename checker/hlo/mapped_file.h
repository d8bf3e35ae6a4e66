// A regular file mapped into memory for the parser to read in place, and
// what keeps a file that shrinks meanwhile from killing the process.
//
// Reading a large module through read() copies it into a window while the
// parse waits; a mapping lets the parser read the page cache itself while
// the hardware prefetcher fetches ahead (docs/history/performance-diary.md,
// fourth pass).
// But a mapped page that the file loses (truncated by another process)
// raises SIGBUS when it is touched. So mapping is opt-in per process
// (EnableFileMapping, which the CLI calls; the C and C++ APIs run inside
// other programs and never map), and while any mapping is live a SIGBUS
// handler puts zero-filled pages over the part of the mapping that is gone
// and marks it truncated: the parser reads NUL bytes there (which end its
// window), and the caller reports the file as changed while it was read.
// A SIGBUS elsewhere goes to the handler that was there before (or the
// default action). Internal to checker/hlo.
#ifndef TOPOLINT_CHECKER_HLO_MAPPED_FILE_H_
#define TOPOLINT_CHECKER_HLO_MAPPED_FILE_H_

#include <cstddef>

namespace topolint::hlo {

// Lets MappedFile::Map map files from now on (and installs the SIGBUS
// handler when the first mapping is made). Idempotent; thread-safe.
void EnableFileMapping();
bool FileMappingEnabled();

// Not copyable or movable (the handler knows its address range).
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Maps the first `size` bytes of `fd` (a regular file that size long),
  // privately: writes go to copy-on-write pages, never to the file. False,
  // holding nothing, when mapping is not enabled, `size` is 0, the mapping
  // fails, or as many mappings as the handler tracks are live already.
  bool Map(int fd, size_t size);

  char* data() const { return data_; }
  size_t size() const { return size_; }

  // A part of the mapping vanished (the file shrank) and reads as zeros.
  bool truncated() const;

  // Gives the pages wholly before `offset` back to the kernel (the page
  // cache keeps them), so that memory holds the part still in use; their
  // bytes read as the file's again if touched. Call with growing offsets.
  void DropBefore(size_t offset);

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t dropped_ = 0;  // bytes from the start given back
  int slot_ = -1;       // the handler's entry for this mapping
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_MAPPED_FILE_H_
