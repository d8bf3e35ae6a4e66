// libFuzzer driver: bytes through `topolint check --stdin-filename NAME -`
// (the CLI's standard-input path: PlanJobs + CheckOneUnit). The first byte
// picks NAME (HLO text, def.json, neuron_config.json, or no kind). The body
// is topolint::fuzz::RunStdinTarget (fuzz/stdin_target.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/stdin_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  topolint::fuzz::RunStdinTarget(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
