// config-world-size and xref-config-groups: a component config against the
// HLO modules of the same unit.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "checker/config/parallel_config.h"
#include "checker/hlo/hlo_module.h"
#include "checker/model/component_groups.h"
#include "checker/model/family_matcher_cache.h"
#include "checker/model/flattened_groups.h"
#include "checker/model/group_list.h"
#include "checker/model/module_params.h"
#include "checker/model/world_size.h"
#include "fmt/format.h"
#include "rules/collective_checks.h"
#include "rules/families.h"
#include "rules/xref_compare.h"

namespace topolint {
namespace {

using config::ParallelConfig;

constexpr int64_t kMaxIdsShown = 16;

// Where a finding about the whole config points: the world-size field's
// value, else the neuron_config object, else the whole file.
Location ConfigLoc(const ParallelConfig& cfg) {
  if (const config::IntField* f = cfg.WorldSizeField()) {
    return At(cfg.file, f->value_pos);
  }
  if (cfg.neuron_config != nullptr) {
    return At(cfg.file, cfg.neuron_config->pos);
  }
  return Location{cfg.file, 0, 0};
}

// The header attribute that fixed the module's device count, for the note.
Note HeaderNote(const hlo::Module& m, const model::ModuleParams& p) {
  TextPos pos = m.header_pos;
  if (p.num_partitions_source == model::CountSource::kSharding ||
      p.num_partitions_source == model::CountSource::kMesh) {
    pos = p.num_partitions_pos;
  } else if (m.num_partitions.has_value()) {
    pos = m.num_partitions_pos;
  } else if (m.replica_count.has_value()) {
    pos = m.replica_count_pos;
  }
  std::string where = m.has_header ? "" : " (no HloModule header)";
  return {At(m.file, pos),
          fmt::format("HLO module '{}' runs on {} = {} devices{}", m.name,
                      model::DeviceCountOrigin(p),
                      p.replica_count * p.num_partitions, where)};
}

// config-world-size, unless the config's world is `devices` (`source`
// says where the module's count comes from, `where` points at it). Returns
// true when the sizes agree (so the groups can be compared).
bool CheckWorldSize(const ParallelConfig& cfg, const hlo::Module& m,
                    int64_t devices, const std::string& source, Note where,
                    Emitter& emit) {
  const std::optional<int64_t> world = cfg.WorldSize();
  if (world.has_value() && *world == devices) return true;
  const std::string config_world =
      world.has_value() ? fmt::format("{}", *world) : "too large to compute";
  emit.Report(kConfigWorldSize, ConfigLoc(cfg),
              fmt::format("the config's world size is {} ({}), but HLO module "
                          "'{}' runs on {} devices ({})",
                          config_world, cfg.WorldSizeExplanation(), m.name,
                          devices, source),
              {std::move(where)}, fmt::format("world_size:{}", m.name));
  return false;
}

bool RankOrderMatters(hlo::CollectiveKind kind) {
  return kind != hlo::CollectiveKind::kAllReduce;
}

std::string GroupsSummary(const model::GroupList& g) {
  if (g.num_groups() > 0 && g.is_uniform()) {
    return fmt::format("{} groups of {}", g.num_groups(), g.group_size(0));
  }
  return fmt::format("{} groups of unequal sizes", g.num_groups());
}

// How `groups` differ from the nearest family, as a clause.
std::string Difference(const model::FamilyMatcher& matcher,
                       const model::FamilyMatch& match,
                       const model::GroupList& groups) {
  const int f = match.nearest;
  const model::GroupFamily& fam = matcher.families()[static_cast<size_t>(f)];
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    if (matcher.FindGroup(f, groups.group(g)) >= 0) continue;
    std::string clause = fmt::format("group {} is {} here", g,
                                     groups.GroupToString(g, kMaxIdsShown));
    if (groups.group_size(g) > 0) {
      const int64_t rank = groups.group(g)[0];
      const int64_t fg = matcher.GroupContaining(f, rank);
      if (fg >= 0) {
        clause += fmt::format(", but the family's group holding rank {} is {}",
                              rank, fam.groups.GroupToString(fg, kMaxIdsShown));
      }
    }
    return clause;
  }
  // Every group is one of the family's, but not all of them are there.
  return fmt::format("the family has {} groups but the op lists {}",
                     fam.groups.num_groups(), groups.num_groups());
}

// The first group whose rank order differs from the family's.
std::string OrderDifference(const model::FamilyMatcher& matcher, int f,
                            const model::GroupList& groups) {
  const model::GroupFamily& fam = matcher.families()[static_cast<size_t>(f)];
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    const int64_t fg = matcher.FindGroup(f, groups.group(g));
    if (fg < 0) continue;
    absl::Span<const int64_t> want = fam.groups.group(fg);
    absl::Span<const int64_t> have = groups.group(g);
    if (std::equal(want.begin(), want.end(), have.begin(), have.end())) {
      continue;
    }
    return fmt::format("group {} lists its ranks as {} where the family has {}",
                       g, groups.GroupToString(g, kMaxIdsShown),
                       fam.groups.GroupToString(fg, kMaxIdsShown));
  }
  return "the rank order differs";
}

// xref-config-groups for the collectives of one module against one config,
// one collective at a time.
class GroupsCheck {
 public:
  GroupsCheck(const ParallelConfig& cfg, const model::FamilyMatcher& matcher,
              const hlo::Module& m, Emitter& emit)
      : cfg_(cfg),
        matcher_(matcher),
        m_(m),
        emit_(emit),
        config_loc_(ConfigLoc(cfg)) {}

  // `groups` are op's groups as global device ids (not empty), and `id`
  // their FlattenedGroupsCache id (0: not shared).
  void Op(const hlo::Collective& op, const model::GroupList& groups,
          uint64_t id);

 private:
  // Matches of the lists seen, by FlattenedGroupsCache id; emptied beyond
  // this many entries (it is only a memo).
  static constexpr size_t kMaxMatchesKept = 4096;

  const ParallelConfig& cfg_;
  const model::FamilyMatcher& matcher_;
  const hlo::Module& m_;
  Emitter& emit_;
  const Location config_loc_;
  absl::flat_hash_map<uint64_t, model::FamilyMatch> matches_;
};

void GroupsCheck::Op(const hlo::Collective& op, const model::GroupList& groups,
                     uint64_t id) {
  model::FamilyMatch match;
  if (auto it = matches_.find(id); id != 0 && it != matches_.end()) {
    match = it->second;
  } else {
    match = matcher_.Match(groups);
    if (id != 0) {
      if (matches_.size() >= kMaxMatchesKept) matches_.clear();
      matches_.emplace(id, match);
    }
  }
  if (match.exact >= 0) return;
  if (match.same_partition >= 0 && !RankOrderMatters(op.kind)) return;

  const TextPos pos =
      op.replica_groups.form == hlo::ReplicaGroups::Form::kAbsent
          ? op.opcode_pos
          : op.replica_groups.pos;
  const char* kind = hlo::CollectiveKindName(op.kind);
  std::string message;
  if (match.same_partition >= 0) {
    const model::GroupFamily& fam =
        matcher_.families()[static_cast<size_t>(match.same_partition)];
    message = fmt::format(
        "{} {}: its groups are those of the config's '{}' family, but {}; "
        "the rank order inside a group decides which shard each rank "
        "holds",
        kind, op.name, fam.DisplayName(),
        OrderDifference(matcher_, match.same_partition, groups));
  } else if (match.nearest >= 0) {
    const model::GroupFamily& fam =
        matcher_.families()[static_cast<size_t>(match.nearest)];
    message = fmt::format(
        "{} {}: groups {} ({}, as global device ids) are none of the "
        "config's group families; nearest is '{}' ({} of {} groups in "
        "common): {}",
        kind, op.name, groups.ToString(kMaxIdsShown), GroupsSummary(groups),
        fam.DisplayName(), match.groups_in_common, groups.num_groups(),
        Difference(matcher_, match, groups));
  } else {
    return;
  }
  std::vector<Note> notes;
  notes.push_back(
      {config_loc_,
       fmt::format("the {} config defines {} group families over {} "
                   "ranks ({})",
                   config::ConfigFormName(cfg_.form),
                   matcher_.families().size(), cfg_.WorldSize().value_or(0),
                   cfg_.WorldSizeExplanation())});
  emit_.Report(kXrefConfigGroups, At(m_.file, pos), std::move(message),
               std::move(notes), op.name);
}

// The GroupsChecks of one module: each op's groups are flattened once (and
// each distinct list once per module, model::FlattenedGroupsCache) for all
// of them.
class ConfigXrefSession : public ModuleSession {
 public:
  // `devices` = R*P, which does not overflow; `specs` may be null.
  ConfigXrefSession(const model::ModuleParams& p, int64_t devices,
                    model::GroupSpecTable* specs)
      // A valid list flattens to at most R*P ids (the config's world, which
      // matched, so at most model::kMaxFamilyRanks); anything larger
      // repeats an id, which the hlo-* rules report, and need not be
      // expanded.
      : flattened_(p, std::min<int64_t>(devices, model::kMaxExpandedIds),
                   specs) {}

  void Op(const hlo::Collective& op) override {
    if (!xref::CarriesReplicaGroups(op)) return;  // pairs, not groups
    const model::FlattenedGroupsCache::Result& r = flattened_.Flatten(op);
    if (!r.status.ok() || r.groups->num_groups() == 0) return;  // hlo-* rules
    for (GroupsCheck& c : checks_) c.Op(op, *r.groups, r.id);
  }
  void End() override {}
  // Not a vector: a GroupsCheck must not move.
  std::deque<GroupsCheck> checks_;

 private:
  model::FlattenedGroupsCache flattened_;
};

// One config of the unit and its group families (looked up on first use:
// only a module whose device count matches needs them; built once per
// layout and shared with every unit of that layout).
struct ConfigSide {
  // The main section of a config as the config keeps it (read once per
  // unit, not copied: a copy is some 70 strings), or, with a data-parallel
  // size given to topolint for a config that does not write one, a copy
  // with it (config::WithDataParallelSize).
  ConfigSide(std::shared_ptr<const std::vector<ParallelConfig>> all,
             std::optional<ParallelConfig> with_dp_in)
      : read(std::move(all)),
        with_dp(std::move(with_dp_in)),
        cfg(with_dp.has_value() ? *with_dp : read->front()) {}
  const std::shared_ptr<const std::vector<ParallelConfig>> read;
  const std::optional<ParallelConfig> with_dp;
  const ParallelConfig& cfg;
  std::shared_ptr<const model::FamilyMatcher> matcher;
  bool families_tried = false;
};

// The NEFF world size of a unit, when its NEFFs agree on one (the device
// count of a module whose header records none, when no collective lists an
// id either).
struct NeffWorld {
  int64_t world = 0;  // 0: no NEFF, or NEFFs that disagree
  Location loc;
};

NeffWorld UnitNeffWorld(const Unit& unit) {
  NeffWorld w;
  bool disagree = false;
  auto add = [&](const neff::DefJson& d) {
    if (!d.has_cc_info) return;
    const model::WorldSize ws = model::ComputeWorldSize(d);
    if (!ws.ok()) {
      disagree = true;
      return;
    }
    if (w.world != 0 && w.world != ws.world_size) disagree = true;
    if (w.world == 0) w.loc = At(d.file, d.cc_info_pos);
    w.world = ws.world_size;
  };
  ForEachDefJson(unit, add);
  if (disagree) w.world = 0;
  return w;
}

// config-world-size and xref-config-groups for a module whose header records
// neither replica_count nor num_partitions (every binary HloModuleProto a
// Neuron compile cache holds, torch_xla dumps). Its device count is derived
// as `explain` derives it: the ids its collectives list (XLA: the ids listed
// are exactly 0..n-1), else the unit's NEFF world size. The ids listed are
// then the global device ids, so each op's groups are compared as written;
// the comparison's findings wait for End(), where the count is known.
class HeaderlessSession : public ModuleSession {
 public:
  HeaderlessSession(const hlo::Module& m, const NeffWorld& neff, Emitter& emit)
      : m_(m), neff_(neff), emit_(emit) {}

  // Compares the module with `cfg` (`matcher`: its group families, or null
  // when they could not be built).
  void AddConfig(const ParallelConfig& cfg,
                 const model::FamilyMatcher* matcher) {
    Side& side = sides_.emplace_back(cfg);
    if (matcher != nullptr) {
      side.groups.emplace(cfg, *matcher, m_, *side.buffer);
    }
  }

  void Op(const hlo::Collective& op) override {
    if (!xref::CarriesReplicaGroups(op) || xref::HasImplicitGroups(op)) {
      return;
    }
    absl::StatusOr<model::GroupList> groups =
        xref::WrittenGroups(op, model::ModuleParams{});
    if (!groups.ok() || groups->num_groups() == 0) return;  // hlo-* rules
    for (const int64_t id : groups->ids()) {
      if (id >= ids_listed_) {
        ids_listed_ = id + 1;
        largest_at_ = op.replica_groups.pos;
      }
    }
    for (Side& s : sides_) {
      if (s.groups.has_value()) s.groups->Op(op, *groups, 0);
    }
  }

  void End() override {
    int64_t devices = ids_listed_;
    Note where;
    std::string source;
    // The tiled shardings give num_partitions when the header has none
    // (model::EffectiveModuleParams); else the ids listed, else the NEFF.
    const model::ModuleParams p =
        model::EffectiveModuleParams(m_, std::nullopt, std::nullopt);
    if (p.num_partitions_source == model::CountSource::kSharding) {
      devices = p.num_partitions;
      source = model::DeviceCountOrigin(p);
      where = {At(m_.file, p.num_partitions_pos),
               fmt::format("HLO module '{}' has {} devices: this sharding "
                           "holds them, and its header records no "
                           "replica_count or num_partitions",
                           m_.name, devices)};
    } else if (devices > 0) {
      source = fmt::format(
          "the device ids its collectives list, 0..{}; its header records "
          "no replica_count or num_partitions",
          devices - 1);
      where = {At(m_.file, largest_at_),
               fmt::format("HLO module '{}' lists device id {} here: {} "
                           "devices, as XLA reads ids listed as exactly "
                           "0..n-1",
                           m_.name, devices - 1, devices)};
    } else if (neff_.world > 0) {
      devices = neff_.world;
      source = fmt::format(
          "the world size of {}, as its collectives list no device id and "
          "its header records no replica_count or num_partitions",
          neff_.loc.file);
      where = {neff_.loc, fmt::format("the NEFF's world size is {}", devices)};
    } else {
      return;  // the count is recorded nowhere: explain says so
    }
    for (Side& s : sides_) {
      if (!CheckWorldSize(s.cfg, m_, devices, source, where, emit_)) continue;
      for (Finding& f : s.buffer->findings()) {
        emit_.Report(kXrefConfigGroups, std::move(f.loc), std::move(f.message),
                     std::move(f.notes), std::move(f.anchor));
      }
    }
  }

 private:
  struct Side {
    explicit Side(const ParallelConfig& c)
        : cfg(c),
          buffer(std::make_unique<Emitter>(
              [](std::string_view) { return true; },
              [](std::string_view) { return Severity::kError; })) {}
    const ParallelConfig& cfg;
    // xref-config-groups findings, kept until the device count is known
    // (at most kMaxFindingsPerRule: the emitter's own cap).
    std::unique_ptr<Emitter> buffer;
    std::optional<GroupsCheck> groups;
  };

  const hlo::Module& m_;
  const NeffWorld neff_;
  Emitter& emit_;
  int64_t ids_listed_ = 0;
  TextPos largest_at_;
  std::deque<Side> sides_;  // not a vector: a GroupsCheck must not move
};

// new-rule.sh(config-xref) stub: a rule scaffolded by scripts/new-rule.sh,
// called by ModuleRules (one object per module: members keep the module's
// state) with the unit's configs that record a world size:
//   struct @Rule@ {
//     void Op(const hlo::Module& module, const hlo::Collective& op,
//             const std::vector<const ParallelConfig*>& configs,
//             Emitter& emit);
//     void End(const hlo::Module& module,
//              const std::vector<const ParallelConfig*>& configs,
//              Emitter& emit);
//   };

// A module's session with the family's rules that new-rule.sh scaffolded:
// theirs, then the group checks (a ConfigXrefSession or HeaderlessSession;
// null when the module needs none).
class ModuleRules : public ModuleSession {
 public:
  // One member per scaffolded rule.
  struct Rules {
    // new-rule.sh(config-xref): @Rule@ @rule@;
  };
  // Without such a rule, the group checks run alone.
  static constexpr bool kAny = !std::is_empty_v<Rules>;

  ModuleRules(const hlo::Module& m,
              const std::vector<const ParallelConfig*>& configs,
              std::unique_ptr<ModuleSession> groups, Emitter& emit)
      : m_(m), configs_(configs), groups_(std::move(groups)), emit_(emit) {}

  void Op(const hlo::Collective& op) override {
    // new-rule.sh(config-xref): rules_.@rule@.Op(m_, op, configs_, emit_);
    if (groups_ != nullptr) groups_->Op(op);
  }
  void End() override {
    // new-rule.sh(config-xref): rules_.@rule@.End(m_, configs_, emit_);
    if (groups_ != nullptr) groups_->End();
  }

 private:
  // (Read by the scaffolded rules' calls only.)
  [[maybe_unused]] const hlo::Module& m_;
  [[maybe_unused]] const std::vector<const ParallelConfig*>& configs_;
  std::unique_ptr<ModuleSession> groups_;
  [[maybe_unused]] Emitter& emit_;
  [[maybe_unused]] Rules rules_;
};

class ConfigXrefFamily : public FamilyChecks {
 public:
  ConfigXrefFamily(std::vector<std::unique_ptr<ConfigSide>> configs,
                   const CheckOptions& options, NeffWorld neff, Emitter& emit)
      : configs_(std::move(configs)),
        options_(options),
        neff_(std::move(neff)),
        emit_(emit),
        want_groups_(emit.Enabled(kXrefConfigGroups)) {
    for (const std::unique_ptr<ConfigSide>& c : configs_) {
      config_list_.push_back(&c->cfg);
    }
  }

  std::unique_ptr<ModuleSession> Begin(const hlo::Module& m) override {
    std::unique_ptr<ModuleSession> groups = BeginGroups(m);
    if constexpr (!ModuleRules::kAny) return groups;
    return std::make_unique<ModuleRules>(m, config_list_, std::move(groups),
                                         emit_);
  }

 private:
  // The group checks of `m` (null: none).
  std::unique_ptr<ModuleSession> BeginGroups(const hlo::Module& m) {
    // A module whose header omits replica_count and num_partitions (binary
    // modules, torch_xla dumps), with neither given to topolint, does not
    // record its device count: it is derived (HeaderlessSession).
    if (!m.replica_count.has_value() && !m.num_partitions.has_value() &&
        !options_.replica_count.has_value() &&
        !options_.num_partitions.has_value()) {
      auto session = std::make_unique<HeaderlessSession>(m, neff_, emit_);
      for (const std::unique_ptr<ConfigSide>& c : configs_) {
        session->AddConfig(c->cfg, want_groups_ ? Matcher(*c) : nullptr);
      }
      return session;
    }
    const model::ModuleParams p = model::EffectiveModuleParams(
        m, options_.replica_count, options_.num_partitions);
    int64_t devices = 0;
    if (__builtin_mul_overflow(p.replica_count, p.num_partitions, &devices)) {
      devices = -1;  // no config's world size matches: no groups checked
    }
    auto session =
        std::make_unique<ConfigXrefSession>(p, devices, shared_specs());
    for (const std::unique_ptr<ConfigSide>& c : configs_) {
      if (devices < 0 ||
          !CheckWorldSize(c->cfg, m, devices, model::DeviceCountOrigin(p),
                          HeaderNote(m, p), emit_) ||
          !want_groups_) {
        continue;
      }
      if (const model::FamilyMatcher* matcher = Matcher(*c)) {
        session->checks_.emplace_back(c->cfg, *matcher, m, emit_);
      }
    }
    if (session->checks_.empty()) return nullptr;
    return session;
  }

  // The config's group families, built on first use; null when its layout
  // does not divide (config-dp-divides' finding).
  static const model::FamilyMatcher* Matcher(ConfigSide& c) {
    if (!c.families_tried) {
      c.families_tried = true;
      absl::StatusOr<std::shared_ptr<const model::FamilyMatcher>> matcher =
          model::SharedFamilyMatcher(c.cfg);
      if (matcher.ok()) c.matcher = *std::move(matcher);
    }
    return c.matcher.get();
  }

  const std::vector<std::unique_ptr<ConfigSide>> configs_;
  std::vector<const ParallelConfig*> config_list_;  // configs_' cfg
  const CheckOptions& options_;
  const NeffWorld neff_;
  Emitter& emit_;
  const bool want_groups_;
};

}  // namespace

std::unique_ptr<FamilyChecks> MakeConfigXrefChecks(const Unit& unit,
                                                   const CheckOptions& options,
                                                   Emitter& emit) {
  std::vector<std::unique_ptr<ConfigSide>> configs;
  for (const config::ComponentConfig& c : unit.configs) {
    // A layout field that could not be read is config-schema's finding;
    // comparing a half-read layout would only add noise.
    const ParallelConfig& main = config::ReadParallelConfig(c);
    if (!main.LayoutFieldsOk()) continue;
    std::optional<ParallelConfig> with_dp = config::WithDataParallelSize(
        main, options.data_parallel_size, options.data_parallel_size_origin);
    // A layout the file does not record (an `--additional-config` JSON
    // alone: TP and DP are `vllm serve` arguments) is compared with nothing.
    if (!(with_dp.has_value() ? *with_dp : main).WorldRecorded()) continue;
    configs.push_back(std::make_unique<ConfigSide>(
        config::SharedParallelConfigs(c), std::move(with_dp)));
  }
  if (configs.empty()) return nullptr;
  return std::make_unique<ConfigXrefFamily>(std::move(configs), options,
                                            UnitNeffWorld(unit), emit);
}

void CheckConfigXref(const Unit& unit, const CheckOptions& options,
                     Emitter& emit) {
  if (unit.configs.empty() || unit.hlo_modules.empty()) return;
  RunFamily(MakeConfigXrefChecks(unit, options, emit).get(), unit);
}

}  // namespace topolint
