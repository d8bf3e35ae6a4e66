#include "checker/hlo/gzip_stream.h"

#include <zlib.h>

#include <climits>

#include "fmt/format.h"

namespace topolint::hlo {

bool IsGzip(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

struct GzipSource::State {
  z_stream z{};
  bool initialised = false;
};

GzipSource::GzipSource(google::protobuf::io::ZeroCopyInputStream* source,
                       bool check_crc)
    : state_(std::make_unique<State>()), source_(source) {
  // 16 + MAX_WBITS: gzip framing only (no raw deflate, no zlib header).
  if (inflateInit2(&state_->z, 16 + MAX_WBITS) == Z_OK) {
    state_->initialised = true;
    // (inflateReset, between members, keeps this setting.)
    if (!check_crc) inflateValidate(&state_->z, 0);
  } else {
    error_ = "cannot initialise zlib";
    done_ = true;
  }
}

GzipSource::~GzipSource() {
  if (state_->initialised) inflateEnd(&state_->z);
}

int GzipSource::Read(void* buffer, int size) {
  if (done_ || size <= 0) return done_ && !error_.empty() ? -1 : 0;
  z_stream& z = state_->z;
  z.next_out = static_cast<Bytef*>(buffer);
  z.avail_out = static_cast<uInt>(size);
  while (z.avail_out > 0) {
    if (z.avail_in == 0) {
      const void* data = nullptr;
      int n = 0;
      do {
        if (!source_->Next(&data, &n)) {
          n = -1;
          break;
        }
      } while (n == 0);
      if (n < 0) {
        // The input ended: fine between members, else the data is cut.
        if (!member_ended_) {
          error_ = "the gzip data ends early (truncated file?)";
        }
        done_ = true;
        break;
      }
      z.next_in = static_cast<Bytef*>(const_cast<void*>(data));
      z.avail_in = static_cast<uInt>(n);
    }
    member_ended_ = false;
    const int rc = inflate(&z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      // Another member may follow (concatenated gzip files).
      member_ended_ = true;
      ++members_;
      inflateReset(&z);
      continue;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      error_ = fmt::format("the gzip data is corrupt ({})",
                           z.msg != nullptr ? z.msg : "zlib error");
      done_ = true;
      break;
    }
  }
  const int produced = size - static_cast<int>(z.avail_out);
  if (produced > 0) return produced;
  return error_.empty() ? 0 : -1;
}

}  // namespace topolint::hlo
