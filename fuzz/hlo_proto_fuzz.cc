// libFuzzer driver: the binary HLO reader
// (checker/hlo/proto/hlo_proto_reader.h) and the HLO rules. The body is
// topolint::fuzz::RunHloProtoTarget (fuzz/fuzz_targets.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunHloProtoTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
