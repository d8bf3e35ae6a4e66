#include "checker/hlo/gzip_stream.h"

#include "fmt/format.h"

namespace topolint::hlo {

bool IsGzip(std::string_view head) { return IsGzipMagic(head); }

namespace {

// The stream's buffers as gzip input (a stream may hand out empty ones;
// Next() false is the end, as protobuf's streams say no more).
GzipInput FromStream(google::protobuf::io::ZeroCopyInputStream* source) {
  return [source](const char** data) -> int64_t {
    const void* chunk = nullptr;
    int n = 0;
    do {
      if (!source->Next(&chunk, &n)) return 0;
    } while (n == 0);
    *data = static_cast<const char*>(chunk);
    return n;
  };
}

}  // namespace

GzipSource::GzipSource(google::protobuf::io::ZeroCopyInputStream* source,
                       bool check_crc)
    : inflate_(FromStream(source), GzipInflate::Trailing::kMembers, check_crc) {
}

GzipSource::~GzipSource() = default;

int GzipSource::Read(void* buffer, int size) {
  if (size <= 0) return error_.empty() ? 0 : -1;
  const int64_t n =
      inflate_.Read(static_cast<char*>(buffer), static_cast<size_t>(size));
  // Said as soon as it happens: bytes inflated before it are still
  // returned, and the reader may not ask again.
  if (error_.empty()) {
    switch (inflate_.error()) {
      case GzipInflate::Error::kNone:
        break;
      case GzipInflate::Error::kInit:
        error_ = "cannot initialise zlib";
        break;
      case GzipInflate::Error::kCorrupt:
        error_ = fmt::format("the gzip data is corrupt ({})",
                             inflate_.zlib_message());
        break;
      case GzipInflate::Error::kRead:
      case GzipInflate::Error::kTruncated:
        error_ = "the gzip data ends early (truncated file?)";
        break;
    }
  }
  return static_cast<int>(n);
}

}  // namespace topolint::hlo
