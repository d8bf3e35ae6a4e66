// lnc-core-count (rules/lnc_core_count.h; docs/rules/lnc-core-count.md).
#include "rules/lnc_core_count.h"

#include <algorithm>
#include <climits>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "checker/config/parallel_config.h"
#include "checker/model/module_params.h"
#include "checker/model/world_size.h"
#include "fmt/format.h"

namespace topolint {
namespace {

// The message nrt_load_collectives logs on trn1 (huggingface/optimum-neuron
// issue #619). Its next sentence ("For other configurations, such as
// multiples of 2, consider using inf2 instances") is advice, left out.
constexpr std::string_view kTrn1Message =
    "nrt_load_collectives: Unsupported topology. Supported number of Neuron "
    "Cores is 1, 2, 8, 16 or a multiple of 32";

std::string Trn1Nearest(int64_t cores) {
  if (cores < 8) return "2 or 8";
  if (cores < 16) return "8 or 16";
  if (cores < 32) return "16 or 32";
  const int64_t below = cores / 32 * 32;
  int64_t above = 0;
  if (__builtin_add_overflow(below, 32, &above)) {
    return fmt::format("{}", below);
  }
  return fmt::format("{} or {}", below, above);
}

constexpr CoreCountRule kTrn1Rule{"trn1 / trn1n", kTrn1Message,
                                  &Trn1SupportsCoreCount, &Trn1Nearest};

// The file name of `path` without its directories: the finding's note
// locates the file, and the message stays the same wherever it is.
std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// 1 + the largest id `op` lists (its replica groups, written or as an iota
// or mesh, and its source-target pairs); 0 when it lists none.
int64_t IdSpan(const hlo::Collective& op) {
  int64_t span = 0;
  auto take = [&span](int64_t id) {
    if (id >= 0 && id < INT64_MAX) span = std::max(span, id + 1);
  };
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (rg.form == hlo::ReplicaGroups::Form::kExplicit) {
    for (const int64_t id : rg.ids()) take(id);
  } else if (rg.form == hlo::ReplicaGroups::Form::kIota) {
    if (__builtin_mul_overflow(rg.iota.num_groups, rg.iota.group_size, &span)) {
      span = 0;  // refused by the hlo-* rules
    }
  } else if (rg.form == hlo::ReplicaGroups::Form::kMesh) {
    for (const int64_t id : rg.mesh.device_ids) take(id);
    if (rg.mesh.device_ids.empty()) {
      span = 1;
      for (const hlo::MeshAxis& a : rg.mesh.axes) {
        if (a.size < 1 || __builtin_mul_overflow(span, a.size, &span)) {
          span = 0;
          break;
        }
      }
    }
  }
  for (const auto& [src, dst] : op.source_target_pairs.pairs) {
    take(src);
    take(dst);
  }
  return span;
}

// 1 + the largest rank the topologies of `d` list; 0 when none.
int64_t RankSpan(const neff::DefJson& d) {
  int64_t span = 0;
  for (const neff::Topology& t : d.topologies) {
    for (const int32_t r : t.ranks()) {
      span = std::max(span, static_cast<int64_t>(r) + 1);
    }
  }
  return span;
}

// Where the count of a NEFF's ranks comes from, as a clause.
std::string WorldSources(const model::WorldSize& ws, int64_t rank_span) {
  std::vector<std::string> parts;
  if (rank_span > 0) {
    parts.push_back(
        fmt::format("replica_groups list ranks 0..{}, largest group {}",
                    rank_span - 1, ws.ws_rg));
  }
  if (ws.ws_pairs > 0) {
    parts.push_back(fmt::format("src_target_pairs span {}", ws.ws_pairs));
  }
  if (ws.ws_expl > 0) {
    parts.push_back(fmt::format("#rank_world_size {}", ws.ws_expl));
  }
  return parts.empty() ? "no group, pair or #rank_world_size"
                       : absl::StrJoin(parts, "; ");
}

}  // namespace

bool Trn1SupportsCoreCount(int64_t cores) {
  return cores == 1 || cores == 2 || cores == 8 || cores == 16 ||
         (cores > 0 && cores % 32 == 0);
}

const CoreCountRule* CoreCountRuleFor(std::string_view target) {
  const absl::string_view t(target.data(), target.size());
  if (absl::EqualsIgnoreCase(t, "trn1") || absl::EqualsIgnoreCase(t, "trn1n")) {
    return &kTrn1Rule;
  }
  return nullptr;  // inf2, trn2, trn3, ...: no public rule (see the docs)
}

std::optional<TargetStatement> ResolveTarget(const Unit& unit,
                                             const CheckOptions& options) {
  if (!options.target.empty()) {
    return TargetStatement{options.target,
                           options.target_origin.empty()
                               ? fmt::format("--target={}", options.target)
                               : options.target_origin,
                           std::nullopt};
  }
  for (const config::CompileFlags& f : unit.compile_flags) {
    if (f.target.empty()) continue;
    return TargetStatement{
        f.target, fmt::format("--target={} in {}", f.target, BaseName(f.file)),
        f.target_loc};
  }
  // NxDI passes neuron_config.target to the compiler as --target.
  for (const config::ComponentConfig& c : unit.configs) {
    for (const config::ParallelConfig& pc : config::ReadParallelConfigs(c)) {
      const config::StringField& t = pc.target;
      if (!t.present || t.is_null || !t.ok || t.value.empty()) continue;
      return TargetStatement{
          t.value,
          fmt::format("{} \"{}\" in {}", t.path, t.value, BaseName(pc.file)),
          At(pc.file, t.value_pos)};
    }
  }
  return std::nullopt;
}

void CoreCountCheck::Check(int64_t world, const std::string& subject,
                           const std::string& how, const Location& loc,
                           const std::string& anchor, Emitter& emit) const {
  if (world < 1 || rule_.supported(world)) return;
  std::vector<Note> notes;
  if (target_.loc.has_value()) {
    notes.emplace_back(*target_.loc,
                       fmt::format("the target is {} here", target_.target));
  }
  emit.Report(
      kLncCoreCount, loc,
      fmt::format("{} {} ranks ({}), and the Neuron runtime refuses {} "
                  "Neuron cores on {} ({}): \"{}\" (nearest supported: {})",
                  subject, world, how, world, target_.target, target_.source,
                  rule_.runtime_message, rule_.nearest(world)),
      std::move(notes), anchor);
}

CoreCountCheck::CoreCountCheck(TargetStatement target,
                               const CoreCountRule& rule, const Unit& unit,
                               const CheckOptions& options)
    : target_(std::move(target)), rule_(rule), options_(options) {
  for (const neff::DefJson& d : unit.def_jsons) {
    if (d.has_cc_info) AddNeffWorld(d);
  }
  for (const neff::NeffArchive& a : unit.neff_archives) {
    // The graphs of one .neff (one per physical core of a logical core)
    // carry one CCInfo; neff-graphs-disagree reports any difference.
    const auto it =
        std::find_if(a.graphs.begin(), a.graphs.end(),
                     [](const neff::DefJson& d) { return d.has_cc_info; });
    if (it != a.graphs.end()) AddNeffWorld(*it);
  }
}

void CoreCountCheck::AddNeffWorld(const neff::DefJson& d) {
  const model::WorldSize ws = model::ComputeWorldSize(d);
  if (!ws.ok()) return;  // MPMD: the neff-* rules say why
  // The ranks the collectives span: the reader's world size, or more when
  // the groups list more ranks than the largest group holds (TP groups of
  // 4 over ranks 0..7 are 8 ranks, #rank_world_size or not).
  const int64_t span = RankSpan(d);
  const int64_t world = std::max(ws.world_size, span);
  TextPos pos = d.cc_info_pos;
  if (ws.ws_expl == world && d.has_explicit_world_size) {
    pos = d.explicit_world_size.pos;
  } else if (span == world && d.has_replica_groups) {
    pos = d.replica_groups_pos;
  } else if (ws.ws_pairs == world && d.has_pairs) {
    pos = d.pairs_pos;
  }
  neff_worlds_.push_back({world, WorldSources(ws, span), At(d.file, pos)});
}

void CoreCountCheck::CheckNeffs(Emitter& emit) const {
  for (const NeffWorld& w : neff_worlds_) {
    Check(w.world, "the NEFF's collectives span", w.how, w.loc, "CCInfo", emit);
  }
}

void CoreCountCheck::CheckConfigs(const Unit& unit, Emitter& emit) const {
  for (const config::ComponentConfig& c : unit.configs) {
    for (const config::ParallelConfig& pc : config::ReadParallelConfigs(c)) {
      if (!pc.WorldRecorded() || !pc.LayoutFieldsOk()) continue;
      const std::optional<int64_t> world = pc.WorldSize();
      if (!world.has_value()) continue;
      const config::IntField* field = pc.WorldSizeField();
      const TextPos pos = field != nullptr ? field->value_pos : TextPos{};
      const std::string section =
          pc.section.empty() ? "" : fmt::format(" (section {})", pc.section);
      Check(*world, fmt::format("the config's world{} is", section),
            pc.WorldSizeExplanation(), At(pc.file, pos),
            "world:" + (pc.section.empty() ? "main" : pc.section), emit);
    }
  }
}

void LncCoreCount::Op(const hlo::Module& /*module*/,
                      const hlo::Collective& op) {
  ++collectives_;
  const int64_t span = IdSpan(op);
  if (span > ids_listed_) {
    ids_listed_ = span;
    largest_at_ =
        op.replica_groups.pos.known() ? op.replica_groups.pos : op.pos;
  }
}

void LncCoreCount::End(const hlo::Module& m, const CoreCountCheck& check,
                       Emitter& emit) {
  // The NEFF is what the runtime loads; a module without collectives is
  // loaded without them (nrt_load), whatever its device count.
  if (check.has_neff_world() || collectives_ == 0) return;
  const model::ModuleParams p = model::EffectiveModuleParams(
      m, check.options().replica_count, check.options().num_partitions);
  const bool recorded =
      p.replica_count_source != model::CountSource::kDefault ||
      p.num_partitions_source != model::CountSource::kDefault;
  int64_t devices = 0;
  std::string how;
  TextPos pos;
  if (recorded) {
    if (__builtin_mul_overflow(p.replica_count, p.num_partitions, &devices)) {
      return;
    }
    how = fmt::format("replica_count {} x num_partitions {}", p.replica_count,
                      p.num_partitions);
    pos = m.num_partitions.has_value()  ? m.num_partitions_pos
          : m.replica_count.has_value() ? m.replica_count_pos
                                        : m.header_pos;
  } else if (ids_listed_ > 0) {
    devices = ids_listed_;
    how = fmt::format(
        "the ids they list, 0..{}; the module records no device count",
        ids_listed_ - 1);
    pos = largest_at_;
  } else {
    return;  // the count is recorded nowhere
  }
  check.Check(devices,
              fmt::format("HLO module '{}' runs its collectives on", m.name),
              how, At(m.file, pos), "world:" + m.name, emit);
}

}  // namespace topolint
