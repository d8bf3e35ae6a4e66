// Building blocks of ExplainUnit, one file each. Internal to checker/explain.
#ifndef TOPOLINT_CHECKER_EXPLAIN_EXPLAIN_INTERNAL_H_
#define TOPOLINT_CHECKER_EXPLAIN_EXPLAIN_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/config/parallel_config.h"
#include "checker/explain/explain.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/mesh_placement.h"
#include "checker/model/module_params.h"

namespace topolint::explain {

// explain_iota.cc: an iota form `[G,S]<=[N]` or `[G,S]<=[a,b]T(1,0)` that
// expands to `groups`, or "" (non-uniform lists, lists above kMaxListedIds
// ids, and lists no such form describes).
std::string FindIotaForm(const model::GroupList& groups);
// `[4,2]<=[2,4]T(1,0)` as written.
std::string IotaText(const hlo::IotaSpec& iota);

// explain_grid.cc: the device grid of an op's device groups over
// `devices` devices (nullopt above kMaxGridCells). Rows x columns follow
// the op's iota reshape or mesh axes when it has two and its ids are device
// ids, else replicas x partitions, else rows of up to 16.
std::optional<Grid> DeviceGrid(const hlo::Collective& op,
                               const model::GroupList& device_groups,
                               bool ids_are_devices,
                               const model::ModuleParams& params,
                               int64_t devices);
// The DP x TP grid of ranks of a config (cell group = -1).
std::optional<Grid> RankGrid(int64_t dp, int64_t tp);

// explain_placement.cc: the module's meshes of `devices` devices, each
// laid out once, and where a collective's device groups sit on them.
class MeshPlacer {
 public:
  MeshPlacer(const hlo::Module& module, std::optional<int64_t> devices);
  // Every mesh the module records, described, in the order tried.
  const std::vector<std::string>& descriptions() const { return descriptions_; }
  // The first mesh whose axes give `device_groups`, else a note against
  // the first mesh; nothing when no mesh has the module's device count.
  std::optional<PlacementExplanation> Place(
      const model::GroupList& device_groups) const;

 private:
  struct Entry {
    std::string mesh;
    std::string source;
    model::MeshLayout layout;
  };
  std::vector<Entry> entries_;
  std::vector<std::string> descriptions_;
};

// explain_hlo.cc
ModuleExplanation ExplainModule(const hlo::Module& module,
                                const CheckOptions& check);

// explain_neff.cc
NeffExplanation ExplainNeff(const neff::DefJson& def,
                            const std::vector<hlo::Module>& modules,
                            const CheckOptions& check);

// explain_config.cc
// `check` supplies a data-parallel size given to topolint
// (config::WithDataParallelSize).
ConfigExplanation ExplainConfig(const config::ParallelConfig& as_read,
                                const CheckOptions& check);

// explain.cc: where `rank` sits in `groups` (status "member" or "absent").
RankPlace PlaceRank(const model::GroupList& groups, int64_t rank,
                    std::string what);

}  // namespace topolint::explain

#endif  // TOPOLINT_CHECKER_EXPLAIN_EXPLAIN_INTERNAL_H_
