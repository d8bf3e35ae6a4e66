// libFuzzer driver: the .neff archive reader (header, gzip/tar, kelf-0.json,
// def.json members). The body is topolint::fuzz::RunNeffArchiveTarget
// (fuzz/fuzz_targets.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunNeffArchiveTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
