// xref-world-size: the group size of every op that carries groups must be
// ws_rg of topology[0] (its largest group), and every NEFF rank must be a
// device of the HLO module, [0, R*P). ws_pairs and #rank_world_size may
// exceed the group size (a permute ring beside a TP all-reduce).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "rules/xref_checks.h"

namespace topolint::xref {
namespace {

constexpr RuleId kRule = kXrefWorldSize;

// MPMD (the neff-* rules report it) has no world size; a def.json part
// with a schema problem would give a wrong one.
bool WorldSizeKnown(const NeffSide& n) {
  return n.world.ok() && n.parts.replica_groups && n.parts.pairs &&
         n.parts.explicit_world_size;
}

std::string DeviceSpace(const model::ModuleParams& p, int64_t devices) {
  return fmt::format("[0, {}) (replica_count {} x num_partitions {})", devices,
                     p.replica_count, p.num_partitions);
}

// Where the module's device count is declared (a header attribute when
// written, else the header, else the top of the file; the sharding that
// gave num_partitions when the header has none).
Note DeviceCountNote(const hlo::Module& module,
                     const model::ModuleParams& params, int64_t devices) {
  if (params.num_partitions_source == model::CountSource::kSharding ||
      params.num_partitions_source == model::CountSource::kMesh) {
    return {At(module.file, params.num_partitions_pos),
            fmt::format("the HLO module has {} devices (num_partitions={} "
                        "from the {}: the header has none)",
                        devices, params.num_partitions,
                        model::NumPartitionsSourceText(params))};
  }
  TextPos pos{1, 1};
  if (module.num_partitions.has_value()) {
    pos = module.num_partitions_pos;
  } else if (module.replica_count.has_value()) {
    pos = module.replica_count_pos;
  } else if (module.has_header) {
    pos = module.header_pos;
  }
  const bool from_header =
      module.replica_count.value_or(1) == params.replica_count &&
      module.num_partitions.value_or(1) == params.num_partitions;
  return {At(module.file, pos),
          fmt::format("the HLO module has {} devices{}", devices,
                      from_header ? ""
                                  : " (counts from --replica-count / "
                                    "--num-partitions or .topolint.json)")};
}

// One finding per rank list (a topology, or the pairs): the first rank
// outside [0, devices), with how many more there are.
struct Outside {
  std::optional<neff::Rank> first;
  std::string where;   // "topology[0] group 2"
  std::string anchor;  // JSON path of the first
  int64_t more = 0;
  // True for the first rank outside (to be described); counts the others.
  bool First() {
    if (first.has_value()) ++more;
    return !first.has_value();
  }
};

void ReportOutside(const hlo::Module& module, const model::ModuleParams& params,
                   const NeffSide& n, int64_t devices, const Outside& o,
                   const std::string& list, Emitter& emit) {
  if (!o.first.has_value()) return;
  std::string more;
  if (o.more > 0) {
    more =
        fmt::format("; {} more rank{} of {} {} outside too", o.more,
                    o.more == 1 ? "" : "s", list, o.more == 1 ? "is" : "are");
  }
  emit.Report(kRule, At(n.def->file, o.first->pos),
              fmt::format("rank {} of {} is outside the device space {} of "
                          "{}{}",
                          o.first->value, o.where, DeviceSpace(params, devices),
                          module.file, more),
              {DeviceCountNote(module, params, devices)}, o.anchor);
}

void CheckRankRange(const hlo::Module& module,
                    const model::ModuleParams& params, const NeffSide& n,
                    int64_t devices, Emitter& emit) {
  const neff::DefJson& def = *n.def;
  for (const neff::Topology& topo : def.topologies) {
    Outside o;
    for (int64_t g = 0; g < topo.num_groups(); ++g) {
      const absl::Span<const int32_t> ranks = topo.group(g);
      for (size_t r = 0; r < ranks.size(); ++r) {
        if (ranks[r] < devices || !o.First()) continue;
        o.first =
            neff::Rank{ranks[r], topo.rank_pos(g, static_cast<int64_t>(r))};
        o.where = fmt::format("topology[{}] group {}", topo.index, g);
        o.anchor =
            fmt::format("CCInfo.replica_groups[{}][{}][{}]", topo.index, g, r);
      }
    }
    ReportOutside(module, params, n, devices, o,
                  fmt::format("topology[{}]", topo.index), emit);
  }
  Outside o;
  for (const neff::Pair& p : def.pairs) {
    for (const neff::Rank* r : {&p.src, &p.dst}) {
      if (r->value < devices || !o.First()) continue;
      o.first = *r;
      o.where = fmt::format("src_target_pairs[{}]", p.index);
      o.anchor = fmt::format("CCInfo.src_target_pairs[{}]", p.index);
    }
  }
  ReportOutside(module, params, n, devices, o, "src_target_pairs", emit);
}

}  // namespace

void CheckOpWorldSize(const hlo::Module& module, const OpGroups& g,
                      const NeffSide& n, bool shape_reported, Emitter& emit) {
  if (!emit.Enabled(kRule) || !WorldSizeKnown(n)) return;
  // xref-topology-mismatch already said that topology[0]'s groups have
  // another size (or that there is no topology).
  if (shape_reported) return;
  const neff::DefJson& def = *n.def;
  const model::TopologyWorkers* t0 = nullptr;
  for (const model::TopologyWorkers& t : n.world.per_topology) {
    if (t.topology_index == 0) t0 = &t;
  }
  // No topology[0], or an empty flattened rank list (`[[[]]]`: every core
  // takes part), bounds no group size.
  if (t0 == nullptr || t0->workers == 0) return;
  if (g.largest_group == t0->workers) return;
  const hlo::Collective& op = *g.op;
  std::vector<Note> notes;
  for (const neff::Topology& topo : def.topologies) {
    if (topo.index != 0) continue;
    notes.push_back(
        {At(def.file, topo.pos),
         fmt::format("topology[0] has groups of {} ranks", t0->workers)});
  }
  emit.Report(kRule, GroupsLocation(module, op),
              fmt::format("{} has groups of {}{} ranks but ws_rg of "
                          "topology[0] (its largest group) is {}; expected "
                          "the op's group size",
                          op.name, g.uniform ? "" : "up to ", g.largest_group,
                          t0->workers),
              std::move(notes), op.name);
}

void CheckDeviceSpace(const hlo::Module& module,
                      const model::ModuleParams& params, bool any_groups,
                      const NeffSide& n, Emitter& emit) {
  if (!emit.Enabled(kRule) || !WorldSizeKnown(n)) return;
  int64_t devices = 0;
  if (__builtin_mul_overflow(params.replica_count, params.num_partitions,
                             &devices)) {
    return;
  }
  // As XLA's verifier, a module of one device (no counts in the header or on
  // the command line) does not bound the ids.
  if (devices <= 1) return;
  CheckRankRange(module, params, n, devices, emit);
  const neff::DefJson& def = *n.def;
  if (!any_groups && def.has_explicit_world_size && n.world.ws_expl > devices) {
    emit.Report(kRule, At(def.file, def.explicit_world_size.pos),
                fmt::format("#rank_world_size is {} but {} has only {} "
                            "devices",
                            n.world.ws_expl, module.file, devices),
                {DeviceCountNote(module, params, devices)},
                "CCInfo.#rank_world_size");
  }
}

}  // namespace topolint::xref
