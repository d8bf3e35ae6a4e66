#include "checker/neff/neff_gzip_check.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>

#include "checker/io/gzip_inflate.h"
#include "fmt/format.h"

namespace topolint::neff {
namespace {

constexpr size_t kChunkBytes = size_t{64} << 10;

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

// The reader's bytes as gzip input, read into a buffer of its own.
GzipInput FromReader(PayloadReader read) {
  std::shared_ptr<char[]> buf(new char[kChunkBytes]);
  return [read = std::move(read), buf](const char** data) -> int64_t {
    const int64_t n = read(buf.get(), kChunkBytes);
    *data = buf.get();
    return n;
  };
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
  // gzip only, with its header, CRC-32 and length checked; a payload that
  // does not start with a member is a plain tar (nothing to verify), and
  // bytes after the last member that start none are left alone.
  GzipInflate inflate(FromReader(read),
                      GzipInflate::Trailing::kMembersThenAnything);
  // Not zero-filled: most payloads are a few hundred bytes.
  std::unique_ptr<char[]> out(new char[kChunkBytes]);
  int64_t n = 0;
  while ((n = inflate.Read(out.get(), kChunkBytes)) > 0) {
    if (inflate.produced() > max_output_bytes) {
      return fmt::format(
          "the gzip-compressed payload inflates to more than {} bytes (the "
          "limit); its end is not verified",
          max_output_bytes);
    }
  }
  switch (inflate.error()) {
    case GzipInflate::Error::kNone:
      return "";
    case GzipInflate::Error::kInit:
      return "the gzip-compressed payload cannot be verified: zlib could not "
             "be initialised";
    case GzipInflate::Error::kRead:
      return "the gzip-compressed payload cannot be read to its end";
    case GzipInflate::Error::kTruncated:
      return Corrupt(
          "it ends early: the gzip trailer (CRC and length) is missing or "
          "cut; was the file truncated?");
    case GzipInflate::Error::kCorrupt:
      break;
  }
  return Corrupt(Explain(inflate.zlib_message().c_str()));
}

struct GzipInflater::State {
  explicit State(PayloadReader read)
      : inflate(FromReader(std::move(read)),
                GzipInflate::Trailing::kOneMember) {}
  GzipInflate inflate;
  std::unique_ptr<char[]> out{new char[kChunkBytes]};
};

GzipInflater::GzipInflater(PayloadReader read, int64_t max_output_bytes)
    : max_output_(max_output_bytes),
      z_(std::make_unique<State>(std::move(read))) {
  failed_ = z_->inflate.error() != GzipInflate::Error::kNone;
}

GzipInflater::~GzipInflater() = default;

int64_t GzipInflater::Read(const char** data) {
  if (failed_) return -1;
  const int64_t n = z_->inflate.Read(z_->out.get(), kChunkBytes);
  // Anything but inflated bytes or the member's end: the general reader's.
  if (n < 0 || z_->inflate.produced() > max_output_) {
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
  return z_->inflate.NothingFollows();
}

}  // namespace topolint::neff
