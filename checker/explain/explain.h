// `topolint explain`: the rank model of one unit, for a person (text) or a
// compiler driver (JSON). What it shows is computed by the same model
// functions the rules use (checker/model, rules/xref_compare.h); nothing here
// re-derives groups, modes or world sizes.
//
//   ExplainUnit     Unit -> UnitExplanation (plain data, bounded in size)
//   RenderExplainText / RenderExplainJson
//                   explanations -> the text or the JSON document
//   RenderExplainHtml / RenderExplainSvg (explain_html.cc, explain_svg.cc)
//                   explanations and the units' findings -> a picture
//
// Pure functions; thread-compatible.
#ifndef TOPOLINT_CHECKER_EXPLAIN_EXPLAIN_H_
#define TOPOLINT_CHECKER_EXPLAIN_EXPLAIN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/diag/finding.h"
#include "checker/model/group_list.h"
#include "checker/model/unit.h"
#include "checker/model/world_size.h"

namespace topolint::explain {

// Device grids (and group lists printed in full) are drawn only up to this
// many cells / ids; larger ones are summarised.
inline constexpr int64_t kMaxGridCells = 4096;
inline constexpr int64_t kMaxListedIds = 65536;

struct ExplainSettings {
  CheckOptions check;           // lnc, num_cores, replica_count, ...
  std::optional<int64_t> core;  // --core: a physical core to resolve
};

// A table of devices or ranks: cell (r, c) is `id[r * columns + c]` (-1 past
// the end of a partial last row), in group `group[...]` (-1: in none).
struct Grid {
  int64_t rows = 0;
  int64_t columns = 0;
  std::string row_axis;     // "data", "replica", "row", "DP"
  std::string column_axis;  // "model", "partition", "column", "TP"
  std::string id_formula;   // "device = 4 * row + column"
  std::vector<int64_t> id;
  std::vector<int64_t> group;
};

// Which axes of a mesh the module records a collective's device groups run
// along (model::MeshLayout).
struct PlacementExplanation {
  std::string mesh;         // "@mesh x=2, y=4", "x=2, y=4", "d0=2, d1=4"
  std::string mesh_source;  // "sdy.mesh at line 6", "named sharding at ..."
  bool matched = false;     // false: no combination of the axes gives them
  // The axes, outermost first when `ordered` (else in the mesh's order);
  // empty when each group is one device.
  std::vector<std::string> axes;
  bool ordered = false;
  std::string text;  // the sentence explain prints
};

struct CollectiveExplanation {
  std::string name;          // "%ar"
  std::string opcode;        // as written
  int64_t line = 0;          // 0 for binary modules
  int64_t byte_offset = -1;  // binary modules: the instruction's offset
  std::string mode;          // model::ModeName
  std::string mode_reason;   // "channel_id=1, use_global_device_ids=true"
  // "explicit", "iota", "mesh", "empty" ({}), "absent", or "pairs" for
  // collective-permute / send / recv.
  std::string form;
  std::string written;                     // the value as written
  std::optional<model::GroupList> groups;  // as written, after expansion
  std::string groups_error;                // why `groups` is missing
  std::string iota;              // an iota form of `groups`, "" if none
  bool iota_as_written = false;  // written so (else an equivalent form)
  // Groups of global device ids (model::FlattenedIdGroupsOf), when they
  // differ from `groups`; and the device grid drawn from them.
  std::optional<model::GroupList> device_groups;
  std::optional<Grid> grid;
  std::string same_groups_as;  // an earlier op with the same device groups
  bool has_pairs = false;
  std::vector<std::pair<int64_t, int64_t>> pairs;
  // Where the device groups sit on the module's meshes (the first that
  // matches, else the first of the module's device count); none when the
  // module records no mesh of that many devices.
  std::optional<PlacementExplanation> placement;
};

struct ModuleExplanation {
  std::string file;
  std::string name;
  std::string format = "HLO";  // "StableHLO" for a .mlir module
  // The input format the module was read from, as the JSON's "format"
  // names it: "hlo-text", "hlo-proto" (a binary HloModuleProto, HloProto,
  // HloSnapshot or HloModuleProtoWithConfig, gzipped or not) or
  // "stablehlo" (StableHLO / MHLO / Shardy text).
  std::string input_format = "hlo-text";
  int64_t replica_count = 1;
  std::string replica_count_source;  // "header", "--replica-count", "default"
  int64_t num_partitions = 1;
  std::string num_partitions_source;
  // How text and HTML name a source (the JSON keeps the *_source above, the
  // same for every front end): the *_source, but a StableHLO module's
  // counts are "mhlo.num_partitions at line 1", not "header".
  std::string replica_count_label;
  std::string num_partitions_label;
  std::optional<int64_t> devices;  // R * P (nullopt on overflow)
  // False when neither the header nor an option gives R or P (torch_xla
  // dumps never print them): then `devices` is the number of ids the
  // collectives list (XLA's fallback: ids 0..n-1), and `derived` holds what
  // the unit's other files say about the device count.
  bool counts_recorded = true;
  int64_t ids_listed = 0;  // 1 + the largest id any collective lists
  std::vector<std::string> derived;
  // The device meshes the module records: "@mesh x=2, y=4 (sdy.mesh at
  // line 6)", in the order the placements try them.
  std::vector<std::string> meshes;
  int64_t syntax_errors = 0;
  std::vector<CollectiveExplanation> collectives;
};

// How topology[0] compares with one collective (xref-topology-mismatch).
struct TopologyMatch {
  std::string module_file;
  std::string collective;
  bool equal = false;
  std::string difference;  // "" when equal
};

struct NeffExplanation {
  std::string file;
  bool has_cc_info = false;
  int64_t topology_count = 0;
  std::vector<model::GroupList> topologies;  // kept topologies, in order
  std::vector<int64_t> topology_index;       // their document index
  std::string shape;  // "[1][4][2]"; "[2][4|2][2]" when topologies differ
  std::vector<std::optional<int64_t>> shape_dims;  // nullopt where they differ
  std::vector<std::pair<int64_t, int64_t>> pairs;
  bool has_explicit_world_size = false;
  model::WorldSize world;
  std::vector<std::string> mpmd;  // the reader's refusals, verbatim
  int64_t schema_problems = 0;
  std::vector<TopologyMatch> matches;
};

struct ConfigFamilyExplanation {
  std::string name;  // GroupFamily::DisplayName()
  model::GroupList groups;
};

struct ConfigExplanation {
  std::string file;
  std::string form;  // "vLLM-on-Neuron" / "NxD Inference"
  int64_t tp = 1;
  int64_t dp = 1;
  int64_t world = 1;
  std::string world_formula;
  std::vector<std::pair<std::string, int64_t>> component_dp;  // key, value
  std::optional<Grid> grid;  // DP rows x TP columns of ranks
  std::vector<ConfigFamilyExplanation> families;
  std::string error;  // when the families cannot be built
  // vLLM form: false when the file does not record TP / DP (an
  // `--additional-config` JSON alone); then `tp` / `dp` are 0, `world` is 0
  // and no families are built.
  bool tp_recorded = true;
  bool dp_recorded = true;
  // What topolint could not see in this file and so did not check, one
  // sentence each, with how to give it.
  std::vector<std::string> not_recorded;
};

// Where a rank sits in one group list.
struct RankPlace {
  std::string what;  // "topology[0] of def.json", "%ar"
  // "member", "absent" (the rank is in no group), "all" (no topology: every
  // rank participates), "mpmd" (no single topology to look in)
  std::string status;
  int64_t group = -1;
  int64_t position = -1;
  std::string group_text;            // "{0,4}" (cut when long)
  std::vector<int64_t> group_ranks;  // the whole group
};

struct CoreExplanation {
  int64_t core = 0;
  int64_t lnc = 1;
  // Where lnc comes from (docs/reference/rank-model.md §3): "--lnc",
  // ".topolint.json", "the header lnc_size of model.neff", ..., "the default".
  std::string lnc_source;
  int64_t rank = 0;
  std::optional<int64_t> num_cores;
  bool core_in_range = true;  // core < num_cores (when given)
  // Per module: whether the rank is a device of it, then per collective.
  struct ModulePlace {
    std::string file;
    std::optional<int64_t> devices;
    bool in_device_space = false;
    std::vector<RankPlace> collectives;
  };
  std::vector<RankPlace> neffs;
  std::vector<ModulePlace> modules;
  // Per config: the rank's DP row and TP column, and its group per family.
  struct ConfigPlace {
    std::string file;
    bool in_world = false;
    int64_t row = -1;
    int64_t column = -1;
    std::vector<RankPlace> families;
  };
  std::vector<ConfigPlace> configs;
};

struct UnitExplanation {
  std::string directory;
  // The unit's input files (display names), in load order: several units
  // can share a directory (a compiler work directory holds one per module).
  std::vector<std::string> files;
  std::vector<ModuleExplanation> modules;
  std::vector<NeffExplanation> neffs;
  std::vector<ConfigExplanation> configs;
  std::optional<CoreExplanation> core;
  // numCoresPerLNC and where it comes from (as CoreExplanation says), for
  // the core -> rank map of the HTML page. Not in the text or JSON output.
  int64_t lnc = 1;
  std::string lnc_source;
};

UnitExplanation ExplainUnit(const Unit& unit, const ExplainSettings& settings);

// For a person: sections per module, NEFF, config and core, with tables.
std::string RenderExplainText(const std::vector<UnitExplanation>& units);
// One JSON document {"units": [...]} with the same content.
std::string RenderExplainJson(const std::vector<UnitExplanation>& units);

// One self-contained HTML page (inline SVG and CSS, no network; a few lines
// of optional script for hover highlighting) drawing each unit's device
// grids, topology[0] beside them, the config's group families and the LNC
// core -> rank map, with `findings[i]` (unit i's findings, as `check`
// reports them) linked to the pictures they concern. All text from the
// inputs is escaped.
std::string RenderExplainHtml(
    const std::vector<UnitExplanation>& units,
    const std::vector<std::vector<Finding>>& findings);
// The same pictures of one unit as one standalone SVG document.
std::string RenderExplainSvg(const UnitExplanation& unit,
                             const std::vector<Finding>& findings);

}  // namespace topolint::explain

#endif  // TOPOLINT_CHECKER_EXPLAIN_EXPLAIN_H_
