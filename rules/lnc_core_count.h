// lnc-core-count: the Neuron runtime loads a NEFF that holds collectives
// (nrt_load_collectives) only on a world of Neuron cores its target's
// topology supports. On trn1 / trn1n it refuses every count but 1, 2, 8, 16
// and the multiples of 32 ("Unsupported topology", docs/rules/lnc-core-count.md
// for the sources). The world is the number of ranks the collectives span:
// when the unit has a NEFF, its world size or the ranks its replica_groups
// list, whichever is larger; else the module's device count. The target comes
// from the compiler's command line (`topolint exec`) or the compile_flags.json
// of a compile-cache entry; an unknown target, or one for which no public
// source states a rule (inf2, trn2, trn3), is not checked.
#ifndef TOPOLINT_RULES_LNC_CORE_COUNT_H_
#define TOPOLINT_RULES_LNC_CORE_COUNT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/diag/location.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/unit.h"
#include "rules/emitter.h"

namespace topolint {

// The runtime's rule for the core count of one family of targets.
struct CoreCountRule {
  std::string_view family;  // "trn1 / trn1n"
  // The runtime's own words, as it logs them.
  std::string_view runtime_message;
  bool (*supported)(int64_t cores);
  // The supported counts nearest to an unsupported `cores`, as a clause:
  // "16 or 32".
  std::string (*nearest)(int64_t cores);
};

// The rule for `target` (a `--target` value, compared without case), or
// null when no public source establishes one.
const CoreCountRule* CoreCountRuleFor(std::string_view target);

// trn1 / trn1n: 1, 2, 8, 16 or a multiple of 32.
bool Trn1SupportsCoreCount(int64_t cores);

// The target a unit is compiled for, and who says so.
struct TargetStatement {
  std::string target;  // as written ("trn1")
  // "--target=trn1 on the compiler's command line",
  // "--target=trn1 in compile_flags.json" (the note locates the file).
  std::string source;
  std::optional<Location> loc;  // the flag; none for a command line
};

// The first of: the compiler's --target given to `topolint exec`
// (CheckOptions::target), the --target of the unit's compile_flags.json,
// the `target` of an NxDI neuron_config (which NxDI passes to the compiler).
std::optional<TargetStatement> ResolveTarget(const Unit& unit,
                                             const CheckOptions& options);

// The unit-level state of the rule: the target and its rule, and the
// worlds of the unit's NEFFs (when there are any, the modules are not
// looked at: the NEFF is what the runtime loads). Made when the unit's NEFF
// side is loaded, before any module is parsed: the streaming runner ends
// module sessions before it calls CheckUnitParts. Not copyable or movable.
class CoreCountCheck {
 public:
  CoreCountCheck(TargetStatement target, const CoreCountRule& rule,
                 const Unit& unit, const CheckOptions& options);
  CoreCountCheck(const CoreCountCheck&) = delete;
  CoreCountCheck& operator=(const CoreCountCheck&) = delete;

  // Checks the world size of every NEFF of the unit (each loose def.json,
  // the first graph of each .neff that carries CCInfo, unless MPMD).
  void CheckNeffs(Emitter& emit) const;
  bool has_neff_world() const { return !neff_worlds_.empty(); }
  // Checks the world size each config section records (TP x DP, or
  // world_size / tp x pp x ep): called for a unit with no NEFF and no HLO
  // module, whose config is all there is.
  void CheckConfigs(const Unit& unit, Emitter& emit) const;

  // Reports `world` when the rule refuses it: "<subject> <world> ranks
  // (<how>), and the Neuron runtime refuses ...", at `loc`.
  void Check(int64_t world, const std::string& subject, const std::string& how,
             const Location& loc, const std::string& anchor,
             Emitter& emit) const;

  const CheckOptions& options() const { return options_; }

 private:
  struct NeffWorld {
    int64_t world = 0;
    std::string how;
    Location loc;
  };
  void AddNeffWorld(const neff::DefJson& d);

  TargetStatement target_;
  const CoreCountRule& rule_;
  const CheckOptions& options_;
  std::vector<NeffWorld> neff_worlds_;
};

// The per-module part: the device count of a module whose unit has no NEFF
// (the compiler's input, before it runs). Called by the lnc family's module
// session.
class LncCoreCount {
 public:
  void Op(const hlo::Module& module, const hlo::Collective& op);
  void End(const hlo::Module& module, const CoreCountCheck& check,
           Emitter& emit);

 private:
  int64_t collectives_ = 0;
  int64_t ids_listed_ = 0;  // 1 + the largest id a collective lists
  TextPos largest_at_;
};

}  // namespace topolint

#endif  // TOPOLINT_RULES_LNC_CORE_COUNT_H_
