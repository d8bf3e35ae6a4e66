// A binary module's shardings to the one sharding decoder and record
// (checker/hlo/sharding), as the text front end hands `sharding={...}`.
#include <string_view>
#include <utility>

#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/sharding/sharding_proto.h"
#include "checker/hlo/sharding/sharding_record.h"

namespace topolint::hlo::proto {

void RecordProtoSharding(std::string_view bytes, int64_t at,
                         std::string_view instruction, const Shape& shape,
                         bool module_level, Module* m) {
  if (bytes.empty()) return;
  OpShardingDecode d = DecodeOpSharding(bytes);
  if (!d.ok()) {
    SyntaxError e;
    e.pos = TextPos::AtByte(at + static_cast<int64_t>(d.error_offset));
    e.message = std::move(d.error);
    m->syntax_errors.push_back(std::move(e));
    return;
  }
  RecordSharding(
      *d.sharding, shape, TextPos::AtByte(at), instruction,
      module_level ? ShardingSite::kModule : ShardingSite::kInstruction, m);
}

}  // namespace topolint::hlo::proto
