// `explain --format json`: the same content as the text, as one document
// {"units": [...]} with keys in a fixed order, for compiler drivers.
#include <string>

#include "checker/explain/explain.h"
#include "nlohmann/json.hpp"

namespace topolint::explain {
namespace {

using Json = nlohmann::ordered_json;

Json Groups(const model::GroupList& g) { return g.ToVectors(); }

Json Optional(const std::optional<int64_t>& v) {
  return v.has_value() ? Json(*v) : Json(nullptr);
}

Json GridJson(const Grid& g) {
  Json cells = Json::array();
  for (int64_t r = 0; r < g.rows; ++r) {
    Json row = Json::array();
    for (int64_t c = 0; c < g.columns; ++c) {
      const size_t i = static_cast<size_t>(r * g.columns + c);
      if (g.id[i] < 0) break;
      row.push_back(
          Json{{"id", g.id[i]},
               {"group", g.group[i] < 0 ? Json(nullptr) : Json(g.group[i])}});
    }
    cells.push_back(std::move(row));
  }
  return Json{{"rows", g.rows},
              {"columns", g.columns},
              {"row_axis", g.row_axis},
              {"column_axis", g.column_axis},
              {"id_formula", g.id_formula},
              {"cells", std::move(cells)}};
}

Json ShapeInfo(const model::GroupList& g) {
  Json j{{"num_groups", g.num_groups()}};
  j["group_size"] = g.num_groups() > 0 && g.is_uniform() ? Json(g.group_size(0))
                                                         : Json(nullptr);
  return j;
}

Json CollectiveJson(const CollectiveExplanation& c) {
  Json j{
      {"name", c.name},      {"opcode", c.opcode},           {"line", c.line},
      {"mode", c.mode},      {"mode_reason", c.mode_reason}, {"form", c.form},
      {"written", c.written}};
  if (c.byte_offset >= 0) j["byte_offset"] = c.byte_offset;
  if (c.form == "pairs") {
    j["source_target_pairs"] = c.has_pairs ? Json(c.pairs) : Json(nullptr);
    return j;
  }
  if (!c.groups.has_value()) {
    j["groups"] = nullptr;
    j["groups_error"] = c.groups_error;
    return j;
  }
  j["groups"] = Groups(*c.groups);
  j.update(ShapeInfo(*c.groups));
  j["iota"] = c.iota.empty() ? Json(nullptr) : Json(c.iota);
  j["iota_as_written"] = c.iota_as_written;
  j["device_groups"] =
      Groups(c.device_groups.has_value() ? *c.device_groups : *c.groups);
  j["same_groups_as"] =
      c.same_groups_as.empty() ? Json(nullptr) : Json(c.same_groups_as);
  j["device_grid"] = c.grid.has_value() ? GridJson(*c.grid) : Json(nullptr);
  if (c.placement.has_value()) {
    const PlacementExplanation& p = *c.placement;
    j["placement"] =
        Json{{"mesh", p.mesh},       {"mesh_source", p.mesh_source},
             {"matched", p.matched}, {"axes", p.axes},
             {"ordered", p.ordered}, {"text", p.text}};
  } else {
    j["placement"] = nullptr;
  }
  return j;
}

Json ModuleJson(const ModuleExplanation& m) {
  Json ops = Json::array();
  for (const CollectiveExplanation& c : m.collectives) {
    ops.push_back(CollectiveJson(c));
  }
  return Json{{"file", m.file},
              {"format", m.input_format},
              {"name", m.name},
              {"replica_count", m.replica_count},
              {"replica_count_source", m.replica_count_source},
              {"num_partitions", m.num_partitions},
              {"num_partitions_source", m.num_partitions_source},
              {"devices", Optional(m.devices)},
              {"counts_recorded", m.counts_recorded},
              {"ids_listed", m.ids_listed},
              {"derived", m.derived},
              {"meshes", m.meshes},
              {"syntax_errors", m.syntax_errors},
              {"collectives", std::move(ops)}};
}

Json NeffJson(const NeffExplanation& n) {
  Json topologies = Json::array();
  for (size_t t = 0; t < n.topologies.size(); ++t) {
    topologies.push_back(Json{{"index", n.topology_index[t]},
                              {"groups", Groups(n.topologies[t])}});
  }
  Json shape = Json::array();
  for (const std::optional<int64_t>& d : n.shape_dims) {
    shape.push_back(Optional(d));
  }
  Json matches = Json::array();
  for (const TopologyMatch& m : n.matches) {
    matches.push_back(
        Json{{"module", m.module_file},
             {"collective", m.collective},
             {"equal", m.equal},
             {"difference", m.equal ? Json(nullptr) : Json(m.difference)}});
  }
  const model::WorldSize& w = n.world;
  return Json{
      {"file", n.file},
      {"has_cc_info", n.has_cc_info},
      {"topology_count", n.topology_count},
      {"shape", std::move(shape)},
      {"shape_text", n.shape},
      {"topologies", std::move(topologies)},
      {"src_target_pairs", n.pairs},
      {"schema_problems", n.schema_problems},
      {"world_size",
       Json{{"ws_rg", w.ws_rg},
            {"ws_pairs", w.ws_pairs},
            {"ws_expl", w.ws_expl},
            {"rank_world_size_present", n.has_explicit_world_size},
            {"world_size", n.mpmd.empty() ? Json(w.world_size) : Json(nullptr)},
            {"refused", n.mpmd}}},
      {"topology0_matches", std::move(matches)}};
}

Json ConfigJson(const ConfigExplanation& c) {
  Json dp = Json::object();
  for (const auto& [key, value] : c.component_dp) dp[key] = value;
  Json families = Json::array();
  for (const ConfigFamilyExplanation& f : c.families) {
    families.push_back(Json{{"name", f.name}, {"groups", Groups(f.groups)}});
  }
  return Json{
      {"file", c.file},
      {"form", c.form},
      {"tp", c.tp_recorded ? Json(c.tp) : Json(nullptr)},
      {"dp", c.dp_recorded ? Json(c.dp) : Json(nullptr)},
      {"world", c.tp_recorded && c.dp_recorded ? Json(c.world) : Json(nullptr)},
      {"world_formula", c.world_formula},
      {"component_dp_sizes", std::move(dp)},
      {"rank_grid", c.grid.has_value() ? GridJson(*c.grid) : Json(nullptr)},
      {"families", std::move(families)},
      {"error", c.error.empty() ? Json(nullptr) : Json(c.error)},
      {"not_recorded", c.not_recorded}};
}

Json PlaceJson(const RankPlace& p) {
  Json j{{"in", p.what}, {"status", p.status}};
  j["participates"] = p.status == "member" || p.status == "all";
  j["group"] = p.group < 0 ? Json(nullptr) : Json(p.group);
  j["position"] = p.position < 0 ? Json(nullptr) : Json(p.position);
  j["group_ranks"] = p.status == "member" ? Json(p.group_ranks) : Json(nullptr);
  return j;
}

Json CoreJson(const CoreExplanation& c) {
  Json neffs = Json::array();
  for (const RankPlace& p : c.neffs) neffs.push_back(PlaceJson(p));
  Json modules = Json::array();
  for (const CoreExplanation::ModulePlace& m : c.modules) {
    Json ops = Json::array();
    for (const RankPlace& p : m.collectives) ops.push_back(PlaceJson(p));
    modules.push_back(Json{{"file", m.file},
                           {"devices", Optional(m.devices)},
                           {"in_device_space", m.in_device_space},
                           {"collectives", std::move(ops)}});
  }
  Json configs = Json::array();
  for (const CoreExplanation::ConfigPlace& cp : c.configs) {
    Json fams = Json::array();
    for (const RankPlace& p : cp.families) fams.push_back(PlaceJson(p));
    configs.push_back(
        Json{{"file", cp.file},
             {"in_world", cp.in_world},
             {"dp_row", cp.row < 0 ? Json(nullptr) : Json(cp.row)},
             {"tp_column", cp.column < 0 ? Json(nullptr) : Json(cp.column)},
             {"families", std::move(fams)}});
  }
  return Json{{"core", c.core},
              {"lnc", c.lnc},
              {"lnc_source", c.lnc_source},
              {"rank", c.rank},
              {"num_cores", Optional(c.num_cores)},
              {"core_in_range", c.core_in_range},
              {"neff", std::move(neffs)},
              {"modules", std::move(modules)},
              {"configs", std::move(configs)}};
}

}  // namespace

std::string RenderExplainJson(const std::vector<UnitExplanation>& units) {
  Json list = Json::array();
  for (const UnitExplanation& u : units) {
    Json modules = Json::array(), neffs = Json::array(),
         configs = Json::array();
    for (const ModuleExplanation& m : u.modules)
      modules.push_back(ModuleJson(m));
    for (const NeffExplanation& n : u.neffs) neffs.push_back(NeffJson(n));
    for (const ConfigExplanation& c : u.configs) {
      configs.push_back(ConfigJson(c));
    }
    list.push_back(
        Json{{"directory", u.directory},
             {"files", u.files},
             {"hlo_modules", std::move(modules)},
             {"neff", std::move(neffs)},
             {"configs", std::move(configs)},
             {"core", u.core.has_value() ? CoreJson(*u.core) : Json(nullptr)}});
  }
  return Json{{"units", std::move(list)}}.dump(2, ' ', false,
                                               Json::error_handler_t::replace) +
         "\n";
}

}  // namespace topolint::explain
