// The replica and partition counts a module is checked with.
#ifndef TOPOLINT_CHECKER_MODEL_MODULE_PARAMS_H_
#define TOPOLINT_CHECKER_MODEL_MODULE_PARAMS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "checker/hlo/hlo_module.h"

namespace topolint::model {

// Where a count came from.
enum class CountSource : uint8_t {
  kDefault,   // nothing says: 1
  kHeader,    // the HloModule header (or the binary module's config)
  kFlag,      // --replica-count / --num-partitions
  kSharding,  // num_partitions only: the module's tiled shardings
  kMesh,      // num_partitions only: a StableHLO sdy.mesh (no header count)
};

struct ModuleParams {
  int64_t replica_count = 1;   // R, always >= 1
  int64_t num_partitions = 1;  // P, always >= 1
  CountSource replica_count_source = CountSource::kDefault;
  CountSource num_partitions_source = CountSource::kDefault;
  // kMesh: the mesh's name ("@mesh").
  std::string num_partitions_mesh{};
  // kSharding / kMesh: where the first sharding holding num_partitions
  // devices, or the mesh, is (a line, or a byte offset in a binary module).
  TextPos num_partitions_pos{};
};

// R and P for `module`: the HloModule header value, else the flag
// (--replica-count / --num-partitions, i.e. CheckOptions), else, for P when
// the header has no num_partitions, the device count every tiled sharding
// of the module holds (a tiled sharding of an SPMD module holds exactly
// num_partitions devices: hlo::AgreedTileCount; none when they disagree),
// else 1. As in XLA, a header value of 1 does not override the caller's
// setting (XLA applies header counts to the module config only when they
// are not 1), and values below 1 are ignored wherever they come from.
ModuleParams EffectiveModuleParams(const hlo::Module& module,
                                   std::optional<int64_t> replica_count_flag,
                                   std::optional<int64_t> num_partitions_flag);

// "header", `flag_name`, "sharding at line L", "sdy.mesh @m at line L" or
// "default" ("byte N" for a position in a binary module).
std::string CountSourceText(CountSource source, const char* flag_name,
                            int64_t line = 0, const std::string& mesh = "");
// CountSourceText of P in `params` ("sharding at byte N" in a binary
// module).
std::string NumPartitionsSourceText(const ModuleParams& params);
// Where both counts came from, for messages: "replica_count 1 (header) x
// num_partitions 8 (sdy.mesh @mesh at line 6)".
std::string DeviceCountOrigin(const ModuleParams& params);

// When the header has no num_partitions and the module's tiled shardings
// hold different device counts, what explain says about it ("the shardings
// hold 2 devices (line 4) and 4 devices (line 6): no device count is taken
// from them"); "" otherwise.
std::string ShardingCountConflict(const hlo::Module& module);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_MODULE_PARAMS_H_
