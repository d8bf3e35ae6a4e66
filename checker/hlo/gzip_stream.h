// gzip decompression as a protobuf input stream, so that the binary HLO
// reader streams `.pb.gz` files without holding them whole (the inflating
// itself is checker/io/gzip_inflate.h's).
#ifndef TOPOLINT_CHECKER_HLO_GZIP_STREAM_H_
#define TOPOLINT_CHECKER_HLO_GZIP_STREAM_H_

#include <memory>
#include <string>
#include <string_view>

#include "checker/io/gzip_inflate.h"
#include "google/protobuf/io/zero_copy_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace topolint::hlo {

// True when `head` starts with the gzip magic bytes 1f 8b.
bool IsGzip(std::string_view head);

// Inflates gzip data (one member or several concatenated) read from
// `source`. A corrupt stream ends the output early and sets error().
// With `check_crc` false the members' CRC-32 is neither computed nor
// checked (zlib's inflateValidate): for a pass that a checked one follows.
class GzipSource : public google::protobuf::io::CopyingInputStream {
 public:
  explicit GzipSource(google::protobuf::io::ZeroCopyInputStream* source,
                      bool check_crc = true);
  ~GzipSource() override;
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;

  int Read(void* buffer, int size) override;

  // "" while the data is sound; else what zlib said.
  const std::string& error() const { return error_; }
  // gzip members inflated to their end so far.
  int members() const { return inflate_.members(); }

 private:
  GzipInflate inflate_;
  std::string error_;
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_GZIP_STREAM_H_
