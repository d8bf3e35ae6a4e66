#include "checker/neff/neff_gzip_check.h"

#include <zlib.h>

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

std::string CheckGzipPayload(const PayloadReader& read,
                             int64_t max_output_bytes) {
  std::vector<char> in(kChunkBytes), out(kChunkBytes);
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
      const int64_t n = read(in.data(), in.size());
      if (n < 0) return "the gzip-compressed payload cannot be read to its end";
      if (n == 0) break;
      z->next_in = reinterpret_cast<Bytef*>(in.data());
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
        const int64_t n = read(in.data() + 1, in.size() - 1);
        if (n < 0) return "the gzip-compressed payload cannot be read";
        in[0] = static_cast<char>(b);
        z->next_in = reinterpret_cast<Bytef*>(in.data());
        z->avail_in = static_cast<uInt>(1 + n);
      }
      if (z->avail_in < 2 || z->next_in[0] != 0x1f || z->next_in[1] != 0x8b) {
        return "";  // what follows starts no member: left alone
      }
      if (inflateReset(z.get()) != Z_OK) return Corrupt("zlib reset failed");
      in_member = true;
    }
    z->next_out = reinterpret_cast<Bytef*>(out.data());
    z->avail_out = static_cast<uInt>(out.size());
    const int r = inflate(z.get(), Z_NO_FLUSH);
    produced += static_cast<int64_t>(out.size() - z->avail_out);
    if (r == Z_STREAM_END) {
      in_member = false;
    } else if (r != Z_OK && r != Z_BUF_ERROR) {
      return Corrupt(Explain(z->msg));
    } else if (r == Z_BUF_ERROR && z->avail_in != 0 &&
               z->avail_out == out.size()) {
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

}  // namespace topolint::neff
