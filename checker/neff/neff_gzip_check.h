// Verifies a .neff's gzip-compressed payload to its very end. libarchive
// stops reading at the tar's end-of-archive blocks and never reads the gzip
// trailer (nor checks its CRC), so a bad CRC, a bad length or a missing
// trailer would pass unseen; this pass inflates the payload with zlib,
// discarding the output, and says what is wrong (issue 31, item 5). Both
// inflate with checker/io/gzip_inflate.h.
#ifndef TOPOLINT_CHECKER_NEFF_NEFF_GZIP_CHECK_H_
#define TOPOLINT_CHECKER_NEFF_NEFF_GZIP_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace topolint::neff {

// Reads up to `n` bytes of the payload into `buf`; returns how many (0 at
// its end), or -1 on a read error.
using PayloadReader = std::function<int64_t(char* buf, size_t n)>;

// A PayloadReader over bytes in memory: each read takes from the front of
// *rest (which must outlive the reader).
PayloadReader MemoryPayloadReader(std::string_view* rest);

// "" when the payload is sound gzip to its end (members may be
// concatenated; bytes after the last member that start no member are left
// alone) or is not gzip at all (no 1f 8b magic); else a message for a
// neff-schema problem, e.g. "the gzip-compressed payload is corrupt
// (incorrect data check: its CRC does not match the data)". Inflating
// stops after `max_output_bytes` with a message saying so.
std::string CheckGzipPayload(const PayloadReader& read,
                             int64_t max_output_bytes);

// The payload inflated once, for libarchive to read as a plain tar while
// the gzip data is verified on the way (ScanNeffTar): the payload is not
// inflated a second time by CheckGzipPayload. It takes only the common
// case, a payload that is exactly one sound gzip member of at most
// `max_output_bytes` inflated: anything else (a bad CRC or length, a cut
// trailer, concatenated members, bytes after the member, a read error, too
// much output) makes Read return -1 or Finish return false, and the caller
// reads the payload the general way (libarchive's own gzip filter, then
// CheckGzipPayload), which says what is wrong.
class GzipInflater {
 public:
  GzipInflater(PayloadReader read, int64_t max_output_bytes);
  ~GzipInflater();
  GzipInflater(const GzipInflater&) = delete;
  GzipInflater& operator=(const GzipInflater&) = delete;

  // The next inflated bytes (up to the size of an internal block) into
  // *data: their count, 0 at the end of the member, -1 on anything the
  // fast path does not take (failed() is then true).
  int64_t Read(const char** data);
  // Inflates and drops the rest of the member and checks that nothing
  // follows it: true when the whole payload was one sound member.
  bool Finish();
  bool failed() const { return failed_; }

 private:
  int64_t max_output_;
  struct State;
  std::unique_ptr<State> z_;
  bool failed_ = false;
};

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_NEFF_GZIP_CHECK_H_
