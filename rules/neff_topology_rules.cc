// neff-empty-topology, neff-inconsistent-worker-count,
// neff-multiple-topologies and neff-ragged-groups: the outer two axes of
// replica_groups[topology][group][rank].
#include <map>
#include <string>

#include "fmt/format.h"
#include "rules/neff_checks.h"

namespace topolint::neff_rules {
namespace {

// "CCInfo.replica_groups[1]".
std::string TopologyPath(int64_t t) {
  return fmt::format("CCInfo.replica_groups[{}]", t);
}

std::string Ranks(int64_t n) {
  return fmt::format("{} rank{}", n, n == 1 ? "" : "s");
}

void ReportEmpty(const neff::DefJson& d, const model::MpmdError& e,
                 Emitter& emit) {
  emit.Report(
      kNeffEmptyTopology, At(d.file, e.pos),
      fmt::format("Empty topology found at index {}, possible MPMD neff file: "
                  "replica_groups[{}] holds no groups; expected every "
                  "topology to hold at least one group",
                  e.topology_index, e.topology_index),
      {}, TopologyPath(e.topology_index));
}

void ReportInconsistent(const neff::DefJson& d, const model::MpmdError& e,
                        Emitter& emit) {
  emit.Report(
      kNeffInconsistentWorkerCount, At(d.file, e.pos),
      fmt::format("Inconsistent worker count across topologies: {} vs {}. "
                  "Possible MPMD neff file: topology[{}] has groups of up to "
                  "{}, topology[{}] of up to {}; expected one worker count for "
                  "all topologies",
                  e.a, e.b, e.topology_index, Ranks(e.b), e.previous_index,
                  Ranks(e.a)),
      {Note{At(d.file, e.previous_pos),
            fmt::format("topology[{}] has groups of up to {}", e.previous_index,
                        Ranks(e.a))}},
      TopologyPath(e.topology_index));
}

}  // namespace

void CheckTopologies(const neff::DefJson& d, const model::WorldSize& ws,
                     Emitter& emit) {
  for (const model::MpmdError& e : ws.errors) {
    if (e.kind == model::MpmdError::Kind::kEmptyTopology) {
      ReportEmpty(d, e, emit);
    } else {
      ReportInconsistent(d, e, emit);
    }
  }
  // More than one topology although the counts agree: still MPMD. Only when
  // every topology could be read, so that "agree" means something.
  if (d.topology_count > 1 && ws.ok() && d.all_topologies_kept()) {
    const neff::Topology& first = d.topologies[0];
    const neff::Topology& second = d.topologies[1];
    // Only claim agreement when every topology has the same worker count:
    // a topology listing no ranks (`[[]]`) passes the reader's comparison
    // without agreeing with anything.
    bool all_equal = true;
    std::string counts;
    for (const model::TopologyWorkers& t : ws.per_topology) {
      if (t.workers != ws.per_topology.front().workers) all_equal = false;
      if (!counts.empty()) counts += ", ";
      counts += std::to_string(t.workers);
    }
    const std::string why =
        all_equal ? fmt::format("all topologies agree on {} workers", ws.ws_rg)
                  : fmt::format(
                        "worker counts per topology are {}; the reader "
                        "does not compare a topology that lists no ranks, "
                        "so it does not refuse the file",
                        counts);
    emit.Report(
        kNeffMultipleTopologies, At(d.file, second.pos),
        fmt::format("replica_groups holds {} topologies, but a single-program "
                    "(SPMD) NEFF has exactly one; possible MPMD neff file "
                    "({})",
                    d.topology_count, why),
        {Note{At(d.file, first.pos), "topology[0] is declared here"}},
        TopologyPath(second.index));
  }
}

void CheckRaggedGroups(const neff::DefJson& d, Emitter& emit) {
  for (const neff::Topology& t : d.topologies) {
    if (t.num_groups() < 2) continue;
    // The reference size is the most common one (the earliest on a tie), so
    // that one odd group is the one reported.
    std::map<size_t, int64_t> count;  // size -> groups
    for (int64_t g = 0; g < t.num_groups(); ++g) {
      ++count[static_cast<size_t>(t.group_size(g))];
    }
    if (count.size() == 1) continue;
    size_t reference = static_cast<size_t>(t.group_size(0));
    int64_t reference_groups = 0;
    int64_t reference_first = -1;
    for (int64_t i = 0; i < t.num_groups(); ++i) {
      const size_t n = static_cast<size_t>(t.group_size(i));
      if (count[n] > reference_groups) {
        reference = n;
        reference_groups = count[n];
        reference_first = i;
      }
    }
    const TextPos ref_pos = t.group_pos(reference_first);
    for (int64_t i = 0; i < t.num_groups(); ++i) {
      const size_t n = static_cast<size_t>(t.group_size(i));
      if (n == reference) continue;
      const std::string others =
          reference_groups == 1
              ? fmt::format("group {} has {}", reference_first,
                            Ranks(static_cast<int64_t>(reference)))
              : fmt::format("{} of its {} groups have {}", reference_groups,
                            t.num_groups(),
                            Ranks(static_cast<int64_t>(reference)));
      emit.Report(
          kNeffRaggedGroups, At(d.file, t.group_pos(i)),
          fmt::format("group {} of topology[{}] has {} but {}; every group of "
                      "a topology must be the same size",
                      i, t.index, Ranks(static_cast<int64_t>(n)), others),
          {Note{At(d.file, ref_pos),
                fmt::format("group {} has {}", reference_first,
                            Ranks(static_cast<int64_t>(reference)))}},
          fmt::format("CCInfo.replica_groups[{}][{}]", t.index, i));
    }
  }
}

}  // namespace topolint::neff_rules
