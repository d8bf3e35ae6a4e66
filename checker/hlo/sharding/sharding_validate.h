// XLA's HloSharding::Validate(shape, num_devices) (xla/hlo/ir/
// hlo_sharding.cc: Validate, ValidateTuple, ValidateNonTuple), with XLA's
// messages, as a pure function over the sharding model.
//
// Order and normalisation as XLA's:
//   - a token shape is always fine (nothing else is looked at);
//   - a tuple sharding needs a tuple shape with as many leaves (an empty
//     tuple may carry one sharding or none); each leaf is then validated
//     against its sub-shape; a non-tuple sharding on a tuple shape applies
//     to every leaf (XLA's parser normalises it so: NormalizeTupleSharding);
//   - replicated / manual / unknown / unreduced leaves are fine, and so is a
//     tiled sharding that XLA's parser collapses into one of them
//     (CollapsedType in sharding.h);
//   - maximal: one device, not negative, below num_devices when given;
//   - tiled: not a single device; tile rank without subgroup dimensions
//     equal to the shape's rank; then, with num_devices, the tile holds
//     exactly num_devices devices; explicit devices are each not negative,
//     below num_devices (when given) and unique.
// One difference, on purpose: where an explicit tile holds M != N devices,
// the problem reported is the count (kCount, "tile_assignment should have N
// devices but has M"), not the first device past N that XLA's loop meets,
// so that one wrong tile is one finding that says what is wrong.
#ifndef TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_VALIDATE_H_
#define TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_VALIDATE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/sharding/sharding.h"

namespace topolint::hlo {

struct ShardingProblem {
  ShardingIssue::Kind kind = ShardingIssue::Kind::kRank;
  // XLA's message, then "; sharding S against shape T" (and the tuple
  // element, for a tuple).
  std::string message;
};

// `shape.known == false` (an elided shape): only the checks that need no
// shape run. `num_devices`: XLA's verifier passes num_partitions when the
// module is SPMD-partitioned with more than one partition, else nothing.
std::optional<ShardingProblem> ValidateSharding(
    const Sharding& sharding, const Shape& shape,
    std::optional<int64_t> num_devices);

// XLA's ShapeUtil::HumanString of a parsed shape: "f32[8,4]", "(f32[2],
// s32[])", "token[]"; "<unknown shape>" when not known.
std::string ShapeText(const Shape& shape);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_VALIDATE_H_
