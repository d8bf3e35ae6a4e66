// Verifies a .neff's gzip-compressed payload to its very end. libarchive
// stops reading at the tar's end-of-archive blocks and never reads the gzip
// trailer (nor checks its CRC), so a bad CRC, a bad length or a missing
// trailer would pass unseen; this pass inflates the payload with zlib,
// discarding the output, and says what is wrong (issue 31, item 5).
#ifndef TOPOLINT_CHECKER_NEFF_NEFF_GZIP_CHECK_H_
#define TOPOLINT_CHECKER_NEFF_NEFF_GZIP_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace topolint::neff {

// Reads up to `n` bytes of the payload into `buf`; returns how many (0 at
// its end), or -1 on a read error.
using PayloadReader = std::function<int64_t(char* buf, size_t n)>;

// "" when the payload is sound gzip to its end (members may be
// concatenated; bytes after the last member that start no member are left
// alone) or is not gzip at all (no 1f 8b magic); else a message for a
// neff-schema problem, e.g. "the gzip-compressed payload is corrupt
// (incorrect data check: its CRC does not match the data)". Inflating
// stops after `max_output_bytes` with a message saying so.
std::string CheckGzipPayload(const PayloadReader& read,
                             int64_t max_output_bytes);

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_NEFF_GZIP_CHECK_H_
