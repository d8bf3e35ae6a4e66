// libFuzzer driver: the component-config and .topolint.json loaders and the
// config rules. The body is topolint::fuzz::RunConfigTarget
// (fuzz/fuzz_targets.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunConfigTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
