#include "rules/hlo_rule_util.h"

#include <utility>

#include "fmt/format.h"

namespace topolint::hlo_rules {
namespace {

bool Known(TextPos pos) { return pos.known(); }

}  // namespace

void Report(Emitter& emit, RuleId rule, const OpView& v, TextPos pos,
            std::string message, std::vector<Note> notes) {
  const hlo::Collective& op = *v.op;
  if (!op.source_file.empty() && op.source_line > 0) {
    notes.push_back(
        Note{Location{op.source_file, op.source_line, 0},
             fmt::format("{} comes from this source line", op.name)});
  }
  emit.Report(rule, At(v.module->file, pos), std::move(message),
              std::move(notes), Anchor(op));
}

std::string Anchor(const hlo::Collective& op) {
  if (op.computation.empty()) return op.name;
  return fmt::format("{} in {}", op.name, op.computation);
}

TextPos OpPos(const hlo::Collective& op) {
  return Known(op.opcode_pos) ? op.opcode_pos : op.pos;
}

TextPos GroupsPos(const hlo::Collective& op) {
  if (op.replica_groups.form != hlo::ReplicaGroups::Form::kAbsent &&
      Known(op.replica_groups.pos)) {
    return op.replica_groups.pos;
  }
  return OpPos(op);
}

TextPos GroupPos(const hlo::Collective& op, int64_t g) {
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (rg.form == hlo::ReplicaGroups::Form::kExplicit && g >= 0 &&
      g < static_cast<int64_t>(rg.group_pos.size()) &&
      Known(rg.group_pos[static_cast<size_t>(g)])) {
    return rg.group_pos[static_cast<size_t>(g)];
  }
  return GroupsPos(op);
}

TextPos IdPos(const hlo::Collective& op, int64_t g, int64_t k) {
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (rg.form == hlo::ReplicaGroups::Form::kExplicit && g >= 0 &&
      g < static_cast<int64_t>(rg.id_pos.size())) {
    const std::vector<TextPos>& ids = rg.id_pos[static_cast<size_t>(g)];
    if (k >= 0 && k < static_cast<int64_t>(ids.size()) &&
        Known(ids[static_cast<size_t>(k)])) {
      return ids[static_cast<size_t>(k)];
    }
  }
  return GroupPos(op, g);
}

const char* IdNoun(model::GroupMode mode) {
  switch (mode) {
    case model::GroupMode::kCrossPartition:
      return "partition";
    case model::GroupMode::kFlattenedId:
      return "flattened id";
    default:
      return "replica";
  }
}

const char* CountNoun(model::GroupMode mode) {
  switch (mode) {
    case model::GroupMode::kCrossPartition:
      return "partitions";
    case model::GroupMode::kFlattenedId:
      return "flattened IDs";
    default:
      return "replicas";
  }
}

std::string KindWithArticle(hlo::CollectiveKind kind) {
  const char* name = hlo::CollectiveKindName(kind);
  return fmt::format("{} {}", name[0] == 'a' ? "an" : "a", name);
}

bool HasReplicaGroups(hlo::CollectiveKind kind) {
  switch (kind) {
    case hlo::CollectiveKind::kAllReduce:
    case hlo::CollectiveKind::kAllGather:
    case hlo::CollectiveKind::kReduceScatter:
    case hlo::CollectiveKind::kAllToAll:
    case hlo::CollectiveKind::kRaggedAllToAll:
    case hlo::CollectiveKind::kCollectiveBroadcast:
      return true;
    case hlo::CollectiveKind::kCollectivePermute:
    case hlo::CollectiveKind::kSend:
    case hlo::CollectiveKind::kRecv:
      return false;
  }
  return false;
}

}  // namespace topolint::hlo_rules
