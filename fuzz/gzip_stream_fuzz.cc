// libFuzzer driver for the gzip stream under the binary HLO reader; the
// body and its invariants are in fuzz/gzip_stream_target.h.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/gzip_stream_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunGzipStreamTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
