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
    const hlo::DeviceMesh* mesh = module.PartitionCountMesh();
    if (n->second == CountSource::kHeader && mesh != nullptr) {
      p.num_partitions_source = CountSource::kMesh;
      p.num_partitions_pos = mesh->pos;
      p.num_partitions_mesh = mesh->name;
    }
  } else if (auto t = hlo::AgreedTileCount(module.sharding)) {
    p.num_partitions = t->devices;
    p.num_partitions_source = CountSource::kSharding;
    p.num_partitions_pos = t->pos;
  }
  return p;
}

std::string CountSourceText(CountSource source, const char* flag_name,
                            int64_t line, const std::string& mesh) {
  switch (source) {
    case CountSource::kHeader:
      return "header";
    case CountSource::kFlag:
      return flag_name;
    case CountSource::kSharding:
      return fmt::format("sharding at line {}", line);
    case CountSource::kMesh:
      return fmt::format("sdy.mesh {} at line {}", mesh, line);
    case CountSource::kDefault:
      break;
  }
  return "default";
}

std::string NumPartitionsSourceText(const ModuleParams& params) {
  const bool binary = params.num_partitions_pos.is_byte() &&
                      (params.num_partitions_source == CountSource::kSharding ||
                       params.num_partitions_source == CountSource::kMesh);
  if (binary) {
    return fmt::format("sharding at byte {}",
                       params.num_partitions_pos.byte_offset());
  }
  return CountSourceText(params.num_partitions_source, "--num-partitions",
                         params.num_partitions_pos.line,
                         params.num_partitions_mesh);
}

std::string DeviceCountOrigin(const ModuleParams& params) {
  return fmt::format(
      "replica_count {} ({}) x num_partitions {} ({})", params.replica_count,
      CountSourceText(params.replica_count_source, "--replica-count"),
      params.num_partitions, NumPartitionsSourceText(params));
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
