#include "checker/model/module_params.h"

#include <vector>

#include "absl/strings/str_join.h"
#include "checker/hlo/sharding/sharding_record.h"
#include "fmt/format.h"

namespace topolint::model {
namespace {

// The count and its source: the header when above 1, else the flag, else
// the header's 1, else nothing.
std::optional<std::pair<int64_t, CountSource>> Pick(
    std::optional<int64_t> header, std::optional<int64_t> flag) {
  if (header.has_value() && *header > 1) {
    return std::make_pair(*header, CountSource::kHeader);
  }
  if (flag.has_value() && *flag >= 1) {
    return std::make_pair(*flag, CountSource::kFlag);
  }
  if (header.has_value() && *header == 1) {
    return std::make_pair(int64_t{1}, CountSource::kHeader);
  }
  return std::nullopt;
}

}  // namespace

ModuleParams EffectiveModuleParams(const hlo::Module& module,
                                   std::optional<int64_t> replica_count_flag,
                                   std::optional<int64_t> num_partitions_flag) {
  ModuleParams p;
  if (auto r = Pick(module.replica_count, replica_count_flag)) {
    p.replica_count = r->first;
    p.replica_count_source = r->second;
  }
  if (auto n = Pick(module.num_partitions, num_partitions_flag)) {
    p.num_partitions = n->first;
    p.num_partitions_source = n->second;
  } else if (auto t = hlo::AgreedTileCount(module.sharding)) {
    p.num_partitions = t->devices;
    p.num_partitions_source = CountSource::kSharding;
    p.num_partitions_line = t->pos.line;
  }
  return p;
}

std::string CountSourceText(CountSource source, const char* flag_name,
                            int64_t line) {
  switch (source) {
    case CountSource::kHeader:
      return "header";
    case CountSource::kFlag:
      return flag_name;
    case CountSource::kSharding:
      return fmt::format("sharding at line {}", line);
    case CountSource::kDefault:
      break;
  }
  return "default";
}

std::string ShardingCountConflict(const hlo::Module& module) {
  const hlo::ShardingSummary& sh = module.sharding;
  const std::vector<hlo::ShardingSummary::TileCount>& counts =
      sh.frozen ? sh.tile_counts_at_first_collective : sh.tile_counts;
  if (module.num_partitions.has_value() || counts.size() < 2) return "";
  std::vector<std::string> parts;
  for (const hlo::ShardingSummary::TileCount& c : counts) {
    parts.push_back(fmt::format("{} devices (line {})", c.devices, c.pos.line));
  }
  return fmt::format(
      "the shardings hold {}: no device count is taken from them",
      absl::StrJoin(parts, " and "));
}

}  // namespace topolint::model
