// libFuzzer driver: the streaming HLO parser (checker/hlo/text/hlo_parser.h)
// and the HLO rules. The body is topolint::fuzz::RunHloParserTarget
// (fuzz/fuzz_targets.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunHloParserTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
