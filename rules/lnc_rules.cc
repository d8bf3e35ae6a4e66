// lnc-rank-range: with --num-cores, every rank must name a logical core that
// exists, i.e. be below num_cores / lnc (rank = physical_core / lnc). Checks
// NEFF ranks (replica_groups and src_target_pairs) and the ids written
// explicitly in HLO replica_groups and source_target_pairs. Each rank value
// is reported once per def.json and once per HLO instruction.
#include <algorithm>
#include <climits>
#include <memory>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "checker/model/rank_map.h"
#include "fmt/format.h"
#include "rules/collective_checks.h"
#include "rules/families.h"
#include "rules/lnc_core_count.h"
#include "rules/lnc_resolution.h"

namespace topolint {
namespace {

class RankRange {
 public:
  RankRange(int64_t num_cores, const LncStatement& lnc)
      : num_cores_(num_cores),
        lnc_(lnc.value),
        // Only an lnc the user did not give is attributed.
        lnc_source_(lnc.origin == LncOrigin::kDefault ||
                            lnc.origin == LncOrigin::kOption
                        ? std::string()
                        : fmt::format(", lnc from {}", lnc.source)),
        ranks_(model::RanksOfCores(num_cores, lnc.value)) {}

  int64_t ranks() const { return ranks_; }

  bool Contains(int64_t rank) const { return rank >= 0 && rank < ranks_; }

  // "rank 9 (where) is not below num_cores / lnc = 16 / 2 = 8 (physical
  // cores 18..19 do not exist)"
  std::string Message(int64_t rank, std::string_view where) const {
    int64_t first = 0, last = 0;
    const std::string cores =
        !model::CoresOfRank(rank, lnc_, &first, &last)
            ? std::string("its physical cores would lie beyond 2^63")
        : lnc_ == 1
            ? fmt::format("physical core {} does not exist", first)
            : fmt::format("physical cores {}..{} do not exist", first, last);
    return fmt::format(
        "rank {} {} is not below num_cores / lnc = {} / {} = "
        "{} ({}{})",
        rank, where, num_cores_, lnc_, ranks_, cores, lnc_source_);
  }

 private:
  int64_t num_cores_;
  int64_t lnc_;
  std::string lnc_source_;
  int64_t ranks_;
};

void CheckDefJson(const neff::DefJson& d, const RankRange& range,
                  Emitter& emit) {
  absl::flat_hash_set<int64_t> reported;
  for (const neff::Topology& t : d.topologies) {
    for (int64_t g = 0; g < t.num_groups(); ++g) {
      const absl::Span<const int32_t> ranks = t.group(g);
      for (size_t r = 0; r < ranks.size(); ++r) {
        const int64_t v = ranks[r];
        if (range.Contains(v) || !reported.insert(v).second) continue;
        const std::string path =
            fmt::format("replica_groups[{}][{}][{}]", t.index, g, r);
        emit.Report(kLncRankRange,
                    At(d.file, t.rank_pos(g, static_cast<int64_t>(r))),
                    range.Message(v, "(" + path + ")"), {}, "CCInfo." + path);
      }
    }
  }
  for (const neff::Pair& p : d.pairs) {
    const neff::Rank* ends[] = {&p.src, &p.dst};
    for (int k = 0; k < 2; ++k) {
      const int64_t v = ends[k]->value;
      if (range.Contains(v) || !reported.insert(v).second) continue;
      const std::string path =
          fmt::format("src_target_pairs[{}][{}]", p.index, k);
      emit.Report(kLncRankRange, At(d.file, ends[k]->pos),
                  range.Message(v, "(" + path + ")"), {}, "CCInfo." + path);
    }
  }
}

void CheckCollective(const hlo::Module& m, const hlo::Collective& op,
                     const RankRange& range, Emitter& emit) {
  absl::flat_hash_set<int64_t> reported;
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (rg.form == hlo::ReplicaGroups::Form::kExplicit) {
    // Ids are located in list order, each in O(1) amortised.
    hlo::IdLayout::Cursor locate(rg.id_layout, rg.ids());
    int64_t index = 0;  // of the id in the flat list
    for (int64_t g = 0; g < rg.num_groups(); ++g) {
      absl::Span<const int64_t> ids = rg.group(g);
      for (size_t i = 0; i < ids.size(); ++i, ++index) {
        const int64_t v = ids[i];
        if (range.Contains(v) || v < 0 || !reported.insert(v).second) continue;
        TextPos pos = locate.At(index);
        if (!pos.known()) pos = op.pos;
        emit.Report(kLncRankRange, At(m.file, pos),
                    range.Message(v, fmt::format("in replica group {} of {}", g,
                                                 op.name)),
                    {}, op.name);
      }
    }
  }
  // Iota and mesh lists: the largest id they expand to, reported once as
  // the first id not below the rank count.
  int64_t span = 0;  // ids 0..span-1
  if (rg.form == hlo::ReplicaGroups::Form::kIota) {
    if (__builtin_mul_overflow(rg.iota.num_groups, rg.iota.group_size, &span)) {
      span = INT64_MAX;
    }
  } else if (rg.form == hlo::ReplicaGroups::Form::kMesh) {
    if (!rg.mesh.device_ids.empty()) {
      for (int64_t id : rg.mesh.device_ids) span = std::max(span, id + 1);
    } else {
      span = 1;
      for (const hlo::MeshAxis& a : rg.mesh.axes) {
        if (__builtin_mul_overflow(span, a.size, &span)) span = INT64_MAX;
      }
    }
  }
  if (span > range.ranks() && range.ranks() >= 0) {
    const int64_t v = range.ranks();
    emit.Report(kLncRankRange, At(m.file, rg.pos),
                range.Message(v, fmt::format("in the replica groups {} of {}",
                                             rg.Text(), op.name)),
                {}, op.name);
  }
  const hlo::SourceTargetPairs& stp = op.source_target_pairs;
  for (size_t k = 0; k < stp.pairs.size(); ++k) {
    for (int64_t v : {stp.pairs[k].first, stp.pairs[k].second}) {
      if (range.Contains(v) || v < 0 || !reported.insert(v).second) continue;
      const TextPos pos = k < stp.pair_pos.size() ? stp.pair_pos[k] : op.pos;
      emit.Report(kLncRankRange, At(m.file, pos),
                  range.Message(v, fmt::format("in source-target pair {} of {}",
                                               k, op.name)),
                  {}, op.name);
    }
  }
}

// new-rule.sh(lnc) stub: a rule scaffolded by scripts/new-rule.sh, called
// by LncSession (one object per module: members keep the module's state;
// `range` is null without --num-cores):
//   struct @Rule@ {
//     void Op(const hlo::Module& module, const hlo::Collective& op,
//             const RankRange* range, Emitter& emit);
//     void End(const hlo::Module& module, const RankRange* range,
//              Emitter& emit);
//   };

class LncSession : public ModuleSession {
 public:
  LncSession(const hlo::Module& m, const RankRange* range,
             const CoreCountCheck* core_count, Emitter& emit)
      : m_(m), range_(range), core_count_(core_count), emit_(emit) {}
  void Op(const hlo::Collective& op) override {
    if (range_ != nullptr) CheckCollective(m_, op, *range_, emit_);
    if (core_count_ != nullptr) lnc_core_count_.Op(m_, op);
    // new-rule.sh(lnc): @rule@_.Op(m_, op, range_, emit_);
  }
  void End() override {
    if (core_count_ != nullptr) lnc_core_count_.End(m_, *core_count_, emit_);
    // new-rule.sh(lnc): @rule@_.End(m_, range_, emit_);
  }

 private:
  const hlo::Module& m_;
  const RankRange* range_;            // null without --num-cores
  const CoreCountCheck* core_count_;  // null without a target rule
  Emitter& emit_;
  LncCoreCount lnc_core_count_;
  // new-rule.sh(lnc): @Rule@ @rule@_;
};

class LncFamily : public FamilyChecks {
 public:
  LncFamily(const Unit& unit, std::optional<RankRange> range,
            std::unique_ptr<CoreCountCheck> core_count, Emitter& emit)
      : unit_(unit),
        range_(std::move(range)),
        core_count_(std::move(core_count)),
        emit_(emit) {}

  void CheckUnitParts() override {
    if (range_.has_value()) {
      ForEachDefJson(unit_, [this](const neff::DefJson& d) {
        CheckDefJson(d, *range_, emit_);
      });
    }
    if (core_count_ != nullptr) {
      core_count_->CheckNeffs(emit_);
      if (!core_count_->has_neff_world() && unit_.hlo_modules.empty()) {
        core_count_->CheckConfigs(unit_, emit_);
      }
    }
  }

  std::unique_ptr<ModuleSession> Begin(const hlo::Module& m) override {
    return std::make_unique<LncSession>(
        m, range_.has_value() ? &*range_ : nullptr, core_count_.get(), emit_);
  }

 private:
  const Unit& unit_;
  const std::optional<RankRange> range_;
  const std::unique_ptr<CoreCountCheck> core_count_;
  Emitter& emit_;
};

}  // namespace

std::unique_ptr<FamilyChecks> MakeLncChecks(const Unit& unit,
                                            const CheckOptions& options,
                                            Emitter& emit) {
  // lnc-rank-range needs --num-cores; lnc-core-count a target with a rule.
  std::optional<RankRange> range;
  if (options.num_cores.has_value() && *options.num_cores >= 1) {
    const LncStatement lnc = ResolveLnc(unit, options);
    if (lnc.value >= 1) range.emplace(*options.num_cores, lnc);
  }
  std::unique_ptr<CoreCountCheck> core_count;
  std::optional<TargetStatement> target;
  if (emit.Enabled(kLncCoreCount)) target = ResolveTarget(unit, options);
  if (target.has_value()) {
    if (const CoreCountRule* rule = CoreCountRuleFor(target->target)) {
      core_count = std::make_unique<CoreCountCheck>(std::move(*target), *rule,
                                                    unit, options);
    }
  }
  if (!range.has_value() && core_count == nullptr) return nullptr;
  return std::make_unique<LncFamily>(unit, std::move(range),
                                     std::move(core_count), emit);
}

void CheckLnc(const Unit& unit, const CheckOptions& options, Emitter& emit) {
  RunFamily(MakeLncChecks(unit, options, emit).get(), unit);
}

}  // namespace topolint
