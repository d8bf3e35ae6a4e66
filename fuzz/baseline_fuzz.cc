// libFuzzer driver: the --baseline reader (LoadBaseline, ApplyBaseline,
// WriteBaseline). The body is topolint::fuzz::RunBaselineTarget
// (fuzz/fuzz_targets.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunBaselineTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
