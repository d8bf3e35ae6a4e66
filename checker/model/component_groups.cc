#include "checker/model/component_groups.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "checker/io/status_macros.h"
#include "fmt/format.h"

namespace topolint::model {
namespace {

absl::Status CheckWorld(int64_t world) {
  if (world < 1 || world > kMaxFamilyRanks) {
    return absl::InvalidArgumentError(fmt::format(
        "a layout of {} ranks is outside the 1..{} ranks topolint models",
        world, kMaxFamilyRanks));
  }
  return absl::OkStatus();
}

absl::Status CheckDivides(int64_t d, int64_t n, const char* what) {
  if (d < 1 || n % d != 0) {
    return absl::InvalidArgumentError(
        fmt::format("{}: {} does not divide {}", what, d, n));
  }
  return absl::OkStatus();
}

// CheckWorld(world), then CheckDivides(d, world, what).
absl::Status CheckWorldDivides(int64_t world, int64_t d, const char* what) {
  absl::Status st = CheckWorld(world);
  return st.ok() ? CheckDivides(d, world, what) : st;
}

// Checked product for layout degrees (all >= 1); fails past kMaxFamilyRanks.
absl::StatusOr<int64_t> Product(int64_t a, int64_t b) {
  int64_t out = 0;
  if (a < 1 || b < 1 || __builtin_mul_overflow(a, b, &out) ||
      out > kMaxFamilyRanks) {
    return absl::InvalidArgumentError(fmt::format(
        "a layout of {} x {} ranks is outside the 1..{} ranks topolint models",
        a, b, kMaxFamilyRanks));
  }
  return out;
}

// The world of a TP x DP grid with component DP size c (c | dp).
absl::StatusOr<int64_t> ComponentWorld(int64_t tp, int64_t dp, int64_t c) {
  TOPOLINT_ASSIGN_OR_RETURN(int64_t world, Product(tp, dp));
  if (absl::Status st = CheckDivides(c, dp, "component DP size"); !st.ok()) {
    return st;
  }
  return world;
}

// Collects families, merging those with identical groups, and the first
// error of the steps that build them (later steps are then skipped).
class FamilyBuilder {
 public:
  // Adds the family `name` of `groups`, or keeps their error.
  void Add(std::string name, absl::StatusOr<GroupList> groups) {
    if (!Check(groups.status())) return;
    GroupList canon = groups->Canonical();
    for (size_t i = 0; i < canon_.size(); ++i) {
      if (canon_[i] == canon) {
        families_[i].aliases.push_back(std::move(name));
        return;
      }
    }
    GroupFamily f;
    if (groups->num_groups() > 0 && groups->is_uniform() &&
        groups->group_size(0) == 1) {
      f.name = "self groups (size 1)";
      f.aliases.push_back(std::move(name));
    } else {
      f.name = std::move(name);
    }
    f.groups = *std::move(groups);
    families_.push_back(std::move(f));
    canon_.push_back(std::move(canon));
  }

  // True while no step has failed; else keeps the first error.
  bool Check(absl::Status st) {
    if (status_.ok()) status_ = std::move(st);
    return status_.ok();
  }

  absl::StatusOr<std::vector<GroupFamily>> Take() {
    if (!status_.ok()) return status_;
    return std::move(families_);
  }

 private:
  std::vector<GroupFamily> families_;
  std::vector<GroupList> canon_;
  absl::Status status_;
};

// `inner` = tp/d consecutive ranks, `across` = the d ranks at one offset
// (get_tp_cp_group_mesh(tp, d)).
void AddInnerMesh(FamilyBuilder& b, int64_t world, int64_t tp, int64_t d,
                  const std::string& inner_name,
                  const std::string& across_name) {
  if (!b.Check(CheckDivides(d, tp, across_name.c_str()))) return;
  b.Add(inner_name, ContiguousGroups(world, tp / d));
  b.Add(across_name, StridedGroups(world, tp, tp / d));
}

// Sampling DP (both forms): rows of `sampling_dp` consecutive ranks inside
// each TP group, and their transpose, i.e. get_tp_cp_group_mesh(tp,
// tp / sampling_dp). Nothing when sampling_dp is 1.
void AddSampling(FamilyBuilder& b, int64_t world, int64_t tp,
                 int64_t sampling_dp) {
  if (sampling_dp <= 1 ||
      !b.Check(CheckDivides(sampling_dp, tp, "sampling_dp_degree"))) {
    return;
  }
  AddInnerMesh(
      b, world, tp, tp / sampling_dp,
      fmt::format("sampling DP rows (sampling_dp_degree={})", sampling_dp),
      fmt::format("sampling DP columns (sampling_dp_degree={})", sampling_dp));
}

// The TRN2 8x8 mesh rows and columns of `world` ranks as two families.
void AddTrn2Mesh(FamilyBuilder& b, int64_t world, std::string rows_name,
                 std::string columns_name) {
  b.Add(std::move(rows_name), Trn2MeshRows(world));
  b.Add(std::move(columns_name), Trn2MeshColumns(world));
}

}  // namespace

absl::StatusOr<GroupList> ContiguousGroups(int64_t world, int64_t size) {
  if (absl::Status st = CheckWorldDivides(world, size, "group size");
      !st.ok()) {
    return st;
  }
  std::vector<int64_t> ids(static_cast<size_t>(world));
  for (int64_t i = 0; i < world; ++i) ids[static_cast<size_t>(i)] = i;
  return GroupList::Uniform(world / size, size, std::move(ids));
}

absl::StatusOr<GroupList> StridedGroups(int64_t world, int64_t block,
                                        int64_t stride) {
  absl::Status st = CheckWorldDivides(world, block, "block size");
  if (st.ok()) st = CheckDivides(stride, block, "stride");
  if (!st.ok()) return st;
  std::vector<int64_t> ids;
  ids.reserve(static_cast<size_t>(world));
  for (int64_t base = 0; base < world; base += block) {
    for (int64_t t = 0; t < stride; ++t) {
      for (int64_t r = base + t; r < base + block; r += stride)
        ids.push_back(r);
    }
  }
  return GroupList::Uniform(world / (block / stride), block / stride,
                            std::move(ids));
}

absl::StatusOr<GroupList> Trn2MeshRows(int64_t world) {
  if (absl::Status st = CheckWorldDivides(world, 64, "TRN2 mesh"); !st.ok()) {
    return st;
  }
  std::vector<int64_t> ids;
  ids.reserve(static_cast<size_t>(world));
  for (int64_t q = 0; q < world; q += 16) {
    for (int64_t r = q; r < q + 4; ++r) ids.push_back(r);
    for (int64_t r = q + 12; r < q + 16; ++r) ids.push_back(r);
    for (int64_t r = q + 4; r < q + 12; ++r) ids.push_back(r);
  }
  return GroupList::Uniform(world / 8, 8, std::move(ids));
}

absl::StatusOr<GroupList> Trn2MeshColumns(int64_t world) {
  TOPOLINT_ASSIGN_OR_RETURN(GroupList rows, Trn2MeshRows(world));
  std::vector<int64_t> ids;
  ids.reserve(static_cast<size_t>(world));
  for (int64_t block = 0; block < world / 64; ++block) {
    for (int64_t j = 0; j < 8; ++j) {
      for (int64_t i = 0; i < 8; ++i) {
        ids.push_back(rows.group(block * 8 + i)[static_cast<size_t>(j)]);
      }
    }
  }
  return GroupList::Uniform(world / 8, 8, std::move(ids));
}

absl::StatusOr<GroupList> TpGroups(int64_t tp, int64_t dp) {
  TOPOLINT_ASSIGN_OR_RETURN(int64_t world, Product(tp, dp));
  return ContiguousGroups(world, tp);
}

absl::StatusOr<GroupList> ComponentTpGroups(int64_t tp, int64_t dp, int64_t c) {
  TOPOLINT_ASSIGN_OR_RETURN(int64_t world, ComponentWorld(tp, dp, c));
  return ContiguousGroups(world, tp * c);
}

absl::StatusOr<GroupList> DpColumnGroups(int64_t tp, int64_t dp, int64_t c) {
  TOPOLINT_ASSIGN_OR_RETURN(int64_t world, ComponentWorld(tp, dp, c));
  return StridedGroups(world, tp * c, tp);
}

std::string GroupFamily::DisplayName() const {
  if (aliases.empty()) return name;
  return fmt::format("{} (same groups as: {})", name,
                     absl::StrJoin(aliases, ", "));
}

absl::StatusOr<std::vector<GroupFamily>> VllmGroupFamilies(
    const VllmLayout& l) {
  TOPOLINT_ASSIGN_OR_RETURN(int64_t world, Product(l.tp, l.dp));
  FamilyBuilder b;
  b.Add(fmt::format("tp (tensor_parallel_size={})", l.tp),
        TpGroups(l.tp, l.dp));
  for (const ComponentSize& c : l.components) {
    b.Add(fmt::format("{} component TP ({}={})", c.component, c.key, c.size),
          ComponentTpGroups(l.tp, l.dp, c.size));
    b.Add(fmt::format("{} DP column ({}={})", c.component, c.key, c.size),
          DpColumnGroups(l.tp, l.dp, c.size));
  }
  b.Add(fmt::format("dp (data_parallel_size={})", l.dp),
        StridedGroups(world, world, l.tp));
  if (l.ep > 1 && b.Check(CheckDivides(l.ep, world, "ep degree"))) {
    const int64_t row = world / l.ep;
    b.Add(fmt::format("ep-tp rows (expert parallel degree {})", l.ep),
          ContiguousGroups(world, row));
    b.Add(fmt::format("ep (expert parallel degree {})", l.ep),
          StridedGroups(world, world, row));
    if (world == 64 && row == 8) {
      AddTrn2Mesh(b, world, "ep-tp rows (TRN2 8x8 mesh)",
                  "ep (TRN2 8x8 mesh columns)");
    }
  }
  AddSampling(b, world, l.tp, l.sampling_dp);
  return b.Take();
}

absl::StatusOr<std::vector<GroupFamily>> NxdiGroupFamilies(
    const NxdiLayout& l) {
  FamilyBuilder b;
  if (!b.Check(CheckWorldDivides(l.world, l.tp, "tp_degree"))) {
    return b.Take();
  }
  b.Add(fmt::format("tp (tp_degree={})", l.tp),
        ContiguousGroups(l.world, l.tp));
  struct Inner {
    int64_t degree;
    const char* key;
    const char* what;
  };
  const Inner inners[] = {
      {l.cp, "cp_degree", "CP"},
      {l.attention_dp, "attention_dp_degree", "attention DP"},
      {l.mlp_cp, "mlp_cp_degree", "MLP CP"}};
  for (const Inner& in : inners) {
    if (in.degree <= 1) continue;
    AddInnerMesh(
        b, l.world, l.tp, in.degree,
        fmt::format("TP within {} ({}={})", in.what, in.key, in.degree),
        fmt::format("{} ({}={})", in.what, in.key, in.degree));
  }
  AddSampling(b, l.world, l.tp, l.sampling_dp);
  const int64_t pp = std::max<int64_t>(l.pp, 1);
  // world / tp / pp > 1 bounds tp * pp below world: no overflow.
  if (l.world / l.tp / pp > 1 && l.world % (l.tp * pp) == 0) {
    b.Add(fmt::format("dp across TP groups (world_size={}, tp_degree={})",
                      l.world, l.tp),
          StridedGroups(l.world, l.world / pp, l.tp));
  }
  if (l.ep > 1) {
    const absl::StatusOr<int64_t> block = Product(l.tp, l.ep);
    if (b.Check(block.status())) {
      b.Add(fmt::format("ep (ep_degree={})", l.ep),
            StridedGroups(l.world, *block, l.tp));
    }
  }
  if (l.pp > 1 && b.Check(CheckDivides(l.pp, l.world, "pp_degree"))) {
    b.Add(fmt::format("pp (pp_degree={})", l.pp),
          StridedGroups(l.world, l.world, l.world / l.pp));
  }
  if (l.moe_tp > 1 || l.moe_ep > 1) {
    const absl::StatusOr<int64_t> block = Product(l.moe_tp, l.moe_ep);
    if (b.Check(block.status())) {
      b.Add(fmt::format("MoE TP (moe_tp_degree={})", l.moe_tp),
            ContiguousGroups(l.world, l.moe_tp));
      b.Add(fmt::format("MoE EP (moe_ep_degree={})", l.moe_ep),
            StridedGroups(l.world, *block, l.moe_tp));
    }
  }
  if (!l.switch_cc && l.tp == 64 && l.cp == 8) {
    AddTrn2Mesh(b, l.world, "TP within CP (TRN2 8x8 mesh rows)",
                "CP (TRN2 8x8 mesh columns)");
  }
  return b.Take();
}

VllmLayout VllmLayoutOf(const config::ParallelConfig& cfg) {
  VllmLayout l;
  l.tp = cfg.tensor_parallel_size.value;
  l.dp = cfg.data_parallel_size.value;
  for (const config::ComponentDp& c : cfg.ComponentDpSizes()) {
    l.components.push_back({c.component, c.field->key(), c.field->value});
  }
  l.ep = cfg.EffectiveEp();
  l.sampling_dp = cfg.sampling_dp_degree.value;
  return l;
}

absl::StatusOr<NxdiLayout> NxdiLayoutOf(const config::ParallelConfig& cfg) {
  std::optional<int64_t> world = cfg.WorldSize();
  if (!world.has_value()) {
    return absl::InvalidArgumentError("the config's world size overflows");
  }
  NxdiLayout l;
  l.tp = cfg.tp_degree.value;
  l.world = *world;
  l.cp = cfg.cp_degree.value;
  l.attention_dp = cfg.attention_dp_degree.value;
  l.mlp_cp = cfg.mlp_cp_degree.value;
  l.sampling_dp = cfg.sampling_dp_degree.value;
  l.pp = cfg.pp_degree.value;
  l.ep = cfg.ep_degree.value;
  l.moe_tp = cfg.moe_tp_degree.value;
  l.moe_ep = cfg.moe_ep_degree.value;
  l.switch_cc = cfg.switch_cc.value;
  return l;
}

absl::StatusOr<std::vector<GroupFamily>> GroupFamiliesOf(
    const config::ParallelConfig& cfg) {
  if (cfg.form == config::ConfigForm::kVllm) {
    return VllmGroupFamilies(VllmLayoutOf(cfg));
  }
  TOPOLINT_ASSIGN_OR_RETURN(NxdiLayout l, NxdiLayoutOf(cfg));
  return NxdiGroupFamilies(l);
}

FamilyMatcher::FamilyMatcher(std::vector<GroupFamily> families)
    : families_(std::move(families)) {
  index_.resize(families_.size());
  for (size_t f = 0; f < families_.size(); ++f) {
    Index& idx = index_[f];
    idx.sorted = families_[f].groups.WithSortedGroups();
    for (int64_t g = 0; g < idx.sorted.num_groups(); ++g) {
      for (int64_t r : idx.sorted.group(g)) {
        // Family ids are ranks in [0, kMaxFamilyRanks); anything else (a
        // hand-built family) is simply not indexed.
        if (r < 0 || r >= kMaxFamilyRanks) continue;
        const size_t at = static_cast<size_t>(r);
        if (idx.by_rank.size() <= at) idx.by_rank.resize(at + 1, -1);
        if (idx.by_rank[at] < 0) idx.by_rank[at] = g;
      }
    }
  }
}

int64_t FamilyMatcher::FindSorted(
    size_t f, absl::Span<const int64_t> sorted_group) const {
  if (sorted_group.empty()) return -1;
  const int64_t g = GroupContaining(static_cast<int>(f), sorted_group[0]);
  if (g < 0) return -1;
  absl::Span<const int64_t> members = index_[f].sorted.group(g);
  return std::equal(members.begin(), members.end(), sorted_group.begin(),
                    sorted_group.end())
             ? g
             : -1;
}

int64_t FamilyMatcher::FindGroup(int f, absl::Span<const int64_t> group) const {
  if (f < 0 || static_cast<size_t>(f) >= index_.size()) return -1;
  std::vector<int64_t> sorted(group.begin(), group.end());
  std::sort(sorted.begin(), sorted.end());
  return FindSorted(static_cast<size_t>(f), sorted);
}

int64_t FamilyMatcher::GroupContaining(int f, int64_t rank) const {
  if (f < 0 || static_cast<size_t>(f) >= index_.size()) return -1;
  const std::vector<int64_t>& by_rank = index_[static_cast<size_t>(f)].by_rank;
  if (rank < 0 || static_cast<uint64_t>(rank) >= by_rank.size()) return -1;
  return by_rank[static_cast<size_t>(rank)];
}

FamilyMatch FamilyMatcher::Match(const GroupList& groups) const {
  FamilyMatch m;
  const GroupList sorted = groups.WithSortedGroups();
  const int64_t first_size =
      groups.num_groups() > 0 ? groups.group_size(0) : -1;
  bool nearest_same_size = false;
  for (size_t f = 0; f < families_.size(); ++f) {
    const GroupList& fam = families_[f].groups;
    std::vector<bool> hit(static_cast<size_t>(fam.num_groups()), false);
    int64_t common = 0;
    bool same_order = true;
    for (int64_t g = 0; g < groups.num_groups(); ++g) {
      const int64_t fg = FindSorted(f, sorted.group(g));
      if (fg < 0) continue;
      if (!hit[static_cast<size_t>(fg)]) {
        hit[static_cast<size_t>(fg)] = true;
        ++common;
      }
      absl::Span<const int64_t> want = fam.group(fg);
      absl::Span<const int64_t> have = groups.group(g);
      if (!std::equal(want.begin(), want.end(), have.begin(), have.end())) {
        same_order = false;
      }
    }
    const int fi = static_cast<int>(f);
    if (common == groups.num_groups() && common == fam.num_groups() &&
        common > 0) {
      if (same_order && m.exact < 0) m.exact = fi;
      if (!same_order && m.same_partition < 0) m.same_partition = fi;
    }
    const bool same_size = fam.num_groups() > 0 && fam.is_uniform() &&
                           fam.group_size(0) == first_size;
    if (m.nearest < 0 || common > m.groups_in_common ||
        (common == m.groups_in_common && same_size && !nearest_same_size)) {
      m.nearest = fi;
      m.groups_in_common = common;
      nearest_same_size = same_size;
    }
  }
  return m;
}

}  // namespace topolint::model
