// The NEFF world size, as the NEFF reader (NeffInfo.getCCRankWorldSize)
// computes it from CCInfo (docs/reference/rank-model.md §4):
//
//   ws_rg    = per topology, the largest group length; an empty topology is
//              fatal, and so is a topology whose ws_rg differs from the
//              previous one's (when that was not 0)
//   ws_pairs = 1 + the largest id in src_target_pairs (0 if none)
//   ws_expl  = #rank_world_size (0 if absent)
//   world    = max(ws_rg, ws_pairs, ws_expl, 1)
//
// The contract is refuse, not reconcile: an MPMD error is reported, never
// averaged or maxed away. Pure functions over neff::DefJson.
#ifndef TOPOLINT_CHECKER_MODEL_WORLD_SIZE_H_
#define TOPOLINT_CHECKER_MODEL_WORLD_SIZE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "checker/diag/location.h"
#include "checker/neff/def_json.h"

namespace topolint::model {

// A reason the NEFF reader refuses the file as MPMD.
struct MpmdError {
  enum class Kind {
    kEmptyTopology,           // "Empty topology found at index {i}, ..."
    kInconsistentWorkerCount  // "Inconsistent worker count ...: {a} vs {b}"
  };
  Kind kind = Kind::kEmptyTopology;
  int64_t topology_index = 0;  // the offending topology (its document index)
  TextPos pos;                 // its '['
  // kInconsistentWorkerCount: a = the ws_rg so far (from the topology at
  // `previous_index` / `previous_pos`), b = this topology's ws_rg.
  int64_t a = 0;
  int64_t b = 0;
  int64_t previous_index = 0;
  TextPos previous_pos;
};

// ws_rg of one topology.
struct TopologyWorkers {
  int64_t topology_index = 0;
  int64_t workers = 0;  // largest group length (0 when no groups)
};

struct WorldSize {
  std::vector<TopologyWorkers> per_topology;  // in document order
  int64_t ws_rg = 0;       // agreed worker count (largest if they disagree)
  int64_t ws_pairs = 0;    // 1 + largest src_target_pairs id, 0 if none
  int64_t ws_expl = 0;     // #rank_world_size, 0 if absent
  int64_t world_size = 1;  // max(ws_rg, ws_pairs, ws_expl, 1)
  // Every MPMD refusal, in document order. The reader stops at the first;
  // checking goes on so that each offending topology is named.
  std::vector<MpmdError> errors;

  bool ok() const { return errors.empty(); }
};

// Computes the world size over the well-formed topologies and pairs of `d`
// (malformed ones are schema problems and are not counted). After an
// inconsistency, the later topology's count becomes the one compared next,
// so [4],[2],[2] is one error and [4],[2],[4] two.
WorldSize ComputeWorldSize(const neff::DefJson& d);

// 1 + the largest endpoint of `pairs`, 0 when there are none.
int64_t PairsSpan(const std::vector<neff::Pair>& pairs);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_WORLD_SIZE_H_
