#include "checker/hlo/collective_opcode.h"

#include <string_view>

namespace topolint::hlo {
namespace {

struct OpcodeEntry {
  std::string_view name;
  CollectiveOpcode op;
};

constexpr OpcodeEntry kOpcodes[] = {
    {"all-reduce", {CollectiveKind::kAllReduce, false}},
    {"all-reduce-start", {CollectiveKind::kAllReduce, true}},
    {"all-gather", {CollectiveKind::kAllGather, false}},
    {"all-gather-start", {CollectiveKind::kAllGather, true}},
    {"all-to-all", {CollectiveKind::kAllToAll, false}},
    {"all-to-all-start", {CollectiveKind::kAllToAll, true}},
    {"reduce-scatter", {CollectiveKind::kReduceScatter, false}},
    {"reduce-scatter-start", {CollectiveKind::kReduceScatter, true}},
    {"ragged-all-to-all", {CollectiveKind::kRaggedAllToAll, false}},
    {"ragged-all-to-all-start", {CollectiveKind::kRaggedAllToAll, true}},
    {"collective-permute", {CollectiveKind::kCollectivePermute, false}},
    {"collective-permute-start", {CollectiveKind::kCollectivePermute, true}},
    {"collective-broadcast", {CollectiveKind::kCollectiveBroadcast, false}},
    {"collective-broadcast-start",
     {CollectiveKind::kCollectiveBroadcast, true}},
    {"send", {CollectiveKind::kSend, false}},
    {"recv", {CollectiveKind::kRecv, false}},
};

}  // namespace

const CollectiveOpcode* LookUpCollectiveOpcode(std::string_view opcode) {
  for (const OpcodeEntry& e : kOpcodes) {
    if (e.name.size() == opcode.size() && e.name[0] == opcode[0] &&
        e.name == opcode) {
      return &e.op;
    }
  }
  return nullptr;
}

}  // namespace topolint::hlo
