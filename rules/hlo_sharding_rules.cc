// hlo-sharding-device, hlo-sharding-count, hlo-sharding-rank: the sharding
// annotations XLA's verifier would refuse (HloSharding::Validate, run by
// the front ends as they read each sharding: checker/hlo/sharding/
// sharding_record.h), reported once the module is read, each at its
// sharding with XLA's message.
#include <string>
#include <utility>

#include "fmt/format.h"
#include "rules/hlo_rule_util.h"

namespace topolint::hlo_rules {

void ReportShardingIssues(const hlo::Module& module, Emitter& emit) {
  // The device count the checks used: the header's num_partitions (only
  // when above 1, as XLA's verifier: hlo::RecordSharding).
  std::string count_source;
  if (module.num_partitions.has_value() && *module.num_partitions > 1) {
    const TextPos at = module.num_partitions_pos;
    count_source = fmt::format(
        " (the module's device count, num_partitions={}, is from {})",
        *module.num_partitions,
        at.is_byte()
            ? fmt::format("the module config at byte {}", at.byte_offset())
        : at.line > 0 ? fmt::format("the header at line {}", at.line)
                      : std::string("the module"));
  }
  for (const hlo::ShardingIssue& issue : module.sharding.issues) {
    RuleId rule = kHloShardingRank;
    std::string suffix;
    switch (issue.kind) {
      case hlo::ShardingIssue::Kind::kDevice:
        rule = kHloShardingDevice;
        suffix = count_source;
        break;
      case hlo::ShardingIssue::Kind::kCount:
        rule = kHloShardingCount;
        suffix = count_source;
        break;
      case hlo::ShardingIssue::Kind::kRank:
        break;
    }
    emit.Report(rule, At(module.file, issue.pos),
                fmt::format("invalid sharding for instruction {}: {}{}",
                            issue.instruction, issue.message, suffix),
                {}, fmt::format("sharding:{}", issue.instruction));
  }
}

}  // namespace topolint::hlo_rules
