// A binary module's shardings to the one sharding decoder and record
// (checker/hlo/sharding), as the text front end hands `sharding={...}` and
// a domain's `domain={kind="sharding", entry=..., exit=...}`.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/sharding/sharding_proto.h"
#include "checker/hlo/sharding/sharding_record.h"

namespace topolint::hlo::proto {
namespace {

// Where the sharding comes from, for its error message and its record.
const char* FieldName(uint32_t field) {
  switch (field) {
    case instruction_fields::kSharding:
      return "HloInstructionProto.sharding (40)";
    case instruction_fields::kDomainEntrySharding:
      return "HloInstructionProto.domain_entry_sharding (54)";
    case instruction_fields::kDomainExitSharding:
      return "HloInstructionProto.domain_exit_sharding (55)";
    default:
      return "HloModuleProto sharding (12/14)";
  }
}

ShardingSite Site(uint32_t field) {
  switch (field) {
    case instruction_fields::kSharding:
      return ShardingSite::kInstruction;
    case instruction_fields::kDomainEntrySharding:
    case instruction_fields::kDomainExitSharding:
      return ShardingSite::kDomain;
    default:
      return ShardingSite::kModule;
  }
}

}  // namespace

bool RecordProtoSharding(std::string_view bytes, int64_t at,
                         std::string_view instruction, const Shape& shape,
                         uint32_t field, Module* m, std::string* error,
                         int64_t* error_at) {
  if (bytes.empty()) return true;
  OpShardingDecode d = DecodeOpSharding(bytes);
  if (!d.ok()) {
    *error = std::string(FieldName(field)) + ": " + d.error;
    *error_at = at + static_cast<int64_t>(d.error_offset);
    return false;
  }
  const ShardingSite site = Site(field);
  // A domain's shardings are checked against no shape, as the text's.
  RecordSharding(*d.sharding, site == ShardingSite::kDomain ? Shape() : shape,
                 TextPos::AtByte(at), instruction, site, m);
  return true;
}

}  // namespace topolint::hlo::proto
