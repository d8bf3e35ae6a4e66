// Where both front ends hand each sharding they read: it is validated as
// XLA's verifier validates an instruction's sharding (sharding_validate.h;
// the device count is the header's num_partitions when it is above 1, as
// XLA's InstructionVerifier has it only for SPMD modules with
// num_partitions > 1) and summarised into Module::sharding (hlo_module.h):
// the issues found, the device counts the tiled shardings hold, the highest
// maximal device. Memory does not grow with the number of shardings.
#ifndef TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_RECORD_H_
#define TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_RECORD_H_

#include <string_view>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/sharding/sharding.h"

namespace topolint::hlo {

enum class ShardingSite {
  kInstruction,  // `sharding=` / HloInstructionProto.sharding: validated
  kDomain,       // `domain=` entry/exit: counted, not validated (as XLA)
  kModule,       // spmd_output_sharding / spmd_parameters_shardings: likewise
};

// `shape` is the instruction's result shape (`known == false` when it is
// not known: the shape checks are then skipped).
void RecordSharding(const Sharding& sharding, const Shape& shape, TextPos pos,
                    std::string_view instruction, ShardingSite site,
                    Module* module);

// The device count the module's tiled shardings agree on: the one count
// when every tiled sharding holds the same number of devices (and there is
// at least one), else nothing (no tiled sharding, or several counts). Only
// the shardings read before the module's first collective count, when it
// has one (ShardingSummary::frozen): a streamed check knows no others.
std::optional<ShardingSummary::TileCount> AgreedTileCount(
    const ShardingSummary& summary);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_RECORD_H_
