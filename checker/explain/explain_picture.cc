// DrawUnit: the pictures of one unit, from its explanation.
#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "checker/explain/explain_picture.h"
#include "fmt/format.h"
#include "rules/xref_compare.h"

namespace topolint::explain {
namespace {

constexpr int64_t kPlainColumns = 16;

// (group, position) of each id in [0, n) in `groups`; (-1, -1) for an id in
// no group. The first occurrence wins (a repeated id is an hlo-* finding).
struct Place {
  int64_t group = -1;
  int64_t position = -1;
  bool operator!=(const Place& o) const {
    return group != o.group || position != o.position;
  }
};

std::vector<Place> PlacesOf(const model::GroupList& groups, int64_t n) {
  std::vector<Place> places(static_cast<size_t>(std::max<int64_t>(n, 0)));
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    absl::Span<const int64_t> ids = groups.group(g);
    for (size_t i = 0; i < ids.size(); ++i) {
      const int64_t id = ids[i];
      if (id < 0 || id >= n || places[id].group >= 0) continue;
      places[id] = {g, static_cast<int64_t>(i)};
    }
  }
  return places;
}

std::string PlaceText(const model::GroupList& groups, const Place& p) {
  if (p.group < 0) return "in no group";
  return fmt::format("group {} {}, position {}", p.group,
                     groups.GroupToString(p.group, 16), p.position);
}

// An empty picture shaped like `grid` (its ids), or rows of 16 over
// [0, n) when there is no grid.
Picture Layout(const Grid* grid, int64_t n) {
  Picture p;
  if (grid != nullptr) {
    p.rows = grid->rows;
    p.columns = grid->columns;
    p.row_axis = grid->row_axis;
    p.column_axis = grid->column_axis;
    p.cells.resize(grid->id.size());
    for (size_t i = 0; i < grid->id.size(); ++i) p.cells[i].id = grid->id[i];
    return p;
  }
  p.columns = std::max<int64_t>(std::min(n, kPlainColumns), 1);
  p.rows = std::max<int64_t>((n + p.columns - 1) / p.columns, 1);
  p.row_axis = "row";
  p.column_axis = "column";
  p.cells.resize(static_cast<size_t>(p.rows * p.columns));
  for (int64_t i = 0; i < n; ++i) p.cells[i].id = i;
  return p;
}

// Colours `p`'s cells by `groups` (ids are the cells' ids).
void Paint(const model::GroupList& groups, const char* what,
           const std::optional<int64_t>& marked, Picture* p) {
  int64_t n = 0;
  for (const PictureCell& c : p->cells) n = std::max(n, c.id + 1);
  const std::vector<Place> places = PlacesOf(groups, n);
  p->num_groups = groups.num_groups();
  for (PictureCell& c : p->cells) {
    if (c.id < 0) continue;
    const Place& pl = places[c.id];
    c.group = pl.group;
    c.position = pl.position;
    c.group_size =
        pl.group >= 0 ? static_cast<int64_t>(groups.group(pl.group).size()) : 0;
    c.label = pl.group >= 0 ? std::to_string(pl.group) : ".";
    c.title = fmt::format("{} {}: {}", what, c.id, PlaceText(groups, pl));
    c.marked = marked.has_value() && *marked == c.id;
  }
}

int64_t MaxIdPlusOne(const model::GroupList& g) {
  int64_t n = 0;
  for (int64_t id : g.ids()) n = std::max(n, id + 1);
  return n;
}

// topology[0] of `n` beside the list drawn from `op`, on the same layout when
// the op's ids are device ids, with the cells whose group or position
// differs from the op's groups marked.
Picture NeffBeside(const NeffExplanation& n, const CollectiveExplanation& op,
                   const std::optional<int64_t>& marked,
                   const std::string& id) {
  const model::GroupList& topo = n.topologies[0];
  const model::GroupList& hlo = *op.groups;
  const int64_t count = std::max(MaxIdPlusOne(topo), MaxIdPlusOne(hlo));
  const bool same_layout = !op.device_groups.has_value() &&
                           op.grid.has_value() &&
                           count <= op.grid->rows * op.grid->columns;
  Picture p =
      Layout(same_layout ? &*op.grid : nullptr, std::min(count, kMaxGridCells));
  p.id = id;
  p.file = n.file;
  p.caption = fmt::format("topology[0] of {}", n.file);
  Paint(topo, "rank", marked, &p);
  const std::vector<Place> hlo_places = PlacesOf(hlo, count);
  const std::vector<Place> topo_places = PlacesOf(topo, count);
  for (PictureCell& c : p.cells) {
    if (c.id < 0 || c.id >= count) continue;
    if (hlo_places[c.id] != topo_places[c.id]) {
      c.mismatch = true;
      p.has_mismatch = true;
      c.title += fmt::format("; the HLO ({}) has it in {}", op.name,
                             PlaceText(hlo, hlo_places[c.id]));
    }
  }
  return p;
}

bool SingleTopology(const NeffExplanation& n) {
  return n.mpmd.empty() && n.topologies.size() == 1 &&
         n.topology_index[0] == 0 && n.topologies[0].num_ids() > 0 &&
         MaxIdPlusOne(n.topologies[0]) <= kMaxGridCells;
}

std::string Verdict(const NeffExplanation& n, const std::string& module_file,
                    const std::string& op) {
  for (const TopologyMatch& m : n.matches) {
    if (m.module_file != module_file || m.collective != op) continue;
    return m.equal ? fmt::format("{}: equal, bit for bit", n.file)
                   : fmt::format("{}: differs: {}", n.file, m.difference);
  }
  return fmt::format("{}: not compared", n.file);
}

std::optional<int64_t> CoreRank(const UnitExplanation& u) {
  if (!u.core.has_value()) return std::nullopt;
  return u.core->rank;
}

// How many cells `p` draws (those past the end of the last row are not).
int64_t CellsOf(const Picture& p) {
  int64_t n = 0;
  for (const PictureCell& c : p.cells) n += c.id >= 0 ? 1 : 0;
  return n;
}

// The cells left in the budget, and the lines naming what was not drawn.
class Budget {
 public:
  Budget(const DrawBudget& budget, UnitPictures* out)
      : left_(budget.cells), pictures_left_(budget.pictures), out_(out) {}

  bool Fits(int64_t cells, int64_t pictures) const {
    return cells <= left_ && pictures <= pictures_left_;
  }
  // Takes `cells` in `pictures` pictures from the budget when they fit.
  bool Take(int64_t cells, int64_t pictures = 1) {
    if (!Fits(cells, pictures)) return false;
    left_ -= cells;
    pictures_left_ -= pictures;
    out_->cells_drawn += cells;
    out_->pictures_drawn += pictures;
    return true;
  }
  void Undrawn(std::string line) {
    if (out_->undrawn.size() < kMaxUndrawnListed) {
      out_->undrawn.push_back(std::move(line));
    } else {
      ++out_->undrawn_more;
    }
  }
  std::string OverBudget() const {
    return fmt::format("over the drawing budget of {}", out_->budget_name);
  }
  // Takes a picture other than a list's (a NEFF alone, a config family,
  // the LNC map) of `cells` cells; when it does not fit, counts it and
  // names it (`what`) among the pictures not drawn.
  bool TakeOther(int64_t cells, const std::string& what) {
    if (Take(cells)) return true;
    ++out_->other_pictures_over_budget;
    Undrawn(fmt::format("{}: {}", what, OverBudget()));
    return false;
  }

 private:
  int64_t left_;
  int64_t pictures_left_;
  UnitPictures* out_;
};

// Issue 47 §5 draws the rank order in these pictures and reshapes this
// function with it.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
void DrawModules(const UnitExplanation& u, const std::string& prefix,
                 UnitPictures* out, std::vector<bool>* neff_drawn,
                 Budget* budget) {
  const std::optional<int64_t> marked = CoreRank(u);
  constexpr size_t kNotDrawn = static_cast<size_t>(-1);
  for (const ModuleExplanation& m : u.modules) {
    // Each list's block, or kNotDrawn for a list over the budget.
    absl::flat_hash_map<std::string, size_t> block_of;
    for (const CollectiveExplanation& c : m.collectives) {
      if (!c.same_groups_as.empty()) {
        auto it = block_of.find(c.same_groups_as);
        if (it != block_of.end()) {
          ++out->collectives_total;
          if (it->second != kNotDrawn) {
            out->lists[it->second].ops.push_back(c.name);
            ++out->collectives_drawn;
          }
          block_of[c.name] = it->second;
          continue;
        }
      }
      if (!c.grid.has_value() || !c.groups.has_value()) {
        std::string why = c.form == "pairs" ? "source-target pairs"
                          : !c.groups_error.empty()
                              ? c.groups_error
                              : "no device grid (the device count is "
                                "unknown or above the drawing limit)";
        budget->Undrawn(
            fmt::format("{} {} ({}): {}", m.file, c.name, c.opcode, why));
        continue;
      }
      ++out->lists_total;
      ++out->collectives_total;
      const model::GroupList& dev =
          c.device_groups.has_value() ? *c.device_groups : *c.groups;
      // The op's grid and topology[0] of each NEFF beside it are drawn
      // together or not at all; the grid alone decides before anything is
      // built.
      ListBlock b;
      b.id = fmt::format("{}-l{}", prefix, out->lists.size());
      bool fits = budget->Fits(c.grid->rows * c.grid->columns, 1);
      if (fits) {
        b.hlo = Layout(&*c.grid, 0);
        for (size_t k = 0; k < u.neffs.size(); ++k) {
          const NeffExplanation& n = u.neffs[k];
          if (!SingleTopology(n)) continue;
          b.neff.push_back(
              NeffBeside(n, c, marked, fmt::format("{}-n{}", b.id, k)));
        }
        int64_t cells = CellsOf(b.hlo);
        for (const Picture& p : b.neff) cells += CellsOf(p);
        fits = budget->Take(cells, 1 + static_cast<int64_t>(b.neff.size()));
      }
      if (!fits) {
        budget->Undrawn(fmt::format("{} {} ({}): {}: {}", m.file, c.name,
                                    c.opcode, xref::DescribeShape(dev),
                                    budget->OverBudget()));
        block_of[c.name] = kNotDrawn;
        continue;
      }
      ++out->collectives_drawn;
      b.module_file = m.file;
      b.ops.push_back(c.name);
      b.groups_text =
          fmt::format("{}: {}", dev.ToString(64), xref::DescribeShape(dev));
      b.mode = fmt::format("{} ({})", c.mode, c.mode_reason);
      if (!c.iota.empty()) b.mode += fmt::format("; iota {}", c.iota);
      if (c.placement.has_value()) b.placement = c.placement->text;
      b.hlo.id = b.id + "-hlo";
      b.hlo.file = m.file;
      b.hlo.caption =
          fmt::format("{} device grid ({})", c.name, c.grid->id_formula);
      Paint(dev, "device", marked, &b.hlo);
      for (size_t k = 0; k < u.neffs.size(); ++k) {
        const NeffExplanation& n = u.neffs[k];
        if (!SingleTopology(n)) continue;
        b.neff_verdicts.push_back(Verdict(n, m.file, c.name));
        (*neff_drawn)[k] = true;
      }
      block_of[c.name] = out->lists.size();
      out->lists.push_back(std::move(b));
    }
  }
}

void DrawConfigs(const UnitExplanation& u, const std::string& prefix,
                 UnitPictures* out, Budget* budget) {
  const std::optional<int64_t> marked = CoreRank(u);
  for (size_t i = 0; i < u.configs.size(); ++i) {
    const ConfigExplanation& c = u.configs[i];
    ConfigBlock b;
    b.id = fmt::format("{}-c{}", prefix, i);
    b.file = c.file;
    b.facts.push_back(fmt::format("{}: TP = {}, DP = {}, world = {} = {}",
                                  c.form, c.tp, c.dp, c.world,
                                  c.world_formula));
    std::vector<std::string> dp;
    for (const auto& [key, value] : c.component_dp) {
      dp.push_back(fmt::format("{}={}", key, value));
    }
    if (!dp.empty()) {
      b.facts.push_back(
          fmt::format("component DP sizes: {}", absl::StrJoin(dp, ", ")));
    }
    if (!c.error.empty()) b.facts.push_back(c.error);
    for (size_t f = 0; c.grid.has_value() && f < c.families.size(); ++f) {
      if (!budget->TakeOther(
              c.grid->rows * c.grid->columns,
              fmt::format("{}: {}", c.file, c.families[f].name))) {
        continue;
      }
      Picture p = Layout(&*c.grid, 0);
      p.id = fmt::format("{}-f{}", b.id, f);
      p.caption = c.families[f].name;
      Paint(c.families[f].groups, "rank", marked, &p);
      b.families.push_back(std::move(p));
    }
    out->configs.push_back(std::move(b));
  }
}

// The core -> rank map, when an LNC is given or found: each rank's cell
// names its physical cores.
void DrawLncMap(const UnitExplanation& u, const std::string& prefix,
                UnitPictures* out, Budget* budget) {
  if (u.lnc <= 1 && (u.lnc_source.empty() || u.lnc_source == "the default")) {
    return;
  }
  int64_t ranks = 0;
  const Grid* layout = nullptr;
  for (const ModuleExplanation& m : u.modules) {
    if (m.devices.has_value()) ranks = std::max(ranks, *m.devices);
  }
  for (const NeffExplanation& n : u.neffs) {
    ranks = std::max(ranks, n.world.world_size);
  }
  for (const ConfigExplanation& c : u.configs) {
    ranks = std::max(ranks, c.world);
  }
  if (ranks < 1 || ranks > kMaxGridCells) return;
  for (const ModuleExplanation& m : u.modules) {
    for (const CollectiveExplanation& c : m.collectives) {
      if (c.grid.has_value() && c.grid->rows * c.grid->columns == ranks &&
          layout == nullptr) {
        layout = &*c.grid;
      }
    }
  }
  Picture p = Layout(layout, ranks);
  if (!budget->TakeOther(
          CellsOf(p),
          fmt::format("the physical core -> rank map (lnc {})", u.lnc))) {
    return;
  }
  p.id = prefix + "-lnc";
  p.legend_none = false;
  p.caption = fmt::format(
      "physical core -> rank (lnc {}, from {}): rank = "
      "core / {}",
      u.lnc, u.lnc_source, u.lnc);
  const std::optional<int64_t> marked = CoreRank(u);
  for (PictureCell& c : p.cells) {
    if (c.id < 0) continue;
    c.label = std::to_string(c.id);
    c.title = u.lnc == 1 ? fmt::format("rank {} = physical core {}", c.id, c.id)
                         : fmt::format("rank {} = physical cores {}..{}", c.id,
                                       c.id * u.lnc, c.id * u.lnc + u.lnc - 1);
    c.marked = marked.has_value() && *marked == c.id;
  }
  out->lnc_map = std::move(p);
}

}  // namespace

UnitPictures DrawUnit(const UnitExplanation& unit, const std::string& id_prefix,
                      const DrawBudget& draw_budget) {
  UnitPictures out;
  out.budget_name =
      !draw_budget.name.empty()
          ? draw_budget.name
          : fmt::format("{} cells and {} pictures per unit",
                        kMaxDrawnCellsPerUnit, kMaxDrawnPicturesPerUnit);
  Budget budget(draw_budget, &out);
  std::vector<bool> neff_drawn(unit.neffs.size(), false);
  DrawModules(unit, id_prefix, &out, &neff_drawn, &budget);
  for (size_t k = 0; k < unit.neffs.size(); ++k) {
    const NeffExplanation& n = unit.neffs[k];
    if (neff_drawn[k] || !SingleTopology(n)) continue;
    Picture p = Layout(nullptr, MaxIdPlusOne(n.topologies[0]));
    if (!budget.TakeOther(CellsOf(p),
                          fmt::format("topology[0] of {}", n.file))) {
      continue;
    }
    p.id = fmt::format("{}-n{}", id_prefix, k);
    p.file = n.file;
    p.caption = fmt::format("topology[0] of {}", n.file);
    Paint(n.topologies[0], "rank", CoreRank(unit), &p);
    out.neff_alone.push_back(std::move(p));
  }
  DrawConfigs(unit, id_prefix, &out, &budget);
  DrawLncMap(unit, id_prefix, &out, &budget);
  return out;
}

std::string BudgetSummary(const UnitPictures& pics) {
  const size_t lists_left = pics.lists_total - pics.lists.size();
  if (lists_left == 0 && pics.other_pictures_over_budget == 0) return "";
  std::vector<std::string> parts;
  if (pics.lists_total > 0) {
    parts.push_back(fmt::format(
        "{} of {} device group list{} drawn ({} of {} collectives)",
        pics.lists.size(), pics.lists_total, pics.lists_total == 1 ? "" : "s",
        pics.collectives_drawn, pics.collectives_total));
  }
  if (lists_left > 0) parts.push_back(fmt::format("{} not drawn", lists_left));
  if (pics.other_pictures_over_budget > 0) {
    parts.push_back(fmt::format(
        "{} other picture{} not drawn", pics.other_pictures_over_budget,
        pics.other_pictures_over_budget == 1 ? "" : "s"));
  }
  return fmt::format(
      "{} (over the drawing budget of {}): run `topolint explain --format "
      "text` or `--format json` for all of them",
      absl::StrJoin(parts, "; "), pics.budget_name);
}

}  // namespace topolint::explain
