#include "checker/hlo/input_window.h"

#include <algorithm>
#include <cstring>

namespace topolint::hlo {

const char InputWindow::kEmpty[kSlackBytes + 1] = {};

namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Each '\r' of [p, p + n) not followed by '\n' becomes '\n'; `next` is the
// byte after the range (-1: none).
void LoneCrToNewline(char* p, size_t n, int next) {
  char* const end = p + n;
  for (char* cr = static_cast<char*>(std::memchr(p, '\r', n)); cr != nullptr;
       cr = static_cast<char*>(
           std::memchr(cr + 1, '\r', static_cast<size_t>(end - cr - 1)))) {
    const int after = cr + 1 < end ? static_cast<unsigned char>(cr[1]) : next;
    if (after != '\n') *cr = '\n';
  }
}

}  // namespace

InputWindow::InputWindow(std::string_view text, size_t chunk_bytes)
    : begin_(kEmpty),
      end_(kEmpty),
      text_(text),
      chunk_bytes_(std::max<size_t>(chunk_bytes, 1)) {
  if (text_.substr(0, kUtf8Bom.size()) == kUtf8Bom) {
    text_.remove_prefix(kUtf8Bom.size());
    skipped_prefix_ = static_cast<int64_t>(kUtf8Bom.size());
  }
}

InputWindow::InputWindow(std::FILE* file, size_t chunk_bytes)
    : begin_(kEmpty),
      end_(kEmpty),
      file_(file),
      chunk_bytes_(std::max<size_t>(chunk_bytes, 1)) {}

InputWindow::InputWindow(std::string_view head, std::FILE* file,
                         size_t chunk_bytes)
    : InputWindow(file, chunk_bytes) {
  head_ = head;
  if (head_.substr(0, kUtf8Bom.size()) == kUtf8Bom) {
    head_.remove_prefix(kUtf8Bom.size());
    skipped_prefix_ = static_cast<int64_t>(kUtf8Bom.size());
  }
  bom_checked_ = !head.empty();
}

int InputWindow::PeekFile() {
  if (pending_size_ > 0) return static_cast<unsigned char>(pending_[0]);
  if (drained_ || file_bytes_ >= limit_) return -1;
  const size_t got = std::fread(pending_, 1, 1, file_);
  if (got == 0) {
    drained_ = true;
    read_error_ = std::ferror(file_) != 0;
    return -1;
  }
  ++file_bytes_;
  pending_size_ = 1;
  return static_cast<unsigned char>(pending_[0]);
}

size_t InputWindow::ReadNormalised(char* dst, size_t n) {
  if (file_ != nullptr && !bom_checked_) {
    bom_checked_ = true;
    // The first three bytes decide; what is no mark is served as usual.
    while (pending_size_ < kUtf8Bom.size() && !drained_ &&
           file_bytes_ < limit_) {
      const size_t got = std::fread(pending_ + pending_size_, 1,
                                    kUtf8Bom.size() - pending_size_, file_);
      if (got == 0) {
        drained_ = true;
        read_error_ = std::ferror(file_) != 0;
      }
      pending_size_ += got;
      file_bytes_ += static_cast<int64_t>(got);
    }
    if (std::string_view(pending_, pending_size_) == kUtf8Bom) {
      pending_size_ = 0;
      skipped_prefix_ = static_cast<int64_t>(kUtf8Bom.size());
    }
  }
  size_t got = 0;
  if (file_ != nullptr && !head_.empty()) {
    got = std::min(n, head_.size());
    std::memcpy(dst, head_.data(), got);
    head_.remove_prefix(got);
  }
  if (file_ != nullptr && got < n && pending_size_ > 0) {
    got = std::min(n, pending_size_);
    std::memcpy(dst, pending_, got);
    std::memmove(pending_, pending_ + got, pending_size_ - got);
    pending_size_ -= got;
  }
  if (got < n && (file_ == nullptr || (pending_size_ == 0 && head_.empty()))) {
    got += Read(dst + got, n - got);
  }
  if (got == 0) return 0;
  int next = -1;
  if (dst[got - 1] == '\r') {
    if (file_ == nullptr) {
      next = text_.empty() ? -1 : static_cast<unsigned char>(text_[0]);
    } else if (!head_.empty()) {
      next = static_cast<unsigned char>(head_[0]);
    } else {
      next = PeekFile();
    }
  }
  LoneCrToNewline(dst, got, next);
  return got;
}

size_t InputWindow::Read(char* dst, size_t n) {
  if (file_ == nullptr) {
    n = std::min(n, text_.size());
    std::memcpy(dst, text_.data(), n);
    text_.remove_prefix(n);
    return n;
  }
  if (drained_) return 0;
  if (file_bytes_ >= limit_) {
    // One byte past the limit proves there is more.
    char probe;
    too_large_ = std::fread(&probe, 1, 1, file_) == 1;
    return 0;
  }
  n = static_cast<size_t>(std::min<int64_t>(n, limit_ - file_bytes_));
  const size_t got = std::fread(dst, 1, n, file_);
  // fread comes back short only at the end of the file or on an error
  // (which one, ferror says); either way nothing follows.
  if (got < n) {
    drained_ = true;
    read_error_ = std::ferror(file_) != 0;
  }
  file_bytes_ += static_cast<int64_t>(got);
  return got;
}

bool InputWindow::Refill(int64_t keep_from) {
  if (eof_) return false;
  if (file_ == nullptr ? text_.empty()
                       : drained_ && pending_size_ == 0 && head_.empty()) {
    // Known to be at the end (all of a memory source served, or the last
    // read came back short): no new bytes, and the window need not grow
    // for a chunk that will not come (a small file read whole was copied
    // into a window of twice its size just to learn that).
    eof_ = true;
    return false;
  }
  const char* keep = begin_ + (keep_from - base_);
  const size_t keep_len = static_cast<size_t>(end_ - keep);
  // The kept bytes go at `lead` so that the chunk read after them starts on
  // a kReadAlign boundary: the kernel copies into a misaligned buffer
  // several times more slowly (measured: 0.04 s vs 0.20 s of system time
  // for 300 MB).
  const size_t lead = (kReadAlign - keep_len % kReadAlign) % kReadAlign;
  const size_t need = lead + keep_len + chunk_bytes_ + 1 + kSlackBytes;
  if (need > capacity_) {
    // Grow geometrically so that a long kept region costs amortised O(1).
    const size_t new_capacity = std::max(need, capacity_ * 2);
    std::unique_ptr<char[], AlignedDelete> grown(static_cast<char*>(
        ::operator new[](new_capacity, std::align_val_t{kReadAlign})));
    if (keep_len > 0) std::memcpy(grown.get() + lead, keep, keep_len);
    storage_ = std::move(grown);
    capacity_ = new_capacity;
  } else if (keep_len > 0 && keep != storage_.get() + lead) {
    std::memmove(storage_.get() + lead, keep, keep_len);
  }
  char* const data = storage_.get() + lead;
  const size_t got = ReadNormalised(data + keep_len, chunk_bytes_);
  base_ = keep_from;
  begin_ = data;
  end_ = data + keep_len + got;
  // The sentinel, and the slack the scanners read past it zeroed: their
  // answers never depend on a byte nobody wrote (valgrind's memcheck saw
  // them branch on it).
  std::memset(data + keep_len + got, 0, 1 + kSlackBytes);
  if (got == 0) {
    eof_ = true;
    return false;
  }
  return true;
}

}  // namespace topolint::hlo
