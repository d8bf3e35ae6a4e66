// libFuzzer driver: the .topolint.json reader (ParseProjectConfig,
// ApplyProjectConfig). The body is topolint::fuzz::RunProjectConfigTarget
// (fuzz/fuzz_targets.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunProjectConfigTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
