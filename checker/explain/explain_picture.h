// What `explain --format html|svg` draws, built from the explanation model
// (explain.h): one picture per distinct device group list of a module with
// topology[0] of each NEFF beside it, one per config group family, and the
// LNC core -> rank map. Nothing here derives groups: the pictures index the
// lists the model holds. Internal to checker/explain.
#ifndef TOPOLINT_CHECKER_EXPLAIN_EXPLAIN_PICTURE_H_
#define TOPOLINT_CHECKER_EXPLAIN_EXPLAIN_PICTURE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/explain/explain.h"

namespace topolint::explain {

struct PictureCell {
  int64_t id = -1;        // device or rank; -1: past the end of the last row
  int64_t group = -1;     // -1: in no group
  bool mismatch = false;  // differs from the HLO (NEFF pictures)
  bool marked = false;    // the rank of --core
  // The id's place in its group (0-based) and the group's size, drawn in
  // the cell so that two lists holding the same groups in another order
  // look different; -1 / 0 where the place means nothing (no group, the
  // LNC map).
  int64_t position = -1;
  int64_t group_size = 0;
  std::string label;  // short text drawn in the cell (when it fits)
  std::string title;  // hover text (always)
};

// A grid of cells, row-major.
struct Picture {
  std::string id;    // element id in the page ("u0-l1-hlo")
  std::string file;  // the file drawn (a module, def.json or config)
  std::string caption;
  int64_t rows = 0;
  int64_t columns = 0;
  std::string row_axis;
  std::string column_axis;
  std::vector<PictureCell> cells;  // rows * columns
  int64_t num_groups = 0;          // for the legend
  std::string mismatch_href;       // mismatching cells link here ("" none)
  bool has_mismatch = false;
  bool legend_none = true;  // "in no group" in the legend when it applies
};

// One distinct device group list of a module: the ops that use it, its
// grid, and topology[0] of each NEFF of the unit beside it.
struct ListBlock {
  std::string id;  // "u0-l1"
  std::string module_file;
  std::vector<std::string> ops;  // in module order
  std::string groups_text;       // "{{0,4},...}: 4 groups of 2"
  std::string mode;              // "flattened_id (channel_id=1, ...)"
  // "groups run along axis `y` of mesh @mesh x=2, y=4 (...)", or "".
  std::string placement;
  Picture hlo;
  std::vector<Picture> neff;
  std::vector<std::string> neff_verdicts;  // per NEFF: "equal, bit for bit"
};

struct ConfigBlock {
  std::string id;  // "u0-c0"
  std::string file;
  std::vector<std::string> facts;  // "TP = 4, DP = 2, world = 8 = ..."
  std::vector<Picture> families;
};

// Cells drawn at most, per unit and per HTML page. A drawn cell costs about
// 250 bytes of SVG (a <rect> with its hover title), so a unit's pictures
// stay under ~2 MiB and a page's under ~4 MiB, whatever the module: 60
// distinct lists over 4,096 devices no longer make a 60 MiB page. What the
// budget leaves out is named in the page; `explain --format text|json`
// shows everything.
inline constexpr int64_t kMaxDrawnCellsPerUnit = 8192;
inline constexpr int64_t kMaxDrawnCellsPerPage = 16384;
// Pictures drawn at most, per unit and per page: each costs about 2 KiB
// besides its cells (frame, caption, legend), which many small pictures
// (a module of thousands of lists over 8 devices) would add up.
inline constexpr int64_t kMaxDrawnPicturesPerUnit = 256;
inline constexpr int64_t kMaxDrawnPicturesPerPage = 512;
// Lines naming what was not drawn, at most, per unit; then a count.
inline constexpr size_t kMaxUndrawnListed = 50;

// What DrawUnit may draw: `cells` grid cells and `pictures` pictures in
// all (a picture is drawn whole or not at all, in page order: the lists,
// each with topology[0] of the NEFFs beside it, then topology[0] of NEFFs
// drawn beside none, the config families, the LNC map), and the budget's
// name for the page ("": "8192 cells and 256 pictures per unit").
struct DrawBudget {
  int64_t cells = kMaxDrawnCellsPerUnit;
  int64_t pictures = kMaxDrawnPicturesPerUnit;
  std::string name;
};

struct UnitPictures {
  std::vector<ListBlock> lists;
  // Collectives drawn in no list: "%cp (collective-permute): pairs ...";
  // the first kMaxUndrawnListed, then `undrawn_more` is how many others.
  std::vector<std::string> undrawn;
  size_t undrawn_more = 0;
  // topology[0] of NEFFs no drawn list was compared with.
  std::vector<Picture> neff_alone;
  std::vector<ConfigBlock> configs;
  std::optional<Picture> lnc_map;
  // The budget: cells drawn; device group lists (each with the
  // collectives using it) with a grid, and those drawn; other pictures
  // (NEFF, config family, LNC map) left out for the budget.
  int64_t cells_drawn = 0;
  int64_t pictures_drawn = 0;
  size_t lists_total = 0;
  size_t collectives_total = 0;  // in lists with a grid
  size_t collectives_drawn = 0;
  size_t other_pictures_over_budget = 0;
  std::string budget_name;
};

// The pictures of `unit` within `budget`; element ids start with
// `id_prefix` ("u0"). Pictures over the budget are not built at all.
UnitPictures DrawUnit(const UnitExplanation& unit, const std::string& id_prefix,
                      const DrawBudget& budget);

// "" when DrawUnit drew everything it could; else one sentence saying how
// much was drawn, what the budget left out and where to see all of it:
// "12 of 60 device group lists drawn (12 of 60 collectives); 48 not drawn
// (over the drawing budget of 8192 cells per unit): ...".
std::string BudgetSummary(const UnitPictures& pics);

// One picture as an <svg class="grid"> element (legend included), at most
// a few hundred bytes per cell. Mismatching cells link to
// `mismatch_href` when it is set.
struct SvgBox {
  std::string svg;
  int64_t width = 0;
  int64_t height = 0;
};
SvgBox PictureSvg(const Picture& p);

// The fill colour of group `g` ("#rrggbb"; a neutral grey for -1).
std::string GroupColour(int64_t g);

}  // namespace topolint::explain

#endif  // TOPOLINT_CHECKER_EXPLAIN_EXPLAIN_PICTURE_H_
