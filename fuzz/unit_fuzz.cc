// libFuzzer driver: the whole check of a unit: LoadUnit + CheckUnit + renderers
// + explain. The body is topolint::fuzz::RunUnitTarget (fuzz/fuzz_targets.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunUnitTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
