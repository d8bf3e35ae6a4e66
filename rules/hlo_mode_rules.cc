// hlo-group-mode and hlo-not-flattened-id: how an op's group mode is chosen.
#include <string>
#include <utility>

#include "fmt/format.h"
#include "rules/hlo_rule_util.h"

namespace topolint::hlo_rules {

using model::GroupMode;

void CheckGroupMode(const OpView& v, Emitter& emit) {
  const hlo::Collective& op = *v.op;
  if (!op.has_use_global_device_ids) return;
  const TextPos pos = op.use_global_device_ids_pos.known()
                          ? op.use_global_device_ids_pos
                          : OpPos(op);
  if (!model::TakesUseGlobalDeviceIds(op.kind)) {
    Report(emit, kHloGroupMode, v, pos,
           fmt::format("{} is {}, which takes no use_global_device_ids "
                       "(XLA: unexpected attribute \"use_global_device_ids\"); "
                       "its mode comes from channel_id alone ({} here), so "
                       "remove the attribute",
                       op.name, KindWithArticle(op.kind),
                       model::ModeName(v.mode)));
    return;
  }
  if (v.mode == GroupMode::kInvalid) {
    Report(emit, kHloGroupMode, v, pos,
           fmt::format("{} sets use_global_device_ids=true without a "
                       "channel_id (XLA: \"Cannot have "
                       "use_global_device_ids=true without channel_id\"); "
                       "expected a channel_id for flattened-id mode, or no "
                       "use_global_device_ids for cross_replica mode",
                       op.name));
  }
}

// Only all-reduce, all-gather and reduce-scatter can be written in
// flattened-id mode. The other collectives take their mode from channel_id
// alone (cross_partition with one, whose partition ids already are the
// global ids when replica_count is 1), so warning about them would ask for
// something HLO cannot express.
void CheckNotFlattenedId(const OpView& v, Emitter& emit) {
  const hlo::Collective& op = *v.op;
  if (v.params.num_partitions <= 1 || !model::TakesUseGlobalDeviceIds(op.kind))
    return;
  if (v.mode == GroupMode::kFlattenedId || v.mode == GroupMode::kInvalid)
    return;
  const int64_t devices = model::ParticipantCount(
      GroupMode::kFlattenedId, v.params.replica_count, v.params.num_partitions);
  std::string message;
  if (v.mode == GroupMode::kCrossReplica) {
    message = fmt::format(
        "{} is in cross_replica mode (no channel_id): it runs within each of "
        "the {} partitions and its ids are replica ids, not the ranks of this "
        "SPMD module; expected channel_id and use_global_device_ids=true with "
        "ids in [0, {})",
        op.name, v.params.num_partitions, devices);
  } else {
    message = fmt::format(
        "{} is in cross_replica_and_partition mode (channel_id without "
        "use_global_device_ids=true): its ids are replica ids, each standing "
        "for all {} partitions, not the ranks of this SPMD module; expected "
        "use_global_device_ids=true with ids in [0, {})",
        op.name, v.params.num_partitions, devices);
  }
  message += PartitionsFromSharding(v.params);
  Report(emit, kHloNotFlattenedId, v, OpPos(op), std::move(message));
}

}  // namespace topolint::hlo_rules
