#include "checker/io/gzip_inflate.h"

#include <zlib.h>

#include <string>
#include <utility>

namespace topolint {

bool IsGzipMagic(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

struct GzipInflate::State {
  z_stream z{};
  bool ready = false;
  // A chunk's last byte and the next chunk, when a member's first two bytes
  // straddle two chunks (a member may begin there).
  std::string joined;
};

GzipInflate::GzipInflate(GzipInput input, Trailing trailing, bool check_crc)
    : input_(std::move(input)),
      trailing_(trailing),
      z_(std::make_unique<State>()) {
  // 16 + MAX_WBITS: gzip framing only (no raw deflate, no zlib header).
  z_->ready = inflateInit2(&z_->z, 16 + MAX_WBITS) == Z_OK;
  if (!z_->ready) {
    error_ = Error::kInit;
    return;
  }
  // (inflateReset, between members, keeps this setting.)
  if (!check_crc) inflateValidate(&z_->z, 0);
}

GzipInflate::~GzipInflate() {
  if (z_->ready) inflateEnd(&z_->z);
}

// More input when zlib has none left: false at the input's end or on a
// read error (which sets error_).
bool GzipInflate::Pull() {
  if (z_->z.avail_in != 0) return true;
  if (input_done_) return false;
  const char* data = nullptr;
  const int64_t n = input_(&data);
  if (n <= 0) {
    input_done_ = true;
    if (n < 0) error_ = Error::kRead;
    return false;
  }
  z_->z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  z_->z.avail_in = static_cast<uInt>(n);
  return true;
}

// Whether two bytes lie at next_in (joining two chunks if need be): false
// when the input ends before them.
bool GzipInflate::HaveTwoBytes() {
  z_stream& z = z_->z;
  if (!Pull()) return false;
  if (z.avail_in >= 2) return true;
  const char last = static_cast<char>(*z.next_in);
  z.avail_in = 0;
  // The lone byte, then the next chunk if there is one.
  z_->joined.assign(1, last);
  if (Pull()) {
    z_->joined.append(reinterpret_cast<const char*>(z.next_in), z.avail_in);
  }
  z.next_in = reinterpret_cast<Bytef*>(z_->joined.data());
  z.avail_in = static_cast<uInt>(z_->joined.size());
  return z.avail_in >= 2;
}

int64_t GzipInflate::Read(char* out, size_t size) {
  if (error_ != Error::kNone) return -1;
  if (ended_ || size == 0) return 0;
  z_stream& z = z_->z;
  z.next_out = reinterpret_cast<Bytef*>(out);
  z.avail_out = static_cast<uInt>(size);
  while (z.avail_out != 0) {
    if (between_members_) {
      if (trailing_ == Trailing::kOneMember && members_ > 0) {
        ended_ = true;
        break;
      }
      const bool two = HaveTwoBytes();
      if (error_ != Error::kNone) break;
      const bool quiet = trailing_ == Trailing::kMembersThenAnything;
      if (z.avail_in == 0) {  // the input ended
        if (members_ == 0 && !quiet) error_ = Error::kTruncated;
        ended_ = true;
        break;
      }
      if (quiet &&
          (!two || !IsGzipMagic(std::string_view(
                       reinterpret_cast<const char*>(z.next_in), 2)))) {
        ended_ = true;  // what follows starts no member: left alone
        break;
      }
      if (members_ > 0 && inflateReset(&z) != Z_OK) {
        error_ = Error::kCorrupt;
        zlib_message_ = "zlib reset failed";
        break;
      }
      between_members_ = false;
    }
    if (!Pull()) {
      if (error_ == Error::kNone) error_ = Error::kTruncated;
      break;
    }
    const uInt before = z.avail_out;
    const int rc = inflate(&z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      ++members_;
      between_members_ = true;
      continue;
    }
    // Z_BUF_ERROR with input and room left: no progress, never loop on it.
    if (rc != Z_OK && !(rc == Z_BUF_ERROR && z.avail_out != before)) {
      error_ = Error::kCorrupt;
      zlib_message_ = z.msg != nullptr    ? z.msg
                      : rc == Z_BUF_ERROR ? "zlib made no progress"
                                          : "invalid data";
      break;
    }
  }
  const int64_t n = static_cast<int64_t>(size - z.avail_out);
  produced_ += n;
  if (n > 0) return n;
  return error_ != Error::kNone ? -1 : 0;
}

bool GzipInflate::NothingFollows() {
  if (error_ != Error::kNone) return false;
  return !Pull() && error_ == Error::kNone;
}

}  // namespace topolint
