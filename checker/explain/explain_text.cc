// `explain` for a person: one section per module, NEFF, config and core.
#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "absl/strings/str_join.h"
#include "checker/diag/source_snippet.h"
#include "checker/explain/explain.h"
#include "fmt/format.h"
#include "rules/xref_compare.h"

namespace topolint::explain {
namespace {

// Groups shown inline are cut after this many ids.
constexpr int64_t kShownIds = 64;

// Names and values from the input can hold anything; keep the terminal safe.
std::string Safe(const std::string& s) { return SanitizeForTerminal(s); }

std::string GroupsLine(const model::GroupList& g) {
  return fmt::format("{}: {}", g.ToString(kShownIds), xref::DescribeShape(g));
}

// The cell `--core` resolves to: its id (-1: none) and the legend line.
struct Mark {
  int64_t id = -1;
  std::string legend;
};

// A grid as an aligned table: a header of column indices, then one line per
// row. The marked cell gets a '*' after its text, explained below the table.
void DrawGrid(const Grid& g, const std::function<std::string(size_t)>& cell,
              const Mark& mark, const std::string& indent, std::string* out) {
  const int64_t marked = mark.id;
  std::vector<std::string> texts(g.id.size());
  size_t width = fmt::format("{}", g.columns - 1).size();
  bool has_mark = false;
  for (size_t i = 0; i < g.id.size(); ++i) {
    if (g.id[i] < 0) continue;
    texts[i] = cell(i);
    if (g.id[i] == marked) {
      texts[i] += "*";
      has_mark = true;
    }
    width = std::max(width, texts[i].size());
  }
  const std::string last_row =
      fmt::format("{} {}", Safe(g.row_axis), g.rows - 1);
  const size_t label = std::max(Safe(g.column_axis).size(), last_row.size());
  *out += fmt::format("{}{:<{}}", indent, Safe(g.column_axis), label);
  for (int64_t c = 0; c < g.columns; ++c) {
    *out += fmt::format(" {:>{}}", c, width + 1);
  }
  *out += "\n";
  for (int64_t r = 0; r < g.rows; ++r) {
    *out += fmt::format("{}{:<{}}", indent,
                        fmt::format("{} {}", Safe(g.row_axis), r), label);
    for (int64_t c = 0; c < g.columns; ++c) {
      const size_t i = static_cast<size_t>(r * g.columns + c);
      *out += fmt::format(" {:>{}}", texts[i], width + 1);
    }
    // No trailing blanks from an empty last cell.
    while (!out->empty() && out->back() == ' ') out->pop_back();
    *out += "\n";
  }
  if (has_mark) {
    *out += fmt::format("{}* {}\n", indent, mark.legend);
  }
}

void RenderCollective(const CollectiveExplanation& c, const Mark& marked,
                      std::string* out) {
  *out += fmt::format("\n  {} = {} ({} {})\n", Safe(c.name), Safe(c.opcode),
                      c.byte_offset >= 0 ? "byte" : "line",
                      c.byte_offset >= 0 ? c.byte_offset : c.line);
  *out += fmt::format("    mode     {} ({})\n", c.mode, c.mode_reason);
  if (c.form == "pairs") {
    if (!c.has_pairs) {
      *out += "    pairs    none written\n";
    } else {
      *out += fmt::format("    pairs    {}\n",
                          xref::PairsToString(c.pairs, false, 32));
    }
    return;
  }
  if (c.form == "absent" || c.form == "empty") {
    *out += fmt::format(
        "    written  {} (every participant in one group)\n",
        c.form == "absent" ? "no replica_groups" : "replica_groups={}");
  } else if (c.form == "mesh") {
    *out += fmt::format("    written  {} ({} form)\n", Safe(c.written), c.form);
  }
  if (!c.groups.has_value()) {
    *out +=
        fmt::format("    groups   not expanded: {}\n", Safe(c.groups_error));
    return;
  }
  *out += fmt::format("    groups   {}\n", GroupsLine(*c.groups));
  if (!c.iota.empty()) {
    *out += fmt::format("    iota     {} ({})\n", c.iota,
                        c.iota_as_written ? "as written" : "equivalent");
  }
  if (c.device_groups.has_value()) {
    *out += fmt::format("    devices  {} (global device ids, {})\n",
                        GroupsLine(*c.device_groups), c.mode);
  }
  if (c.placement.has_value()) {
    *out +=
        fmt::format("    {}     {}\n", c.placement->matched ? "mesh" : "note",
                    Safe(c.placement->text));
  }
  if (!c.same_groups_as.empty()) {
    *out += fmt::format("    device grid: as {}\n", Safe(c.same_groups_as));
  } else if (c.grid.has_value()) {
    const Grid& g = *c.grid;
    *out += fmt::format(
        "    device grid {} x {} ({}); each cell is the device's group, "
        "'.' none:\n",
        g.rows, g.columns, Safe(g.id_formula));
    DrawGrid(
        g,
        [&](size_t i) {
          return g.group[i] < 0 ? std::string(".")
                                : fmt::format("{}", g.group[i]);
        },
        marked, "      ", out);
  }
}

void RenderCounts(const ModuleExplanation& m, std::string* out) {
  *out += fmt::format("  R = replica_count  = {} ({})\n", m.replica_count,
                      m.replica_count_label);
  *out += fmt::format("  P = num_partitions = {} ({})\n", m.num_partitions,
                      m.num_partitions_label);
  if (m.devices.has_value()) {
    *out += fmt::format(
        "  devices = R x P    = {} (device id = replica * {} + partition)\n",
        *m.devices, m.num_partitions);
  } else {
    *out += "  devices = R x P    overflows\n";
  }
}

void RenderModule(const ModuleExplanation& m, const Mark& marked,
                  std::string* out) {
  const bool stablehlo = m.format == "StableHLO";
  *out +=
      fmt::format("\n{} module {} ({})\n", m.format,
                  !m.name.empty() ? Safe(m.name)
                                  : (stablehlo ? "(no name)" : "(no header)"),
                  Safe(m.file));
  if (!m.counts_recorded) {
    *out += fmt::format(
        "  R = replica_count, P = num_partitions: not recorded ({}); give "
        "them with --replica-count N / --num-partitions N\n",
        stablehlo ? "the module states no mhlo.num_replicas / "
                    "mhlo.num_partitions and has no sdy.mesh or tiled "
                    "mhlo.sharding to take them from"
                  : "the header omits them, as torch_xla dumps do");
    if (m.ids_listed > 0) {
      *out += fmt::format(
          "  devices: not recorded; the collectives list ids 0..{} ({} "
          "devices by XLA's rule that the ids listed are exactly 0..n-1)\n",
          m.ids_listed - 1, m.ids_listed);
    } else {
      *out +=
          "  devices: not recorded; no collective lists an id (replica_groups="
          "{} is one group of every device, however many there are)\n";
    }
    for (const std::string& d : m.derived) {
      *out += fmt::format("  derived: {}\n", Safe(d));
    }
  } else {
    RenderCounts(m, out);
  }
  for (const std::string& mesh : m.meshes) {
    *out += fmt::format("  mesh {}\n", Safe(mesh));
  }
  if (m.syntax_errors > 0) {
    *out += fmt::format(
        "  note: {} syntax error{}; collectives after them may be missing\n",
        m.syntax_errors, m.syntax_errors == 1 ? "" : "s");
  }
  if (m.collectives.empty()) *out += "  no collectives\n";
  for (const CollectiveExplanation& c : m.collectives) {
    RenderCollective(c, marked, out);
  }
}

void RenderNeff(const NeffExplanation& n, std::string* out) {
  *out += fmt::format("\nNEFF {}\n", Safe(n.file));
  if (!n.has_cc_info) {
    *out += "  no CCInfo section\n";
    return;
  }
  *out += fmt::format("  replica_groups[topology][group][rank], shape {}\n",
                      n.shape);
  for (size_t t = 0; t < n.topologies.size(); ++t) {
    *out += fmt::format("    topology[{}]  {}\n", n.topology_index[t],
                        GroupsLine(n.topologies[t]));
  }
  if (n.topology_count == 0) {
    *out += "    no topology: every rank participates in one group\n";
  }
  if (n.schema_problems > 0) {
    *out += fmt::format("  {} schema problem{} (see `topolint check`)\n",
                        n.schema_problems, n.schema_problems == 1 ? "" : "s");
  }
  *out += fmt::format("  src_target_pairs  {}\n",
                      n.pairs.empty() ? std::string("none")
                                      : xref::PairsToString(n.pairs, true, 32));
  const model::WorldSize& w = n.world;
  *out += "  world size (NeffInfo.getCCRankWorldSize)\n";
  *out += fmt::format("    ws_rg    = {}  (largest group of each topology)\n",
                      w.ws_rg);
  *out += fmt::format(
      "    ws_pairs = {}  (1 + largest src_target_pairs id, 0 "
      "if none)\n",
      w.ws_pairs);
  *out += fmt::format("    ws_expl  = {}  (#rank_world_size{})\n", w.ws_expl,
                      n.has_explicit_world_size ? "" : ", absent");
  if (!n.mpmd.empty()) {
    for (const std::string& e : n.mpmd) {
      *out += fmt::format("    refused: {}\n", e);
    }
  } else {
    *out += fmt::format("    world size = max({}, {}, {}, 1) = {}\n", w.ws_rg,
                        w.ws_pairs, w.ws_expl, w.world_size);
  }
  if (!n.matches.empty()) {
    *out += n.topology_count == 0 ? "  the HLO against no topology\n"
                                  : "  topology[0] against the HLO\n";
    for (const TopologyMatch& m : n.matches) {
      *out += fmt::format("    {} {}: {}\n", Safe(m.module_file),
                          Safe(m.collective),
                          m.equal ? std::string("equal, bit for bit")
                                  : "differs: " + m.difference);
    }
  }
}

std::string PlaceText(const RankPlace& p, int64_t core, int64_t rank) {
  if (p.status == "member") {
    return fmt::format("group {} {}, position {}", p.group, p.group_text,
                       p.position);
  }
  if (p.status == "all") {
    return "no ranks listed (empty topology or empty flattened rank list): "
           "every core participates, in one group";
  }
  if (p.status == "mpmd") return "more than one topology (MPMD): not resolved";
  if (p.status == "unreadable") return "topology[0] has schema problems";
  return fmt::format("rank {} is in no group: core {} does not participate",
                     rank, core);
}

void RenderCore(const CoreExplanation& c, std::string* out) {
  *out += fmt::format("\nphysical core {} (lnc {}, from {})\n", c.core, c.lnc,
                      Safe(c.lnc_source));
  *out += fmt::format("  rank = core / lnc = {} / {} = {}\n", c.core, c.lnc,
                      c.rank);
  if (!c.core_in_range) {
    *out += fmt::format("  core {} is out of range: --num-cores is {}\n",
                        c.core, *c.num_cores);
  }
  for (const RankPlace& p : c.neffs) {
    *out +=
        fmt::format("  {}: {}\n", Safe(p.what), PlaceText(p, c.core, c.rank));
  }
  for (const CoreExplanation::ModulePlace& m : c.modules) {
    if (!m.in_device_space) {
      *out += fmt::format(
          "  {}: rank {} is out of range: outside the device space [0, {}), "
          "so core {} takes part in no collective\n",
          Safe(m.file), c.rank,
          m.devices.has_value() ? fmt::format("{}", *m.devices) : "?", c.core);
      continue;
    }
    *out += fmt::format("  {}: rank {} is device {} of [0, {})\n", Safe(m.file),
                        c.rank, c.rank, *m.devices);
    for (const RankPlace& p : m.collectives) {
      *out += fmt::format("    {}: {}\n", Safe(p.what),
                          PlaceText(p, c.core, c.rank));
    }
  }
  for (const CoreExplanation::ConfigPlace& cp : c.configs) {
    if (!cp.in_world) {
      *out += fmt::format("  {}: rank {} is outside the config's ranks\n",
                          Safe(cp.file), c.rank);
      continue;
    }
    *out += fmt::format("  {}: DP row {}, TP column {}\n", Safe(cp.file),
                        cp.row, cp.column);
    for (const RankPlace& p : cp.families) {
      *out += fmt::format("    {}: {}\n", Safe(p.what),
                          PlaceText(p, c.core, c.rank));
    }
  }
}

void RenderConfig(const ConfigExplanation& c, const Mark& marked,
                  std::string* out) {
  *out += fmt::format("\ncomponent config {} ({})\n", Safe(c.file), c.form);
  if (c.tp_recorded && c.dp_recorded) {
    *out += fmt::format("  TP = {}, DP = {}, world = {} = {}\n", c.tp, c.dp,
                        c.world, Safe(c.world_formula));
  } else {
    auto value = [](bool recorded, int64_t v) {
      return recorded ? fmt::format("{}", v) : std::string("not recorded");
    };
    *out += fmt::format("  TP = {}, DP = {}, world = not recorded ({})\n",
                        value(c.tp_recorded, c.tp), value(c.dp_recorded, c.dp),
                        Safe(c.world_formula));
  }
  for (const std::string& n : c.not_recorded) {
    *out += fmt::format("  {}\n", Safe(n));
  }
  if (!c.component_dp.empty()) {
    std::vector<std::string> sizes;
    for (const auto& [key, value] : c.component_dp) {
      sizes.push_back(fmt::format("{}={}", key, value));
    }
    *out +=
        fmt::format("  component DP sizes: {}\n", absl::StrJoin(sizes, ", "));
  }
  if (c.grid.has_value()) {
    *out += fmt::format("  rank grid {} x {} ({}):\n", c.grid->rows,
                        c.grid->columns, c.grid->id_formula);
    DrawGrid(
        *c.grid, [&](size_t i) { return fmt::format("{}", c.grid->id[i]); },
        marked, "    ", out);
  }
  if (!c.error.empty()) {
    *out += fmt::format("  groups not built: {}\n", Safe(c.error));
    return;
  }
  *out += "  group families:\n";
  for (const ConfigFamilyExplanation& f : c.families) {
    *out +=
        fmt::format("    {}\n      {}\n", Safe(f.name), GroupsLine(f.groups));
  }
}

// "unit DIR", and when another unit of the run has the same directory
// (`shared`: a compiler work directory holds one unit per module) the
// unit's files too, relative to DIR, so that the headers tell them apart.
std::string UnitHeader(const UnitExplanation& u, bool shared) {
  if (!shared || u.files.empty()) {
    return fmt::format("unit {}\n", Safe(u.directory));
  }
  const std::string prefix = u.directory + "/";
  std::vector<std::string> names;
  for (const std::string& f : u.files) {
    names.push_back(Safe(f.compare(0, prefix.size(), prefix) == 0
                             ? f.substr(prefix.size())
                             : f));
  }
  return fmt::format("unit {} ({})\n", Safe(u.directory),
                     absl::StrJoin(names, ", "));
}

}  // namespace

std::string RenderExplainText(const std::vector<UnitExplanation>& units) {
  std::map<std::string, int> per_directory;
  for (const UnitExplanation& u : units) ++per_directory[u.directory];
  std::string out;
  for (size_t i = 0; i < units.size(); ++i) {
    const UnitExplanation& u = units[i];
    if (i > 0) out += "\n";
    out += UnitHeader(u, per_directory[u.directory] > 1);
    Mark marked;
    if (u.core.has_value()) {
      marked.id = u.core->rank;
      marked.legend = fmt::format("rank {} = core {} / lnc {}", u.core->rank,
                                  u.core->core, u.core->lnc);
    }
    for (const ModuleExplanation& m : u.modules) RenderModule(m, marked, &out);
    for (const NeffExplanation& n : u.neffs) RenderNeff(n, &out);
    for (const ConfigExplanation& c : u.configs) {
      RenderConfig(c, marked, &out);
    }
    if (u.core.has_value()) RenderCore(*u.core, &out);
    if (u.modules.empty() && u.neffs.empty() && u.configs.empty()) {
      out += "  nothing to explain: no HLO module, def.json or config\n";
    }
  }
  return out;
}

}  // namespace topolint::explain
