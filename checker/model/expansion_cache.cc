#include "checker/model/expansion_cache.h"

#include <utility>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "checker/model/replica_groups.h"

namespace topolint::model {
namespace {

using Form = hlo::ReplicaGroups::Form;

// Multiplies `*product` by `size`; false when `size` is not positive or the
// product overflows.
bool MultiplyBySize(int64_t size, int64_t* product) {
  return size >= 1 && !__builtin_mul_overflow(*product, size, product);
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
  int64_t product = 1;
  switch (rg.form) {
    case Form::kIota:
      if (!MultiplyBySize(rg.iota.num_groups, &product) ||
          !MultiplyBySize(rg.iota.group_size, &product)) {
        return -1;
      }
      return product;
    case Form::kMesh:
      for (const hlo::MeshAxis& a : rg.mesh.axes) {
        if (!MultiplyBySize(a.size, &product)) return -1;
      }
      return product;
    default:
      return -1;
  }
}

std::string CanonicalGroupsKey(const hlo::ReplicaGroups& rg, int64_t cap) {
  if (rg.form == Form::kIota) {
    const hlo::IotaSpec& i = rg.iota;
    return absl::StrCat("iota ", i.num_groups, ",", i.group_size,
                        " <= ", absl::StrJoin(i.reshape_dims, ","), " T ",
                        absl::StrJoin(i.perm, ","), " cap ", cap);
  }
  if (rg.form == Form::kMesh && rg.mesh.device_ids.empty()) {
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

ExpansionCache::ExpansionCache(int64_t budget, int64_t retained,
                               GroupSpecTable* specs)
    : budget_(budget),
      retained_(retained),
      own_specs_(specs == nullptr ? std::make_unique<GroupSpecTable>()
                                  : nullptr),
      specs_(specs == nullptr ? own_specs_.get() : specs) {}

ExpansionCache::~ExpansionCache() {
  Clear(expanded_);
  Clear(written_);
}

void ExpansionCache::Keep(SlotMap& slots, const GroupSpec* spec, int64_t cap,
                          std::shared_ptr<const ExpandedGroups> entry) {
  auto [it, inserted] = slots.try_emplace(std::make_pair(spec->id, cap));
  if (!inserted) return;
  it->second.spec = spec;
  it->second.entry = std::move(entry);
  specs_->Hold(spec);
}

void ExpansionCache::Clear(SlotMap& slots) {
  for (const auto& [id, slot] : slots) specs_->Release(slot.spec);
  slots.clear();
}

std::shared_ptr<ExpandedGroups> ExpansionCache::NewEntry(GroupList groups,
                                                         std::string key) {
  auto entry = std::make_shared<ExpandedGroups>();
  entry->key = std::move(key);
  entry->id = next_id_++;
  entry->groups = std::move(groups);
  entry->hash = absl::HashOf(entry->groups);
  return entry;
}

ExpansionCache::Result ExpansionCache::Expand(const hlo::ReplicaGroups& rg,
                                              int64_t cap) {
  if (rg.form != Form::kIota && rg.form != Form::kMesh) {
    return ExpandWritten(rg, cap);
  }
  Result r;
  // Null for a mesh over an explicit device_ids list: as long as its text,
  // charged but not kept.
  const GroupSpec* spec = specs_->Find(rg);
  if (spec != nullptr) {
    auto it = expanded_.find(std::make_pair(spec->id, cap));
    if (it != expanded_.end()) {
      ++hits_;
      r.groups = it->second.entry;
      return r;
    }
  }
  const int64_t n = ExpandedIdCount(rg);
  const bool fits = n >= 0 && n <= cap;
  if (fits) {
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
      Clear(expanded_);
      retained_ids_ = 0;
    }
  }
  // Sizes above `cap` (or invalid) fail here before anything is allocated.
  absl::StatusOr<GroupList> groups = ExpandReplicaGroups(rg, cap);
  if (!groups.ok()) {
    if (fits) spent_ -= n;  // nothing was expanded
    r.status = groups.status();
    return r;
  }
  const bool keep = spec != nullptr && n <= retained_ - retained_ids_;
  std::shared_ptr<ExpandedGroups> entry = NewEntry(
      *std::move(groups), spec != nullptr ? CanonicalGroupsKey(rg, cap) : "");
  r.groups = entry;
  if (keep) {
    Keep(expanded_, spec, cap, std::move(entry));
    retained_ids_ += n;
  }
  return r;
}

ExpansionCache::Result ExpansionCache::ExpandWritten(
    const hlo::ReplicaGroups& rg, int64_t cap) {
  Result r;
  const int64_t n =
      rg.form == Form::kExplicit ? static_cast<int64_t>(rg.ids().size()) : 0;
  // A written list expands to itself whenever it fits, whatever the cap.
  const GroupSpec* spec = n <= cap ? specs_->Find(rg) : nullptr;
  if (spec != nullptr) {
    auto it = written_.find(std::make_pair(spec->id, int64_t{0}));
    if (it != written_.end()) {
      r.groups = it->second.entry;
      return r;
    }
  }
  // Above `cap`, this fails without allocating the list.
  absl::StatusOr<GroupList> groups = ExpandReplicaGroups(rg, cap);
  if (!groups.ok()) {
    r.status = groups.status();
    return r;
  }
  const int64_t charge = n + kWrittenEntryOverheadIds;
  const bool keep = spec != nullptr && charge <= kMaxRetainedWrittenIds;
  // A list kept here gets ids of its own (the instruction's storage is then
  // free for the next one); one that is not shares the instruction's ids
  // for as long as a caller holds it, instead of a copy of them.
  std::shared_ptr<ExpandedGroups> entry =
      NewEntry(keep ? groups->Owned() : *std::move(groups), "");
  r.groups = entry;
  if (!keep) return r;
  if (charge > kMaxRetainedWrittenIds - retained_written_) {
    Clear(written_);
    retained_written_ = 0;
  }
  Keep(written_, spec, 0, std::move(entry));
  retained_written_ += charge;
  return r;
}

}  // namespace topolint::model
