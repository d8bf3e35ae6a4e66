#include "checker/hlo/sharding/sharding_record.h"

#include <optional>
#include <string>

#include "checker/hlo/sharding/sharding_validate.h"

namespace topolint::hlo {
namespace {

void CountLeaf(const Sharding& s, TextPos pos, std::string_view instruction,
               ShardingSummary* summary) {
  if (s.type == ShardingType::kTuple) {
    for (const Sharding& leaf : s.tuple) {
      CountLeaf(leaf, pos, instruction, summary);
    }
    return;
  }
  if (s.type == ShardingType::kMaximal) {
    ++summary->maximal;
    const std::vector<int64_t> devices = ExpandDevices(s);
    if (devices.size() == 1 && devices.front() > summary->max_maximal_device) {
      summary->max_maximal_device = devices.front();
      summary->max_maximal_pos = pos;
    }
    return;
  }
  // A tiled sharding that XLA collapses into replicated / manual /
  // unreduced is never checked against the device count: it says nothing
  // of it.
  if (s.type != ShardingType::kTiled || CollapsedType(s).has_value()) return;
  ++summary->tiled;
  const int64_t count = TileDeviceCount(s);
  if (count <= 1) return;
  for (ShardingSummary::TileCount& c : summary->tile_counts) {
    if (c.devices == count) {
      ++c.uses;
      return;
    }
  }
  if (summary->tile_counts.size() >= ShardingSummary::kMaxCounts) return;
  ShardingSummary::TileCount c;
  c.devices = count;
  c.pos = pos;
  c.instruction = std::string(instruction.substr(0, 256));
  c.uses = 1;
  summary->tile_counts.push_back(std::move(c));
}

}  // namespace

void RecordSharding(const Sharding& sharding, const Shape& shape, TextPos pos,
                    std::string_view instruction, ShardingSite site,
                    Module* module) {
  ShardingSummary& summary = module->sharding;
  ++summary.annotations;
  CountLeaf(sharding, pos, instruction, &summary);
  if (site != ShardingSite::kInstruction) return;
  std::optional<int64_t> num_devices;
  if (module->num_partitions.has_value() && *module->num_partitions > 1) {
    num_devices = *module->num_partitions;
  }
  std::optional<ShardingProblem> p =
      ValidateSharding(sharding, shape, num_devices);
  if (!p) return;
  if (summary.issues.size() >= ShardingSummary::kMaxIssues) {
    ++summary.issues_dropped;
    return;
  }
  ShardingIssue issue;
  issue.kind = p->kind;
  issue.pos = pos;
  issue.instruction = std::string(instruction.substr(0, 256));
  issue.message = std::move(p->message);
  summary.issues.push_back(std::move(issue));
}

std::optional<ShardingSummary::TileCount> AgreedTileCount(
    const ShardingSummary& summary) {
  const std::vector<ShardingSummary::TileCount>& counts =
      summary.frozen ? summary.tile_counts_at_first_collective
                     : summary.tile_counts;
  if (counts.size() != 1) return std::nullopt;
  return counts.front();
}

}  // namespace topolint::hlo
