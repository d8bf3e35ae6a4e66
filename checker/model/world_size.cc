#include "checker/model/world_size.h"

#include <algorithm>

namespace topolint::model {

int64_t PairsSpan(const std::vector<neff::Pair>& pairs) {
  int64_t span = 0;
  for (const neff::Pair& p : pairs) {
    span = std::max({span, p.src.value + 1, p.dst.value + 1});
  }
  return span;
}

WorldSize ComputeWorldSize(const neff::DefJson& d) {
  WorldSize ws;
  int64_t current = 0;  // the reader's running ws_rg
  int64_t current_index = 0;
  TextPos current_pos;
  for (const neff::Topology& t : d.topologies) {
    if (t.empty()) {
      MpmdError e;
      e.kind = MpmdError::Kind::kEmptyTopology;
      e.topology_index = t.index;
      e.pos = t.pos;
      ws.errors.push_back(e);
      continue;
    }
    TopologyWorkers tw;
    tw.topology_index = t.index;
    for (int64_t g = 0; g < t.num_groups(); ++g) {
      tw.workers = std::max(tw.workers, t.group_size(g));
    }
    ws.per_topology.push_back(tw);
    if (current != 0 && tw.workers != current) {
      MpmdError e;
      e.kind = MpmdError::Kind::kInconsistentWorkerCount;
      e.topology_index = t.index;
      e.pos = t.pos;
      e.a = current;
      e.b = tw.workers;
      e.previous_index = current_index;
      e.previous_pos = current_pos;
      ws.errors.push_back(e);
    }
    current = tw.workers;
    current_index = t.index;
    current_pos = t.pos;
    ws.ws_rg = std::max(ws.ws_rg, tw.workers);
  }
  ws.ws_pairs = PairsSpan(d.pairs);
  ws.ws_expl = d.has_explicit_world_size ? d.explicit_world_size.value : 0;
  ws.world_size = std::max({ws.ws_rg, ws.ws_pairs, ws.ws_expl, int64_t{1}});
  return ws;
}

}  // namespace topolint::model
