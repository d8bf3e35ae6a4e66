// hlo-group-size-shape: the gathered / scattered / split dimension must match
// the number of devices in a group (XLA's GetSubgroupSize).
#include <cstdint>

#include "fmt/format.h"
#include "rules/hlo_rule_util.h"

namespace topolint::hlo_rules {
namespace {

using hlo::CollectiveKind;
using hlo::Shape;

const Shape* ArrayShape(const Shape* s) {
  return s != nullptr && s->known && !s->is_tuple ? s : nullptr;
}

// The op's first result array: the result, or (async -start forms) element 1
// of the start tuple — `(in, out)` for all-gather-start, `((operands...),
// result, context...)` for generic async starts — and element 0 of a
// multi-operand tuple result.
const Shape* FirstOutput(const hlo::Collective& op) {
  const Shape* out = &op.result_shape;
  if (!out->known) return nullptr;
  if (op.is_async_start) {
    if (!out->is_tuple || out->tuple.size() < 2) return nullptr;
    out = &out->tuple[1];
  }
  if (out->is_tuple) {
    if (out->tuple.empty()) return nullptr;
    out = &out->tuple[0];
  }
  return ArrayShape(out);
}

const Shape* FirstOperand(const hlo::Collective& op) {
  if (op.operand_shapes.empty()) return nullptr;
  return ArrayShape(&op.operand_shapes[0]);
}

TextPos DimensionsPos(const hlo::Collective& op) {
  return op.dimensions_pos.known() ? op.dimensions_pos : OpPos(op);
}

// The size of dimension `d` of `s`, or -1 when it is out of range, dynamic
// or zero (nothing to compare).
int64_t DimSize(const Shape& s, int64_t d) {
  if (d < 0 || d >= static_cast<int64_t>(s.dims.size())) return -1;
  const int64_t size = s.dims[static_cast<size_t>(d)];
  return size > 0 ? size : -1;
}

bool ReportBadDimension(const OpView& v, const Shape& shape, int64_t d,
                        const char* which, Emitter& emit) {
  if (d >= 0 && d < static_cast<int64_t>(shape.dims.size())) return false;
  Report(
      emit, kHloGroupSizeShape, v, DimensionsPos(*v.op),
      fmt::format("{} names dimension {} but its {} has rank {}; expected "
                  "a dimension in [0, {})",
                  v.op->name, d, which, shape.dims.size(), shape.dims.size()));
  return true;
}

void CheckGatherOrScatter(const OpView& v, int64_t subgroup, Emitter& emit) {
  const hlo::Collective& op = *v.op;
  const Shape* in = FirstOperand(op);
  const Shape* out = FirstOutput(op);
  if (!op.has_dimensions || op.dimensions.empty() || in == nullptr ||
      out == nullptr) {
    return;
  }
  const int64_t d = op.dimensions[0];
  if (ReportBadDimension(v, *in, d, "operand", emit) ||
      ReportBadDimension(v, *out, d, "result", emit)) {
    return;
  }
  const int64_t in_size = DimSize(*in, d), out_size = DimSize(*out, d);
  if (in_size < 0 || out_size < 0 || subgroup <= 1) return;
  const bool gather = op.kind == CollectiveKind::kAllGather;
  // CeilOfRatio, as the verifier computes shard_count.
  const int64_t shards = gather ? (out_size + in_size - 1) / in_size
                                : (in_size + out_size - 1) / out_size;
  if (shards == subgroup) return;
  std::string expected;
  int64_t product = 0;
  if (gather && !__builtin_mul_overflow(in_size, subgroup, &product)) {
    expected = fmt::format("expected a result dimension of {}", product);
  } else if (gather) {
    expected = fmt::format("expected a result dimension of {} x {}", in_size,
                           subgroup);
  } else if (in_size % subgroup == 0) {
    expected =
        fmt::format("expected a result dimension of {}", in_size / subgroup);
  } else {
    expected =
        fmt::format("expected an operand dimension divisible by {}", subgroup);
  }
  Report(emit, kHloGroupSizeShape, v, DimensionsPos(op),
         fmt::format("{} {} dimension {} from {} to {} ({} shards) but each "
                     "of its groups has {} devices; {} (XLA: \"shard_count = "
                     "{}, subgroup_size = {}\")",
                     op.name, gather ? "gathers" : "scatters", d, in_size,
                     out_size, shards, subgroup, expected, shards, subgroup));
}

void CheckAllToAll(const OpView& v, int64_t split_count, Emitter& emit) {
  const hlo::Collective& op = *v.op;
  if (op.has_dimensions && !op.dimensions.empty()) {
    const Shape* in = FirstOperand(op);
    if (in == nullptr || split_count < 1) return;
    const int64_t d = op.dimensions[0];
    if (ReportBadDimension(v, *in, d, "operand", emit)) return;
    const int64_t size = DimSize(*in, d);
    if (size < 0 || size % split_count == 0) return;
    Report(emit, kHloGroupSizeShape, v, DimensionsPos(op),
           fmt::format("{} splits dimension {} of size {} into {} parts, one "
                       "per device of its groups, but {} is not divisible by "
                       "{} (XLA: \"Split dimension size {} must be dividable "
                       "by split_count {}\")",
                       op.name, d, size, split_count, size, split_count, size,
                       split_count));
    return;
  }
  // Tuple form: one operand per device. An empty list with replica_count /
  // num_partitions left at 1 says nothing about the real group size.
  if (v.groups->empty() && split_count == 1) return;
  if (op.operand_count == split_count) return;
  Report(emit, kHloGroupSizeShape, v, OpPos(op),
         fmt::format("{} has {} operands but each of its groups has {} "
                     "devices; a tuple all-to-all takes one operand per device "
                     "(XLA: operand_count() == split_count)",
                     op.name, op.operand_count, split_count));
}

}  // namespace

void CheckGroupSizeShape(const OpView& v, Emitter& emit) {
  if (v.groups == nullptr || v.mode == model::GroupMode::kInvalid) return;
  const int64_t subgroup = model::SubgroupSize(
      v.mode, *v.groups, v.params.replica_count, v.params.num_partitions);
  switch (v.op->kind) {
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter:
      CheckGatherOrScatter(v, subgroup, emit);
      return;
    case CollectiveKind::kAllToAll:
      CheckAllToAll(v, subgroup, emit);
      return;
    default:
      return;
  }
}

}  // namespace topolint::hlo_rules
