#include "checker/neff/neff_gzip_check.h"

#include <zlib.h>

#include <algorithm>
#include <memory>
#include <string_view>
#include <vector>

#include "fmt/format.h"

namespace topolint::neff {
namespace {

constexpr size_t kChunkBytes = size_t{64} << 10;

struct InflateEnd {
  void operator()(z_stream* z) const {
    inflateEnd(z);
    delete z;
  }
};

// What zlib's message means for a user.
std::string Explain(const char* msg) {
  const std::string_view m = msg != nullptr ? msg : "invalid data";
  if (m == "incorrect data check") {
    return "incorrect data check: its CRC does not match the data";
  }
  if (m == "incorrect length check") {
    return "incorrect length check: its recorded size does not match the "
           "data";
  }
  return std::string(m);
}

std::string Corrupt(const std::string& why) {
  return fmt::format(
      "the gzip-compressed payload is corrupt ({}); the archive is damaged: "
      "rebuild or copy the .neff again",
      why);
}

}  // namespace

PayloadReader MemoryPayloadReader(std::string_view* rest) {
  return [rest](char* buf, size_t n) -> int64_t {
    const size_t k = std::min(n, rest->size());
    std::copy(rest->begin(), rest->begin() + k, buf);
    rest->remove_prefix(k);
    return static_cast<int64_t>(k);
  };
}

std::string CheckGzipPayload(const PayloadReader& read,
                             int64_t max_output_bytes) {
  // Not zero-filled: most payloads are a few hundred bytes.
  std::unique_ptr<char[]> in(new char[kChunkBytes]);
  std::unique_ptr<char[]> out(new char[kChunkBytes]);
  std::unique_ptr<z_stream, InflateEnd> z(new z_stream{});
  // 16 + MAX_WBITS: gzip only, with its header, CRC-32 and length checked.
  if (inflateInit2(z.get(), 16 + MAX_WBITS) != Z_OK) {
    z.reset();
    return "the gzip-compressed payload cannot be verified: zlib could not "
           "be initialised";
  }
  int64_t produced = 0;
  bool first = true;
  bool in_member = true;  // inside a gzip member (its trailer not yet read)
  for (;;) {
    if (z->avail_in == 0) {
      const int64_t n = read(in.get(), kChunkBytes);
      if (n < 0) return "the gzip-compressed payload cannot be read to its end";
      if (n == 0) break;
      z->next_in = reinterpret_cast<Bytef*>(in.get());
      z->avail_in = static_cast<uInt>(n);
      if (first) {
        first = false;
        if (n < 2 || static_cast<unsigned char>(in[0]) != 0x1f ||
            static_cast<unsigned char>(in[1]) != 0x8b) {
          return "";  // a plain tar: nothing to verify
        }
      }
    }
    if (!in_member) {
      // After a member: another one may follow (concatenated gzip).
      if (z->avail_in < 2 && z->avail_in > 0) {
        // One byte left in this chunk: too short to tell; look at the next.
        const unsigned char b = *z->next_in;
        const int64_t n = read(in.get() + 1, kChunkBytes - 1);
        if (n < 0) return "the gzip-compressed payload cannot be read";
        in[0] = static_cast<char>(b);
        z->next_in = reinterpret_cast<Bytef*>(in.get());
        z->avail_in = static_cast<uInt>(1 + n);
      }
      if (z->avail_in < 2 || z->next_in[0] != 0x1f || z->next_in[1] != 0x8b) {
        return "";  // what follows starts no member: left alone
      }
      if (inflateReset(z.get()) != Z_OK) return Corrupt("zlib reset failed");
      in_member = true;
    }
    z->next_out = reinterpret_cast<Bytef*>(out.get());
    z->avail_out = static_cast<uInt>(kChunkBytes);
    const int r = inflate(z.get(), Z_NO_FLUSH);
    produced += static_cast<int64_t>(kChunkBytes - z->avail_out);
    if (r == Z_STREAM_END) {
      in_member = false;
    } else if (r != Z_OK && r != Z_BUF_ERROR) {
      return Corrupt(Explain(z->msg));
    } else if (r == Z_BUF_ERROR && z->avail_in != 0 &&
               z->avail_out == kChunkBytes) {
      return Corrupt("zlib made no progress");  // never loop without end
    }
    if (produced > max_output_bytes) {
      return fmt::format(
          "the gzip-compressed payload inflates to more than {} bytes (the "
          "limit); its end is not verified",
          max_output_bytes);
    }
  }
  if (in_member && !first) {
    return Corrupt(
        "it ends early: the gzip trailer (CRC and length) is missing or "
        "cut; was the file truncated?");
  }
  return "";
}

struct GzipInflater::State {
  z_stream z{};
  bool ready = false;
  std::unique_ptr<char[]> in{new char[kChunkBytes]};
  std::unique_ptr<char[]> out{new char[kChunkBytes]};
  bool input_done = false;  // read_ returned 0
};

GzipInflater::GzipInflater(PayloadReader read, int64_t max_output_bytes)
    : read_(std::move(read)),
      max_output_(max_output_bytes),
      z_(std::make_unique<State>()) {
  // 16 + MAX_WBITS: gzip only, with its header, CRC-32 and length checked.
  z_->ready = inflateInit2(&z_->z, 16 + MAX_WBITS) == Z_OK;
  failed_ = !z_->ready;
}

GzipInflater::~GzipInflater() {
  if (z_->ready) inflateEnd(&z_->z);
}

// More compressed input when zlib has none left: false at its end (or on
// a read error, which fails the inflater).
bool GzipInflater::Fill() {
  if (z_->z.avail_in != 0) return true;
  if (z_->input_done) return false;
  const int64_t n = read_(z_->in.get(), kChunkBytes);
  if (n < 0) {
    failed_ = true;
    return false;
  }
  if (n == 0) {
    z_->input_done = true;
    return false;
  }
  z_->z.next_in = reinterpret_cast<Bytef*>(z_->in.get());
  z_->z.avail_in = static_cast<uInt>(n);
  return true;
}

int64_t GzipInflater::Read(const char** data) {
  if (failed_) return -1;
  if (ended_) return 0;
  z_stream& z = z_->z;
  z.next_out = reinterpret_cast<Bytef*>(z_->out.get());
  z.avail_out = static_cast<uInt>(kChunkBytes);
  while (z.avail_out != 0) {
    if (!Fill()) {
      // The input ended inside the member (or could not be read).
      failed_ = true;
      return -1;
    }
    const uInt before = z.avail_out;
    const int r = inflate(&z, Z_NO_FLUSH);
    if (r == Z_STREAM_END) {
      ended_ = true;
      break;
    }
    if (r != Z_OK && !(r == Z_BUF_ERROR && z.avail_out != before)) {
      failed_ = true;  // corrupt, or no progress
      return -1;
    }
  }
  const int64_t n = static_cast<int64_t>(kChunkBytes - z.avail_out);
  produced_ += n;
  if (produced_ > max_output_) {
    failed_ = true;
    return -1;
  }
  *data = z_->out.get();
  return n;
}

bool GzipInflater::Finish() {
  const char* ignored = nullptr;
  for (;;) {
    const int64_t n = Read(&ignored);
    if (n < 0) return false;
    if (n == 0) break;
  }
  // Nothing may follow the member: another member, or bytes that start
  // none, are for the general reader to judge.
  if (z_->z.avail_in != 0) return false;
  char probe[1];
  const int64_t more = z_->input_done ? 0 : read_(probe, 1);
  return more == 0;
}

}  // namespace topolint::neff
