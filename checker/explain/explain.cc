// ExplainUnit, and resolving a physical core to its rank, group and
// position (`explain --core`).
#include "checker/explain/explain.h"

#include "checker/config/parallel_config.h"
#include "checker/explain/explain_internal.h"
#include "checker/model/rank_map.h"
#include "fmt/format.h"
#include "rules/lnc_resolution.h"

namespace topolint::explain {

RankPlace PlaceRank(const model::GroupList& groups, int64_t rank,
                    std::string what) {
  RankPlace p;
  p.what = std::move(what);
  p.status = "absent";
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    absl::Span<const int64_t> ids = groups.group(g);
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] != rank) continue;
      p.status = "member";
      p.group = g;
      p.position = static_cast<int64_t>(i);
      p.group_text = groups.GroupToString(g);
      p.group_ranks.assign(ids.begin(), ids.end());
      return p;
    }
  }
  return p;
}

namespace {

RankPlace Unplaced(std::string what, std::string status) {
  RankPlace p;
  p.what = std::move(what);
  p.status = std::move(status);
  return p;
}

RankPlace PlaceInNeff(const NeffExplanation& n, int64_t rank) {
  std::string what = fmt::format("topology[0] of {}", n.file);
  if (!n.mpmd.empty() || n.topologies.size() > 1) {
    return Unplaced(std::move(what), "mpmd");
  }
  if (n.topology_count == 0) return Unplaced(std::move(what), "all");
  if (n.topologies.empty() || n.topology_index[0] != 0) {
    return Unplaced(std::move(what), "unreadable");
  }
  // An empty flattened rank list (`[[[]]]`): every core participates.
  if (n.topologies[0].num_ids() == 0) return Unplaced(std::move(what), "all");
  return PlaceRank(n.topologies[0], rank, std::move(what));
}

CoreExplanation ExplainCore(int64_t core, const ExplainSettings& settings,
                            const UnitExplanation& unit,
                            const LncStatement& lnc) {
  CoreExplanation c;
  c.core = core;
  c.lnc = std::max<int64_t>(lnc.value, 1);
  c.lnc_source = lnc.source;
  c.rank = model::RankOfCore(core, c.lnc);
  c.num_cores = settings.check.num_cores;
  c.core_in_range = !c.num_cores.has_value() || core < *c.num_cores;
  for (const NeffExplanation& n : unit.neffs) {
    c.neffs.push_back(PlaceInNeff(n, c.rank));
  }
  for (const ModuleExplanation& m : unit.modules) {
    CoreExplanation::ModulePlace mp;
    mp.file = m.file;
    mp.devices = m.devices;
    mp.in_device_space = m.devices.has_value() && c.rank < *m.devices;
    for (const CollectiveExplanation& op : m.collectives) {
      if (!op.groups.has_value()) continue;
      // The rank is a global device id: look it up in the device groups.
      mp.collectives.push_back(PlaceRank(
          op.device_groups.has_value() ? *op.device_groups : *op.groups, c.rank,
          op.name));
    }
    c.modules.push_back(std::move(mp));
  }
  for (const ConfigExplanation& cfg : unit.configs) {
    // A layout the file does not record places no rank.
    if (!cfg.tp_recorded || !cfg.dp_recorded) continue;
    CoreExplanation::ConfigPlace cp;
    cp.file = cfg.file;
    cp.in_world = c.rank < cfg.world;
    if (cp.in_world && cfg.tp >= 1) {
      cp.row = c.rank / cfg.tp;
      cp.column = c.rank % cfg.tp;
    }
    for (const ConfigFamilyExplanation& f : cfg.families) {
      cp.families.push_back(PlaceRank(f.groups, c.rank, f.name));
    }
    c.configs.push_back(std::move(cp));
  }
  return c;
}

}  // namespace

UnitExplanation ExplainUnit(const Unit& unit, const ExplainSettings& settings) {
  UnitExplanation u;
  u.directory = unit.directory;
  for (const hlo::Module& m : unit.hlo_modules) u.files.push_back(m.file);
  for (const neff::DefJson& d : unit.def_jsons) u.files.push_back(d.file);
  for (const neff::NeffArchive& a : unit.neff_archives) {
    u.files.push_back(a.file);
  }
  for (const config::ComponentConfig& c : unit.configs) {
    u.files.push_back(c.file);
  }
  for (const config::CompileFlags& f : unit.compile_flags) {
    u.files.push_back(f.file);
  }
  for (const hlo::Module& m : unit.hlo_modules) {
    u.modules.push_back(ExplainModule(m, settings.check));
  }
  for (const neff::DefJson& d : unit.def_jsons) {
    u.neffs.push_back(ExplainNeff(d, unit.hlo_modules, settings.check));
  }
  for (const neff::NeffArchive& a : unit.neff_archives) {
    for (const neff::DefJson& d : a.graphs) {
      u.neffs.push_back(ExplainNeff(d, unit.hlo_modules, settings.check));
    }
  }
  for (const config::ComponentConfig& c : unit.configs) {
    for (const config::ParallelConfig& pc : config::ReadParallelConfigs(c)) {
      u.configs.push_back(ExplainConfig(pc, settings.check));
    }
  }
  // Headerless modules: what the unit's other files say about the count.
  for (ModuleExplanation& m : u.modules) {
    if (m.counts_recorded) continue;
    for (const NeffExplanation& n : u.neffs) {
      if (!n.has_cc_info) continue;
      m.derived.push_back(
          fmt::format("{}: world size {}", n.file, n.world.world_size));
    }
    for (const ConfigExplanation& c : u.configs) {
      if (c.world < 1) continue;
      m.derived.push_back(fmt::format("{}: world size {} ({})", c.file, c.world,
                                      c.world_formula));
    }
  }
  const LncStatement lnc = ResolveLnc(unit, settings.check);
  u.lnc = std::max<int64_t>(lnc.value, 1);
  u.lnc_source = lnc.source;
  if (settings.core.has_value()) {
    u.core = ExplainCore(*settings.core, settings, u, lnc);
  }
  return u;
}

}  // namespace topolint::explain
