// xref-topology-mismatch, xref-world-size, xref-permute-pairs: every HLO
// module of a unit against every def.json of it (loose files and each graph
// of each .neff), one collective at a time (rules/collective_checks.h). The
// checks themselves are in xref_topology.cc, xref_world_size.cc and
// xref_pairs.cc.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "checker/model/group_mode.h"
#include "checker/model/module_params.h"
#include "fmt/format.h"
#include "rules/collective_checks.h"
#include "rules/families.h"
#include "rules/xref_checks.h"

namespace topolint {
namespace {

// Expansion bound for an op's groups: lists larger than every def.json
// differ from all of them in size, so they need not be held (an explicit
// list is already in memory, bounded by the parser).
constexpr int64_t kMinExpansionCap = int64_t{1} << 16;

// Pair lists known to equal one def.json's src_target_pairs as sets, so
// that the ring a module repeats is compared (sorted) once, not per op. A
// memo only: at most kMaxLists lists of kMaxPairs pairs in all.
class PairListsEqualToNeff {
 public:
  bool Contains(const std::vector<std::pair<int64_t, int64_t>>& pairs) const {
    for (const auto& known : lists_) {
      if (known == pairs) return true;
    }
    return false;
  }
  void Add(const std::vector<std::pair<int64_t, int64_t>>& pairs) {
    if (pairs.size() > kMaxPairs) return;
    if (lists_.size() == kMaxLists || pairs.size() > kMaxPairs - pairs_) {
      lists_.clear();
      pairs_ = 0;
    }
    lists_.push_back(pairs);
    pairs_ += pairs.size();
  }

 private:
  static constexpr size_t kMaxLists = 8;
  static constexpr size_t kMaxPairs = size_t{1} << 16;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> lists_;
  size_t pairs_ = 0;
};

// `[[0, 1], [2, 3]]`: the groups of `groups` (a GroupList or a NEFF
// Topology) as a JSON array, items separated by `sep`.
template <typename Groups>
std::string NestedArray(const Groups& groups, const char* sep) {
  std::vector<std::string> parts;
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    parts.push_back(
        absl::StrCat("[", absl::StrJoin(groups.group(g), sep), "]"));
  }
  return absl::StrCat("[", absl::StrJoin(parts, sep), "]");
}

// What one session knows about one def.json beyond the NeffSide.
struct NeffMemo {
  // Ids of cache entries equal to topology[0] (xref-topology-mismatch has
  // nothing to say about them); emptied beyond kMaxIds.
  static constexpr size_t kMaxIds = 4096;
  absl::flat_hash_set<uint64_t> equal_to_topology;
  PairListsEqualToNeff pairs_equal;
  // CheckTopology's memo of differences, by cache key.
  absl::flat_hash_map<std::string, xref::GroupListDiff> diffs;
};

xref::NeffSide ReadNeffSide(const neff::DefJson& def) {
  using xref::NeffSide;
  NeffSide n;
  n.def = &def;
  n.parts = xref::UsablePartsOf(def);
  n.world = model::ComputeWorldSize(def);
  if (!n.parts.replica_groups) return n;
  // More than one topology, or an empty one, is MPMD: the neff-* rules say
  // so, and no op can be compared against "the" topology.
  if (def.topologies.empty()) {
    n.topology = NeffSide::Topology::kNone;
  } else if (def.topologies.size() == 1 && def.topologies[0].index == 0 &&
             !def.topologies[0].empty()) {
    n.topology = NeffSide::Topology::kOne;
    n.rank_count = def.topologies[0].num_ranks();
  }
  return n;
}

// Expands `op`'s groups through the module's `cache`, giving up (keeping an
// iota's shape) beyond `cap` ids. known_shape is false when there is nothing
// to compare, also when the module's expansion budget is spent (the hlo-*
// family reports those ops). `*out` must be freshly constructed.
void ReadOpGroups(const hlo::Collective& op, const model::ModuleParams& params,
                  int64_t cap, model::ExpansionCache& cache,
                  xref::OpGroups* out) {
  using xref::HasImplicitGroups;
  xref::OpGroups& g = *out;
  g.op = &op;
  absl::Status status;
  if (HasImplicitGroups(op)) {
    absl::StatusOr<model::GroupList> list =
        xref::WrittenGroups(op, params, cap);
    status = list.status();
    if (list.ok()) {
      g.implied = *std::move(list);
      g.groups = &g.implied;
    }
  } else {
    model::ExpansionCache::Result r = cache.Expand(op.replica_groups, cap);
    if (r.over_budget) return;
    status = r.status;
    g.expanded = std::move(r.groups);
    if (g.expanded != nullptr) g.groups = &g.expanded->groups;
  }
  if (g.groups != nullptr) {
    const model::GroupList& list = *g.groups;
    g.known_shape = true;
    g.num_groups = list.num_groups();
    g.uniform = list.is_uniform();
    g.largest_group = list.largest_group_size();
    return;
  }
  if (!absl::IsResourceExhausted(status)) return;
  // Too large to hold: keep the shape where it is known without expanding.
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (HasImplicitGroups(op)) {
    g.known_shape = true;
    g.num_groups = 1;
    g.largest_group =
        model::SubgroupSize(model::GroupModeOf(op), model::GroupList(),
                            params.replica_count, params.num_partitions);
  } else if (rg.form == hlo::ReplicaGroups::Form::kIota &&
             rg.iota.num_groups > 0 && rg.iota.group_size > 0) {
    g.known_shape = true;
    g.num_groups = rg.iota.num_groups;
    g.largest_group = rg.iota.group_size;
  }
}

// new-rule.sh(xref) stub: a rule scaffolded by scripts/new-rule.sh, called
// by XrefSession (one object per module: members keep the module's state)
// with the def.json sides of the unit:
//   struct @Rule@ {
//     void Op(const hlo::Module& module, const hlo::Collective& op,
//             const std::vector<xref::NeffSide>& neffs, Emitter& emit);
//     void End(const hlo::Module& module,
//              const std::vector<xref::NeffSide>& neffs, Emitter& emit);
//   };

class XrefSession : public ModuleSession {
 public:
  XrefSession(const hlo::Module& module, const CheckOptions& options,
              const std::vector<xref::NeffSide>& neffs, int64_t cap,
              bool pairs_enabled, model::GroupSpecTable* specs, Emitter& emit)
      : module_(module),
        params_(model::EffectiveModuleParams(module, options.replica_count,
                                             options.num_partitions)),
        neffs_(neffs),
        cap_(cap),
        pairs_enabled_(pairs_enabled),
        emit_(emit),
        cache_(model::kMaxModuleExpandedIds, model::kMaxRetainedIds, specs),
        memos_(neffs.size()) {}

  void Op(const hlo::Collective& op) override {
    // new-rule.sh(xref): @rule@_.Op(module_, op, neffs_, emit_);
    if (!xref::CarriesReplicaGroups(op)) {
      for (size_t i = 0; i < neffs_.size(); ++i) {
        if (PairsEqualToNeff(op, i)) continue;  // nothing to report
        xref::CheckPermutePairs(module_, op, neffs_[i], emit_);
      }
      return;
    }
    xref::OpGroups groups;
    ReadOpGroups(op, params_, cap_, cache_, &groups);
    if (!groups.known_shape) return;
    any_groups_ = true;
    NoteList(groups);
    for (size_t i = 0; i < neffs_.size(); ++i) {
      const xref::NeffSide& n = neffs_[i];
      const bool shape_reported =
          !EqualToTopology(groups, i) &&
          xref::CheckTopology(module_, groups, n, emit_, &memos_[i].diffs);
      xref::CheckOpWorldSize(module_, groups, n, shape_reported, emit_);
    }
  }

  void End() override {
    // new-rule.sh(xref): @rule@_.End(module_, neffs_, emit_);
    for (const xref::NeffSide& n : neffs_) {
      xref::CheckDeviceSpace(module_, params_, any_groups_, n, emit_);
    }
    if (one_list_ && only_list_.has_value() && module_.syntax_errors.empty()) {
      for (const xref::NeffSide& n : neffs_) AttachTopologyFix(n);
    }
  }

 private:
  // Whether every op of the module has one group list (then topology[0]
  // can be rewritten from it: `--fix-from hlo`).
  void NoteList(const xref::OpGroups& g) {
    if (!one_list_) return;
    if (g.groups == nullptr) {
      one_list_ = false;
    } else if (!only_list_.has_value()) {
      only_list_ = g.groups->Owned();
      only_id_ = g.expanded != nullptr ? g.expanded->id : 0;
      has_only_id_ = g.expanded != nullptr;
    } else if (!(has_only_id_ && g.expanded != nullptr &&
                 g.expanded->id == only_id_) &&
               *g.groups != *only_list_) {
      one_list_ = false;
      only_list_.reset();
    }
  }

  // The fix of the module's xref-topology-mismatch findings against `n`:
  // topology[0] (or an empty replica_groups) rewritten as the module's one
  // group list. Applied only with --fix-from hlo.
  void AttachTopologyFix(const xref::NeffSide& n) {
    const neff::DefJson& def = *n.def;
    TextEdit e;
    e.kind = TextEdit::Kind::kReplaceIntegerArray;
    e.file = def.file;
    std::string list = NestedArray(*only_list_, ", ");
    // The edit names the array's byte offset and the integers the rule
    // read there (without blanks), which the engine finds again or refuses
    // the fix. Offsets are known where the streaming reader read the list.
    TextPos pos;
    if (n.topology == xref::NeffSide::Topology::kOne) {
      const neff::Topology& t = def.topologies[0];
      pos = t.pos;
      e.offset = t.offset;
      e.replacement = std::move(list);
      e.original = NestedArray(t, ",");
    } else if (n.topology == xref::NeffSide::Topology::kNone &&
               def.has_replica_groups) {
      pos = def.replica_groups_pos;
      e.offset = def.replica_groups_offset;
      e.original = "[]";
      e.replacement = "[" + list + "]";
    } else {
      return;
    }
    if (!pos.known() || pos.is_byte() || e.offset < 0) return;
    e.line = pos.line;
    e.column = pos.column;
    Fix fix;
    fix.title = "rewrite topology[0] from the HLO's groups";
    fix.needs_fix_from = "hlo";
    fix.edits.push_back(std::move(e));
    auto shared = std::make_shared<const Fix>(std::move(fix));
    for (Finding& f : emit_.findings()) {
      if (f.rule != kXrefTopologyMismatch.str() || f.fix != nullptr ||
          f.loc.file != module_.file || f.notes.empty() ||
          f.notes[0].loc.file != def.file) {
        continue;
      }
      f.fix = shared;
    }
  }

  // True when `g` is topology[0] of def.json `i` (then CheckTopology finds
  // them equal and reports nothing). O(1) for a cache entry seen before.
  bool EqualToTopology(const xref::OpGroups& g, size_t i) {
    const xref::NeffSide& n = neffs_[i];
    if (n.topology != xref::NeffSide::Topology::kOne || g.groups == nullptr) {
      return false;
    }
    absl::flat_hash_set<uint64_t>& known = memos_[i].equal_to_topology;
    if (g.expanded != nullptr && known.contains(g.expanded->id)) return true;
    if (*g.groups != n.topology0) return false;
    if (g.expanded != nullptr) {
      if (known.size() >= NeffMemo::kMaxIds) known.clear();
      known.insert(g.expanded->id);
    }
    return true;
  }

  // True when op's pairs are def.json `i`'s src_target_pairs as sets (then
  // CheckPermutePairs reports nothing), each distinct list compared once.
  bool PairsEqualToNeff(const hlo::Collective& op, size_t i) {
    const hlo::SourceTargetPairs& stp = op.source_target_pairs;
    const xref::NeffSide& n = neffs_[i];
    if (!pairs_enabled_ || !n.parts.pairs || !stp.present) return false;
    PairListsEqualToNeff& known = memos_[i].pairs_equal;
    if (known.Contains(stp.pairs)) return true;
    if (!xref::ComparePairSets(stp, n.def->pairs).equal()) return false;
    known.Add(stp.pairs);
    return true;
  }

  const hlo::Module& module_;
  const model::ModuleParams params_;
  const std::vector<xref::NeffSide>& neffs_;
  const int64_t cap_;
  const bool pairs_enabled_;
  Emitter& emit_;
  bool any_groups_ = false;
  bool one_list_ = true;
  std::optional<model::GroupList> only_list_;
  uint64_t only_id_ = 0;
  bool has_only_id_ = false;
  // Identical lists of the module are expanded once, within a budget, and
  // compared with each def.json's topology once.
  model::ExpansionCache cache_;
  std::vector<NeffMemo> memos_;  // by def.json
  // new-rule.sh(xref): @Rule@ @rule@_;
};

class XrefFamily : public FamilyChecks {
 public:
  XrefFamily(std::vector<xref::NeffSide> neffs, int64_t cap,
             const CheckOptions& options, Emitter& emit)
      : neffs_(std::move(neffs)),
        cap_(cap),
        pairs_enabled_(emit.Enabled(kXrefPermutePairs)),
        options_(options),
        emit_(emit) {}
  std::unique_ptr<ModuleSession> Begin(const hlo::Module& m) override {
    for (xref::NeffSide& n : neffs_) {
      if (n.topology == xref::NeffSide::Topology::kOne && n.topology0.empty()) {
        n.topology0 = xref::TopologyGroups(n.def->topologies[0]);
      }
    }
    return std::make_unique<XrefSession>(m, options_, neffs_, cap_,
                                         pairs_enabled_, shared_specs(), emit_);
  }

 private:
  std::vector<xref::NeffSide> neffs_;  // topology0 filled at the first module
  const int64_t cap_;
  const bool pairs_enabled_;
  const CheckOptions& options_;
  Emitter& emit_;
};

}  // namespace

std::unique_ptr<FamilyChecks> MakeXrefChecks(const Unit& unit,
                                             const CheckOptions& options,
                                             Emitter& emit) {
  if (!FamilyEnabled("xref", emit)) return nullptr;
  std::vector<xref::NeffSide> neffs;
  ForEachDefJson(unit, [&neffs](const neff::DefJson& d) {
    neffs.push_back(ReadNeffSide(d));
  });
  if (neffs.empty()) return nullptr;
  int64_t cap = kMinExpansionCap;
  for (const xref::NeffSide& n : neffs) cap = std::max(cap, n.rank_count);
  return std::make_unique<XrefFamily>(std::move(neffs), cap, options, emit);
}

void CheckXref(const Unit& unit, const CheckOptions& options, Emitter& emit) {
  RunFamily(MakeXrefChecks(unit, options, emit).get(), unit);
}

namespace xref {

Location GroupsLocation(const hlo::Module& module, const hlo::Collective& op,
                        int64_t g) {
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (rg.form == hlo::ReplicaGroups::Form::kAbsent) {
    return At(module.file, op.opcode_pos);
  }
  if (rg.form == hlo::ReplicaGroups::Form::kExplicit && g >= 0 &&
      g < static_cast<int64_t>(rg.group_pos.size())) {
    return At(module.file, rg.group_pos[static_cast<size_t>(g)]);
  }
  return At(module.file, rg.pos);
}

}  // namespace xref
}  // namespace topolint
