// libFuzzer driver: json::Parse, neff::BuildDefJson and the NEFF rules.
// The body is topolint::fuzz::RunDefJsonTarget (fuzz/fuzz_targets.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunDefJsonTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
