// The HLO side of `explain`: R, P, devices, and each collective's groups.
#include <algorithm>
#include <string_view>

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "checker/explain/explain_internal.h"
#include "checker/model/flattened_groups.h"
#include "checker/model/group_mode.h"
#include "checker/model/module_params.h"
#include "fmt/format.h"
#include "rules/xref_compare.h"

namespace topolint::explain {
namespace {

std::string ModeReason(const hlo::Collective& op) {
  std::string channel = op.has_channel_id
                            ? fmt::format("channel_id={}", op.channel_id)
                            : std::string("no channel_id");
  if (!op.has_use_global_device_ids) return channel;
  return fmt::format("{}, use_global_device_ids={}", channel,
                     op.use_global_device_ids ? "true" : "false");
}

std::string FormName(const hlo::Collective& op) {
  if (!xref::CarriesReplicaGroups(op)) return "pairs";
  switch (op.replica_groups.form) {
    case hlo::ReplicaGroups::Form::kAbsent:
      return "absent";
    case hlo::ReplicaGroups::Form::kExplicit:
      return op.replica_groups.num_groups() == 0 ? "empty" : "explicit";
    case hlo::ReplicaGroups::Form::kIota:
      return "iota";
    case hlo::ReplicaGroups::Form::kMesh:
      return "mesh";
  }
  return "explicit";
}

// `counts_recorded` false: the module records no device count, so a list
// that stands for every participant (`replica_groups={}` or none) is not
// expanded (it is not the one device of the defaults).
CollectiveExplanation ExplainCollective(const hlo::Collective& op,
                                        const model::ModuleParams& params,
                                        std::optional<int64_t> devices,
                                        bool counts_recorded,
                                        const MeshPlacer* placer) {
  CollectiveExplanation c;
  c.name = op.name;
  c.opcode = op.opcode;
  if (op.pos.is_byte()) {
    c.byte_offset = op.pos.byte_offset();
  } else {
    c.line = op.pos.line;
  }
  c.mode = model::ModeName(model::GroupModeOf(op));
  c.mode_reason = ModeReason(op);
  c.form = FormName(op);
  if (!xref::CarriesReplicaGroups(op)) {
    c.written = op.source_target_pairs.present ? "source_target_pairs" : "";
    c.has_pairs = op.source_target_pairs.present;
    if (op.source_target_pairs.pairs.size() <=
        static_cast<size_t>(kMaxListedIds)) {
      c.pairs = op.source_target_pairs.pairs;
    }
    return c;
  }
  c.written = c.form == "absent" ? "" : op.replica_groups.Text();
  if (!counts_recorded && (c.form == "absent" || c.form == "empty")) {
    c.groups_error =
        "one group of every device, and the module does not record how many "
        "devices there are";
    return c;
  }
  absl::StatusOr<model::GroupList> groups = xref::WrittenGroups(op, params);
  if (!groups.ok()) {
    c.groups_error = std::string(groups.status().message());
    return c;
  }
  if (groups->num_ids() > kMaxListedIds) {
    c.groups_error =
        fmt::format("{} ({} ids): too many to list",
                    xref::DescribeShape(*groups), groups->num_ids());
    return c;
  }
  c.groups = *std::move(groups);
  if (op.replica_groups.form == hlo::ReplicaGroups::Form::kIota) {
    c.iota = IotaText(op.replica_groups.iota);
    c.iota_as_written = true;
  } else {
    c.iota = FindIotaForm(*c.groups);
  }
  absl::StatusOr<model::GroupList> flat =
      model::FlattenedIdGroupsOf(op, params, kMaxListedIds);
  if (!flat.ok() || !devices.has_value()) return c;
  if (placer != nullptr) c.placement = placer->Place(*flat);
  const bool ids_are_devices = *flat == *c.groups;
  if (!ids_are_devices) c.device_groups = *flat;
  c.grid = DeviceGrid(op, *flat, ids_are_devices, params, *devices);
  return c;
}

// A StableHLO module states its counts as module attributes, or (the
// interpreter's tests) as an interpreter.run_parallel grid, which gives
// both at one place: text and HTML name them so rather than "header".
void StableHloCountSources(const hlo::Module& module,
                           const model::ModuleParams& params,
                           ModuleExplanation* m) {
  m->format = "StableHLO";
  const bool replicas =
      params.replica_count_source == model::CountSource::kHeader;
  const bool partitions =
      params.num_partitions_source == model::CountSource::kHeader;
  const bool grid =
      replicas && partitions &&
      module.replica_count_pos.line == module.num_partitions_pos.line &&
      module.replica_count_pos.column == module.num_partitions_pos.column;
  // interpreter.run_parallel's grid gives both counts at one place.
  auto label = [grid](std::string_view attr, int64_t line) {
    return fmt::format("{} at line {}",
                       grid ? "interpreter.run_parallel" : attr, line);
  };
  if (replicas) {
    m->replica_count_label =
        label("mhlo.num_replicas", module.replica_count_pos.line);
  }
  if (partitions) {
    m->num_partitions_label =
        label("mhlo.num_partitions", module.num_partitions_pos.line);
  }
}

}  // namespace

ModuleExplanation ExplainModule(const hlo::Module& module,
                                const CheckOptions& check) {
  ModuleExplanation m;
  m.file = module.file;
  m.name = module.name;
  m.input_format = module.stablehlo     ? "stablehlo"
                   : module.is_binary() ? "hlo-proto"
                                        : "hlo-text";
  const model::ModuleParams params = model::EffectiveModuleParams(
      module, check.replica_count, check.num_partitions);
  m.replica_count = params.replica_count;
  m.num_partitions = params.num_partitions;
  m.replica_count_source =
      model::CountSourceText(params.replica_count_source, "--replica-count");
  m.num_partitions_source = model::NumPartitionsSourceText(params);
  m.replica_count_label = m.replica_count_source;
  m.num_partitions_label = m.num_partitions_source;
  if (module.stablehlo) StableHloCountSources(module, params, &m);
  int64_t devices = 0;
  if (!__builtin_mul_overflow(params.replica_count, params.num_partitions,
                              &devices)) {
    m.devices = devices;
  }
  m.counts_recorded = m.replica_count_source != "default" ||
                      m.num_partitions_source != "default";
  if (!m.counts_recorded) {
    // The producer did not record the counts: the device space is what the
    // ids listed span (XLA's "ids listed must be exactly 0..n-1").
    // A list of every participant (`{}`) lists no id.
    for (const hlo::Collective& op : module.collectives) {
      const CollectiveExplanation c =
          ExplainCollective(op, params, 1, false, nullptr);
      if (!c.groups.has_value()) continue;
      for (int64_t id : c.groups->ids()) {
        if (id >= m.ids_listed) m.ids_listed = id + 1;
      }
    }
    m.devices.reset();
    if (m.ids_listed > 0) m.devices = m.ids_listed;
  }
  if (std::string conflict = model::ShardingCountConflict(module);
      !conflict.empty()) {
    m.derived.push_back(std::move(conflict));
  }
  m.syntax_errors = static_cast<int64_t>(module.syntax_errors.size());
  const MeshPlacer placer(module, m.devices);
  m.meshes = placer.descriptions();
  // The first op drawing each distinct grid; later ones refer to it.
  absl::flat_hash_map<model::GroupList, std::string> drawn;
  for (const hlo::Collective& op : module.collectives) {
    CollectiveExplanation c =
        ExplainCollective(op, params, m.devices, m.counts_recorded, &placer);
    if (c.grid.has_value()) {
      const model::GroupList& key =
          c.device_groups.has_value() ? *c.device_groups : *c.groups;
      auto [it, inserted] = drawn.try_emplace(key, c.name);
      if (!inserted) {
        c.same_groups_as = it->second;
        c.grid.reset();
      }
    }
    m.collectives.push_back(std::move(c));
  }
  return m;
}

}  // namespace topolint::explain
