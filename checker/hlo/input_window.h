// A bounded window over the bytes of an input, read in chunks either from
// text already in memory or from a FILE*. The buffered bytes are always
// followed by one NUL sentinel byte, so scanners can test one byte per step
// and find the end of the window where they find a NUL. Internal to
// checker/hlo.
#ifndef TOPOLINT_CHECKER_HLO_INPUT_WINDOW_H_
#define TOPOLINT_CHECKER_HLO_INPUT_WINDOW_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <string_view>

namespace topolint::hlo {

// Line ends are those of the user's editor: a '\r' not followed by '\n'
// (old Mac) is served as '\n', so lines count as editors count them (XLA's
// lexer takes both as whitespace, and both end a `//` comment: nothing else
// changes); "\r\n" stays as it is. A UTF-8 byte order mark at the start is
// not served. So LF, CRLF, CR and BOM files parse to the same findings at
// the same line and column.
//
// Not copyable or movable (readers hold pointers into the buffer).
class InputWindow {
 public:
  // Reads `text` (which must outlive the window) `chunk_bytes` at a time.
  InputWindow(std::string_view text, size_t chunk_bytes);
  // Reads `file` (not owned; left open) `chunk_bytes` at a time.
  InputWindow(std::FILE* file, size_t chunk_bytes);
  // Serves `head` (the first bytes of a pipe, already read; it must outlive
  // the window), then reads the rest from `file` as above.
  InputWindow(std::string_view head, std::FILE* file, size_t chunk_bytes);
  InputWindow(const InputWindow&) = delete;
  InputWindow& operator=(const InputWindow&) = delete;

  // The buffered bytes are [begin(), end()), and *end() == '\0'. begin() is
  // at absolute input offset base(). At least kSlackBytes readable (but
  // meaningless) bytes follow end(), so block scanners may over-read.
  static constexpr size_t kSlackBytes = 64;
  const char* begin() const { return begin_; }
  const char* end() const { return end_; }
  int64_t base() const { return base_; }

  // Drops the bytes before absolute offset `keep_from` (which must lie in
  // [base(), base() + size]) and appends the next chunk. Invalidates every
  // pointer into the buffer, whatever it returns. Returns false (no new
  // bytes) at end of input or on a read error.
  bool Refill(int64_t keep_from);

  bool read_error() const { return read_error_; }

  // Bytes of the input before absolute offset 0: 3 when a byte order mark
  // was left out, else 0. An offset plus this is the input's byte offset.
  int64_t skipped_prefix() const { return skipped_prefix_; }

  // The whole input's length when it is known (text in memory), else -1 (a
  // file, read in chunks).
  int64_t known_size() const {
    if (file_ != nullptr) return -1;
    return base_ + (end_ - begin_) + static_cast<int64_t>(text_.size());
  }

  // Stops reading a file source after `bytes` bytes; too_large() then says
  // that more were there (an endless pipe, a file past the HLO limit).
  void set_limit(int64_t bytes) { limit_ = bytes; }
  bool too_large() const { return too_large_; }

 private:
  size_t Read(char* dst, size_t n);
  // Read, then lone '\r' to '\n' in what it read (looking one byte ahead).
  size_t ReadNormalised(char* dst, size_t n);
  // The next byte a file source holds (read into pending_), or -1.
  int PeekFile();

  // Alignment of the address each chunk is read to.
  static constexpr size_t kReadAlign = 64;
  struct AlignedDelete {
    void operator()(char* p) const {
      ::operator delete[](p, std::align_val_t{kReadAlign});
    }
  };

  const char* begin_;
  const char* end_;
  int64_t base_ = 0;
  std::string_view text_;      // memory source: the bytes not yet read
  std::FILE* file_ = nullptr;  // file source
  size_t chunk_bytes_;
  std::unique_ptr<char[], AlignedDelete> storage_;
  size_t capacity_ = 0;
  bool eof_ = false;
  bool drained_ = false;  // a file read came back short: nothing follows
  bool read_error_ = false;
  int64_t limit_ = INT64_MAX;
  int64_t file_bytes_ = 0;
  // Bytes read from a file source ahead of time (the BOM check, the byte
  // after a '\r'), served before the file's next bytes.
  char pending_[4];
  size_t pending_size_ = 0;
  std::string_view head_;  // a file source's first bytes, read by the caller
  bool bom_checked_ = false;
  int64_t skipped_prefix_ = 0;
  bool too_large_ = false;
  static const char kEmpty[kSlackBytes + 1];
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_INPUT_WINDOW_H_
