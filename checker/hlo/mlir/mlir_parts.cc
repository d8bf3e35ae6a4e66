// A part's collectives on their way to the sink: emitted at once when the
// part states its counts, else held (bounded) until its end, when an
// `interpreter.run_parallel` may have given them (StableHLO's interpreter
// tests state their process grid only there).
#include <optional>
#include <string>
#include <string_view>

#include "checker/hlo/collective_emit.h"
#include "checker/hlo/mlir/mlir_internal.h"
#include "checker/hlo/sharding/sharding.h"
#include "checker/hlo/sharding/sharding_record.h"
#include "checker/hlo/sharding/sharding_text.h"

namespace topolint::hlo::mlir {

std::optional<int64_t> DeviceCountOfSharding(std::string_view sharding) {
  // The one HLO sharding parser (checker/hlo/sharding). A tiled sharding of
  // an SPMD module names exactly num_partitions devices; a tuple's tiled
  // leaves must agree. Replicated, maximal and collapsing (all-subgroup)
  // shardings say nothing about the count.
  const ShardingParse parsed = ParseShardingText(sharding);
  if (!parsed.ok()) return std::nullopt;
  std::optional<int64_t> count;
  bool agree = true;
  auto visit = [&](const Sharding& s) {
    if (s.type != ShardingType::kTiled || CollapsedType(s).has_value()) return;
    const int64_t n = TileDeviceCount(s);
    if (n <= 1) return;
    if (count.has_value() && *count != n) agree = false;
    count = n;
  };
  if (parsed.sharding->type == ShardingType::kTuple) {
    for (const Sharding& leaf : parsed.sharding->tuple) visit(leaf);
  } else {
    visit(*parsed.sharding);
  }
  if (!agree) return std::nullopt;
  return count;
}

void Reader::ShardingAttr(TextPos pos) {
  // `mhlo.sharding = "..."` on an argument, a result or a custom call.
  cur_.SkipSpace();
  if (!cur_.Eat('=')) return;
  cur_.SkipSpace();
  std::string text;
  if (cur_.Peek() != '"' || !cur_.ReadString(&text, 1 << 16)) return;
  // Recorded as HLO text records a sharding (hlo::RecordSharding), counted
  // and not validated (the value's shape is not read here): the model then
  // takes the device count the tiled shardings agree on, and none when they
  // disagree, naming "the sharding at line L", exactly as for HLO.
  const ShardingParse parsed = ParseShardingText(text);
  if (!parsed.ok()) return;
  RecordSharding(*parsed.sharding, Shape(), pos, "", ShardingSite::kModule,
                 module_);
}

void Reader::Emit() {
  // Bounded: 4096 ops or 16 MiB of ids wait at most.
  constexpr int64_t kMaxDeferredBytes = int64_t{16} << 20;
  const int64_t bytes =
      8 * op_.replica_groups.explicit_id_count +
      16 * static_cast<int64_t>(op_.source_target_pairs.pairs.size()) + 256;
  if (!CountsStated() && !defer_off_ && deferred_.size() < 4096 &&
      deferred_bytes_ + bytes <= kMaxDeferredBytes) {
    deferred_.push_back(op_);
    deferred_bytes_ += bytes;
    return;
  }
  if (!CountsStated()) defer_off_ = true;
  FlushDeferred();
  EmitCollective(options_.on_collective, module_, op_);
}

void Reader::FlushDeferred() {
  for (Collective& c : deferred_) {
    EmitCollective(options_.on_collective, module_, c);
  }
  deferred_.clear();
  deferred_bytes_ = 0;
}

void Reader::RunParallel() {
  // "interpreter.run_parallel"(...) {programs = [[@f, @f], [@f, @f]]}: the
  // interpreter runs num_replicas x num_partitions processes, one row per
  // replica.
  cur_.SkipSpace();
  if (cur_.Peek() != '(' ||
      !cur_.SkipBalanced(options_.max_instruction_bytes, kMaxNestingDepth)) {
    return;
  }
  cur_.SkipSpace();
  cur_.Eat('<');
  cur_.SkipSpace();
  if (!cur_.Eat('{')) return;
  for (int guard = 0; guard < 64; ++guard) {
    cur_.SkipSpace();
    const TextPos key_pos = cur_.Pos();
    std::string key;
    if (!cur_.ReadId(&key)) return;
    cur_.SkipSpace();
    if (!cur_.Eat('=')) return;
    cur_.SkipSpace();
    if (key != "programs") {
      if (!cur_.SkipValue(options_.max_instruction_bytes, kMaxNestingDepth)) {
        return;
      }
      cur_.SkipSpace();
      if (!cur_.Eat(',')) return;
      continue;
    }
    if (!cur_.Eat('[')) return;
    int64_t rows = 0, cols = 0;
    for (;;) {
      cur_.SkipSpace();
      if (cur_.Eat(']')) break;
      if (cur_.Eat(',')) continue;
      if (!cur_.Eat('[')) return;
      ++rows;
      int64_t n = 0;
      for (;;) {
        cur_.SkipSpace();
        const int ch = cur_.Peek();
        if (ch == kEnd) return;
        cur_.Advance();
        if (ch == ']') break;
        if (ch == '@') ++n;
      }
      if (n > cols) cols = n;
    }
    if (!CountsStated() && rows > 0 && cols > 0) {
      module_->replica_count = rows;
      module_->replica_count_pos = key_pos;
      module_->num_partitions = cols;
      module_->num_partitions_pos = key_pos;
    }
    return;
  }
}

}  // namespace topolint::hlo::mlir
