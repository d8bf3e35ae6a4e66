#include "rules/xref_compare.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "checker/model/group_mode.h"
#include "checker/model/replica_groups.h"
#include "fmt/format.h"

namespace topolint::xref {
namespace {

using model::GroupList;

// Same multiset of ids.
bool SameRanksReordered(absl::Span<const int64_t> a,
                        absl::Span<const int64_t> b) {
  if (a.size() != b.size()) return false;
  std::vector<int64_t> sa(a.begin(), a.end()), sb(b.begin(), b.end());
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  return sa == sb;
}

// Same groups as sets, in any order.
bool SameGroupsReordered(const GroupList& a, const GroupList& b) {
  return a.num_groups() == b.num_groups() && a.num_ids() == b.num_ids() &&
         a.Canonical() == b.Canonical();
}

std::vector<std::pair<int64_t, int64_t>> SortedUnique(
    std::vector<std::pair<int64_t, int64_t>> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

bool HasProblemUnder(const neff::DefJson& d, std::string_view key) {
  const std::string prefix = fmt::format("CCInfo.{}", key);
  for (const neff::SchemaProblem& p : d.schema_problems) {
    if (p.anchor.empty() || p.anchor == "CCInfo") return true;
    if (!absl::StartsWith(p.anchor, prefix)) continue;
    const std::string_view rest =
        std::string_view(p.anchor).substr(prefix.size());
    if (rest.empty() || rest[0] == '[') return true;
  }
  return false;
}

}  // namespace

bool CarriesReplicaGroups(const hlo::Collective& op) {
  switch (op.kind) {
    case hlo::CollectiveKind::kCollectivePermute:
    case hlo::CollectiveKind::kSend:
    case hlo::CollectiveKind::kRecv:
      return false;
    default:
      return true;
  }
}

bool HasImplicitGroups(const hlo::Collective& op) {
  const hlo::ReplicaGroups& rg = op.replica_groups;
  return rg.form == hlo::ReplicaGroups::Form::kAbsent ||
         (rg.form == hlo::ReplicaGroups::Form::kExplicit &&
          rg.num_groups() == 0);
}

absl::StatusOr<GroupList> WrittenGroups(const hlo::Collective& op,
                                        const model::ModuleParams& p,
                                        int64_t cap) {
  if (!HasImplicitGroups(op)) {
    return model::ExpandReplicaGroups(op.replica_groups, cap);
  }
  const int64_t size = model::SubgroupSize(model::GroupModeOf(op), GroupList(),
                                           p.replica_count, p.num_partitions);
  if (size < 1) {
    return absl::InvalidArgumentError(
        "an empty replica group list stands for no participants in this mode");
  }
  if (size > cap) {
    return absl::ResourceExhaustedError(fmt::format(
        "the implied group of {} devices is larger than {}", size, cap));
  }
  std::vector<int64_t> ids(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) ids[static_cast<size_t>(i)] = i;
  return GroupList::Uniform(1, size, std::move(ids));
}

GroupList TopologyGroups(const neff::Topology& topology) {
  GroupList out;
  std::vector<int64_t> ids;
  for (int64_t g = 0; g < topology.num_groups(); ++g) {
    const absl::Span<const int32_t> group = topology.group(g);
    ids.assign(group.begin(), group.end());
    out.AppendGroup(ids);
  }
  return out;
}

std::string DescribeShape(const GroupList& groups) {
  const int64_t n = groups.num_groups();
  if (n == 0) return "no groups";
  const char* noun = n == 1 ? "group" : "groups";
  if (groups.is_uniform()) {
    return fmt::format("{} {} of {}", n, noun, groups.group_size(0));
  }
  constexpr int64_t kMaxSizes = 8;
  std::vector<int64_t> sizes;
  for (int64_t g = 0; g < n && g < kMaxSizes; ++g) {
    sizes.push_back(groups.group_size(g));
  }
  return fmt::format("{} {} of sizes {}{}", n, noun, absl::StrJoin(sizes, ", "),
                     n > kMaxSizes ? ", ..." : "");
}

GroupListDiff CompareGroupLists(const GroupList& hlo, const GroupList& neff) {
  GroupListDiff diff;
  if (hlo == neff) return diff;
  const bool uniform_sizes_differ =
      hlo.is_uniform() && neff.is_uniform() && hlo.num_groups() > 0 &&
      neff.num_groups() > 0 && hlo.group_size(0) != neff.group_size(0);
  if (hlo.num_groups() != neff.num_groups() || uniform_sizes_differ) {
    diff.kind = GroupListDiff::Kind::kShape;
    return diff;
  }
  diff.kind = GroupListDiff::Kind::kGroup;
  for (int64_t g = 0; g < hlo.num_groups(); ++g) {
    absl::Span<const int64_t> a = hlo.group(g), b = neff.group(g);
    if (a == b) continue;
    diff.group = g;
    size_t r = 0;
    while (r < a.size() && r < b.size() && a[r] == b[r]) ++r;
    diff.rank = static_cast<int64_t>(r);
    diff.same_ranks_reordered = SameRanksReordered(a, b);
    break;
  }
  diff.same_groups_reordered = SameGroupsReordered(hlo, neff);
  return diff;
}

bool IsSingleIotaGroup(const GroupList& groups) {
  if (groups.num_groups() != 1 || groups.group_size(0) < 1) return false;
  absl::Span<const int64_t> g = groups.group(0);
  for (size_t i = 0; i < g.size(); ++i) {
    if (g[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

UsableParts UsablePartsOf(const neff::DefJson& d) {
  UsableParts u;
  if (!d.has_cc_info) return u;
  u.replica_groups =
      d.all_topologies_kept() && !HasProblemUnder(d, "replica_groups");
  u.pairs = static_cast<int64_t>(d.pairs.size()) == d.pair_count &&
            !HasProblemUnder(d, "src_target_pairs");
  u.explicit_world_size = !HasProblemUnder(d, "#rank_world_size");
  return u;
}

PairSetDiff ComparePairSets(const hlo::SourceTargetPairs& hlo,
                            const std::vector<neff::Pair>& neff) {
  std::vector<std::pair<int64_t, int64_t>> n;
  n.reserve(neff.size());
  for (const neff::Pair& p : neff) n.emplace_back(p.src.value, p.dst.value);
  const auto h = SortedUnique(hlo.pairs);
  n = SortedUnique(std::move(n));
  PairSetDiff diff;
  std::set_difference(h.begin(), h.end(), n.begin(), n.end(),
                      std::back_inserter(diff.only_hlo));
  std::set_difference(n.begin(), n.end(), h.begin(), h.end(),
                      std::back_inserter(diff.only_neff));
  return diff;
}

std::string PairsToString(const std::vector<std::pair<int64_t, int64_t>>& p,
                          bool json_style, size_t max_pairs) {
  const char* open = json_style ? "[" : "{";
  const char* close = json_style ? "]" : "}";
  std::string out = open;
  for (size_t i = 0; i < p.size(); ++i) {
    if (i > 0) out += ",";
    if (i == max_pairs) {
      out += "...";
      break;
    }
    out += fmt::format("{}{},{}{}", open, p[i].first, p[i].second, close);
  }
  return out + close;
}

}  // namespace topolint::xref
