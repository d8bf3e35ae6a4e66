// Hand-built HLO modules for the hlo-* rule tests, and a runner that returns
// CheckHlo's findings.
#ifndef TOPOLINT_TESTS_HLO_RULES_HLO_TEST_UTIL_H_
#define TOPOLINT_TESTS_HLO_RULES_HLO_TEST_UTIL_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/diag/finding.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/unit.h"
#include "rules/emitter.h"
#include "rules/families.h"
#include "tests/common/finding_print.h"
#include "tests/common/shape_builders.h"

namespace topolint::testing_hlo {

// Synthetic positions: op number n (1-based) sits on line n; its opcode at
// column 20, replica_groups at column 50, explicit group g at column
// 100 + 20*g and id k of that group at 101 + 20*g + 2*k.
inline constexpr int64_t kOpcodeCol = 20;
inline constexpr int64_t kGroupsCol = 50;
inline int64_t GroupCol(int64_t g) { return 100 + 20 * g; }
inline int64_t IdCol(int64_t g, int64_t k) { return 101 + 20 * g + 2 * k; }

inline hlo::Shape Array(std::vector<int64_t> dims) {
  return testing::ArrayShape("f32", std::move(dims));
}

inline hlo::Shape Tuple(std::vector<hlo::Shape> elements) {
  return testing::TupleShape(std::move(elements));
}

// A module under construction; Add() places each op on its own line.
class ModuleBuilder {
 public:
  explicit ModuleBuilder(std::optional<int64_t> replica_count = std::nullopt,
                         std::optional<int64_t> num_partitions = std::nullopt) {
    module_.file = "model.hlo";
    module_.name = "test";
    module_.has_header = true;
    module_.replica_count = replica_count;
    module_.num_partitions = num_partitions;
  }

  // Adds an op of `kind` named `name`; returns it for further setup.
  hlo::Collective& Add(hlo::CollectiveKind kind, std::string name) {
    hlo::Collective op;
    op.name = std::move(name);
    op.computation = "%main";
    op.kind = kind;
    op.opcode = hlo::CollectiveKindName(kind);
    const int64_t line = static_cast<int64_t>(module_.collectives.size()) + 1;
    op.pos = {line, 3};
    op.opcode_pos = {line, kOpcodeCol};
    op.operand_count = 1;
    module_.collectives.push_back(std::move(op));
    return module_.collectives.back();
  }

  const hlo::Module& module() const { return module_; }

 private:
  hlo::Module module_;
};

inline void SetGroups(hlo::Collective& op,
                      const std::vector<std::vector<int64_t>>& groups) {
  hlo::ReplicaGroups& rg = op.replica_groups;
  rg.SetGroups(groups);
  rg.pos = {op.pos.line, kGroupsCol};
  rg.group_pos.clear();
  int64_t index = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    rg.group_pos.push_back({op.pos.line, GroupCol(static_cast<int64_t>(g))});
    for (size_t k = 0; k < groups[g].size(); ++k, ++index) {
      rg.id_layout.Add(index, groups[g][k],
                       {op.pos.line, IdCol(static_cast<int64_t>(g),
                                           static_cast<int64_t>(k))});
    }
  }
}

inline void SetIota(hlo::Collective& op, int64_t g, int64_t s,
                    std::vector<int64_t> dims, std::vector<int64_t> perm = {}) {
  hlo::ReplicaGroups& rg = op.replica_groups;
  rg.form = hlo::ReplicaGroups::Form::kIota;
  rg.pos = {op.pos.line, kGroupsCol};
  rg.iota.num_groups = g;
  rg.iota.group_size = s;
  rg.iota.reshape_dims = std::move(dims);
  rg.iota.perm = std::move(perm);
}

inline void SetChannel(hlo::Collective& op, int64_t id = 1) {
  op.has_channel_id = true;
  op.channel_id = id;
  op.channel_id_pos = {op.pos.line, 40};
}

inline void SetGlobal(hlo::Collective& op, bool value = true) {
  op.has_use_global_device_ids = true;
  op.use_global_device_ids = value;
  op.use_global_device_ids_pos = {op.pos.line, 70};
}

inline std::vector<Finding> RunHlo(const hlo::Module& module,
                                   const CheckOptions& options = {}) {
  Unit unit;
  unit.hlo_modules.push_back(module);
  Emitter emit([](std::string_view) { return true; },
               [](std::string_view) { return Severity::kError; });
  CheckHlo(unit, options, emit);
  return emit.findings();
}

inline std::vector<Finding> Only(const std::vector<Finding>& findings,
                                 std::string_view rule) {
  std::vector<Finding> out;
  for (const Finding& f : findings) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

inline std::vector<std::string> Rules(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.rule);
  return out;
}

}  // namespace topolint::testing_hlo

#endif  // TOPOLINT_TESTS_HLO_RULES_HLO_TEST_UTIL_H_
