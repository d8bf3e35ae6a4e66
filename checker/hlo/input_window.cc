#include "checker/hlo/input_window.h"

#include <algorithm>
#include <cstring>

#include <sys/stat.h>

namespace topolint::hlo {

const char InputWindow::kEmpty[kSlackBytes + 1] = {};

InputWindow::InputWindow(std::string_view text, size_t chunk_bytes)
    : begin_(kEmpty),
      end_(kEmpty),
      text_(text),
      chunk_bytes_(std::max<size_t>(chunk_bytes, 1)) {}

InputWindow::InputWindow(std::FILE* file, size_t chunk_bytes)
    : begin_(kEmpty),
      end_(kEmpty),
      file_(file),
      chunk_bytes_(std::max<size_t>(chunk_bytes, 1)) {}

void InputWindow::MaybeMap() {
  map_tried_ = true;
  if (file_ == nullptr || map_min_bytes_ == INT64_MAX ||
      !FileMappingEnabled()) {
    return;
  }
  struct stat st;
  const int fd = fileno(file_);
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size < map_min_bytes_ || st.st_size > limit_ ||
      std::ftell(file_) != 0) {
    return;
  }
  in_map_ = map_.Map(fd, static_cast<size_t>(st.st_size));
}

bool InputWindow::RefillMapped(int64_t keep_from, bool* more) {
  char* const data = map_.data();
  const size_t from = static_cast<size_t>(keep_from);
  if (map_.truncated()) {
    // The file shrank: what it lost reads as NULs. Nothing more is served;
    // the window keeps the bytes from `keep_from`, its sentinel in place.
    base_ = keep_from;
    begin_ = data + from;
    eof_ = true;
    *more = false;
    return true;
  }
  if (map_end_ > 0) data[map_end_] = covered_;
  const size_t next_end = map_end_ + chunk_bytes_;
  if (next_end + kSlackBytes + 1 > map_.size()) {
    // The tail: copied from the mapping, as from memory, by the ordinary
    // path, which gives the window its own sentinel and slack.
    in_map_ = false;
    file_ = nullptr;
    text_ = std::string_view(data + map_end_, map_.size() - map_end_);
    return false;
  }
  map_.DropBefore(from);
  covered_ = data[next_end];
  data[next_end] = '\0';
  base_ = keep_from;
  begin_ = data + from;
  end_ = data + next_end;
  map_end_ = next_end;
  *more = true;
  return true;
}

size_t InputWindow::Read(char* dst, size_t n) {
  if (file_ == nullptr) {
    n = std::min(n, text_.size());
    std::memcpy(dst, text_.data(), n);
    text_.remove_prefix(n);
    return n;
  }
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
  if (!map_tried_) MaybeMap();
  if (in_map_) {
    bool more = false;
    if (RefillMapped(keep_from, &more)) return more;
  }
  if (file_ == nullptr ? text_.empty() : drained_) {
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
  const size_t got = Read(data + keep_len, chunk_bytes_);
  base_ = keep_from;
  begin_ = data;
  end_ = data + keep_len + got;
  data[keep_len + got] = '\0';
  if (got == 0) {
    eof_ = true;
    return false;
  }
  return true;
}

}  // namespace topolint::hlo
