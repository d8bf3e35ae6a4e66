#include "checker/model/expansion_cache.h"

#include <utility>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "checker/model/replica_groups.h"

namespace topolint::model {
namespace {

int64_t ProductOrMinusOne(const std::vector<int64_t>& sizes) {
  int64_t product = 1;
  for (int64_t s : sizes) {
    if (s < 1 || __builtin_mul_overflow(product, s, &product)) return -1;
  }
  return product;
}

}  // namespace

const IdScan& ExpandedGroups::Scan(int64_t limit) const {
  for (const IdScan& s : scans) {
    if (s.limit == limit) return s;
  }
  scans.push_back(ScanIds(groups, limit));
  return scans.back();
}

int64_t ExpandedIdCount(const hlo::ReplicaGroups& rg) {
  switch (rg.form) {
    case hlo::ReplicaGroups::Form::kIota:
      return ProductOrMinusOne({rg.iota.num_groups, rg.iota.group_size});
    case hlo::ReplicaGroups::Form::kMesh: {
      std::vector<int64_t> sizes;
      sizes.reserve(rg.mesh.axes.size());
      for (const hlo::MeshAxis& a : rg.mesh.axes) sizes.push_back(a.size);
      return ProductOrMinusOne(sizes);
    }
    default:
      return -1;
  }
}

std::string CanonicalGroupsKey(const hlo::ReplicaGroups& rg, int64_t cap) {
  if (rg.form == hlo::ReplicaGroups::Form::kIota) {
    const hlo::IotaSpec& i = rg.iota;
    return absl::StrCat("iota ", i.num_groups, ",", i.group_size, " <= ",
                        absl::StrJoin(i.reshape_dims, ","), " T ",
                        absl::StrJoin(i.perm, ","), " cap ", cap);
  }
  if (rg.form == hlo::ReplicaGroups::Form::kMesh &&
      rg.mesh.device_ids.empty()) {
    const hlo::MeshSpec& m = rg.mesh;
    // Names are length-prefixed, so no name can mimic a separator.
    std::string key = "mesh";
    for (const hlo::MeshAxis& a : m.axes) {
      absl::StrAppend(&key, " ", a.name.size(), ":", a.name, "=", a.size);
    }
    absl::StrAppend(&key, " |");
    for (const hlo::MeshAxisRef& r : m.grouped) {
      absl::StrAppend(&key, " ", r.name.size(), ":", r.name, "(", r.pre_size,
                      ")", r.size);
    }
    absl::StrAppend(&key, " | ", absl::StrJoin(m.device_ids_dims, ","), " T ",
                    absl::StrJoin(m.device_ids_perm, ","), " cap ", cap);
    return key;
  }
  return "";
}

ExpansionCache::ExpansionCache(int64_t budget, int64_t retained)
    : budget_(budget), retained_(retained) {}

ExpansionCache::Result ExpansionCache::Expand(const hlo::ReplicaGroups& rg,
                                              int64_t cap) {
  Result r;
  const bool charged = rg.form == hlo::ReplicaGroups::Form::kIota ||
                       rg.form == hlo::ReplicaGroups::Form::kMesh;
  const int64_t n = charged ? ExpandedIdCount(rg) : 0;
  std::string key;
  if (charged && n >= 0 && n <= cap) {
    key = CanonicalGroupsKey(rg, cap);
    if (!key.empty()) {
      auto it = entries_.find(key);
      if (it != entries_.end()) {
        ++hits_;
        r.groups = it->second;
        return r;
      }
    }
    if (n > budget_ - spent_) {
      r.over_budget = true;
      return r;
    }
    spent_ += n;
    ++misses_;
    // Make room before expanding, so that the new list and the old entries
    // are never held together beyond `retained_` (callers may still hold
    // the entry of the previous op).
    if (n > retained_ - retained_ids_) {
      entries_.clear();
      retained_ids_ = 0;
    }
  }
  // Sizes above `cap` (or invalid) fail here before anything is allocated.
  absl::StatusOr<GroupList> groups = ExpandReplicaGroups(rg, cap);
  if (!groups.ok()) {
    if (charged && n >= 0 && n <= cap) spent_ -= n;  // nothing was expanded
    r.status = groups.status();
    return r;
  }
  auto entry = std::make_shared<ExpandedGroups>();
  entry->key = key;
  entry->groups = *std::move(groups);
  entry->hash = absl::HashOf(entry->groups);
  r.groups = entry;
  if (!key.empty() && n <= retained_ - retained_ids_) {
    entries_.emplace(std::move(key), std::move(entry));
    retained_ids_ += n;
  }
  return r;
}

}  // namespace topolint::model
