// A binary module's shardings to the one sharding decoder and record
// (checker/hlo/sharding), as the text front end hands `sharding={...}`.
#include <string>
#include <string_view>
#include <utility>

#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/sharding/sharding_proto.h"
#include "checker/hlo/sharding/sharding_record.h"

namespace topolint::hlo::proto {

bool RecordProtoSharding(std::string_view bytes, int64_t at,
                         std::string_view instruction, const Shape& shape,
                         bool module_level, Module* m, std::string* error,
                         int64_t* error_at) {
  if (bytes.empty()) return true;
  OpShardingDecode d = DecodeOpSharding(bytes);
  if (!d.ok()) {
    *error = std::string(module_level ? "HloModuleProto sharding (12/14)"
                                      : "HloInstructionProto.sharding (40)") +
             ": " + d.error;
    *error_at = at + static_cast<int64_t>(d.error_offset);
    return false;
  }
  RecordSharding(
      *d.sharding, shape, TextPos::AtByte(at), instruction,
      module_level ? ShardingSite::kModule : ShardingSite::kInstruction, m);
  return true;
}

}  // namespace topolint::hlo::proto
