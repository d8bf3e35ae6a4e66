#include "checker/model/group_spec_table.h"

#include <algorithm>
#include <utility>

#include "absl/hash/hash.h"
#include "absl/types/span.h"

namespace topolint::model {
namespace {

using Form = hlo::ReplicaGroups::Form;

// The specifications as absl::Hash sees them. Every variable-length part is
// followed by its length, so no two specifications hash one sequence.
struct IotaSpecRef {
  const hlo::IotaSpec& spec;
  template <typename H>
  friend H AbslHashValue(H h, const IotaSpecRef& r) {
    return H::combine(std::move(h), Form::kIota, r.spec.num_groups,
                      r.spec.group_size, r.spec.reshape_dims, r.spec.perm);
  }
};

struct MeshSpecRef {
  const hlo::MeshSpec& spec;
  template <typename H>
  friend H AbslHashValue(H h, const MeshSpecRef& r) {
    h = H::combine(std::move(h), Form::kMesh);
    for (const hlo::MeshAxis& a : r.spec.axes) {
      h = H::combine(std::move(h), a.name, a.size);
    }
    h = H::combine(std::move(h), r.spec.axes.size());
    for (const hlo::MeshAxisRef& g : r.spec.grouped) {
      h = H::combine(std::move(h), g.name, g.pre_size, g.size);
    }
    return H::combine(std::move(h), r.spec.grouped.size(),
                      r.spec.device_ids_dims, r.spec.device_ids_perm);
  }
};

// A written list as the table sees it: its groups' ends and ids (none for
// an absent list).
struct WrittenRef {
  absl::Span<const int64_t> ends;
  absl::Span<const int64_t> ids;

  explicit WrittenRef(const hlo::ReplicaGroups& rg) {
    if (rg.form == Form::kExplicit) {
      ends = rg.group_ends;
      ids = rg.ids();
    }
  }
  template <typename H>
  friend H AbslHashValue(H h, const WrittenRef& r) {
    h = H::combine(std::move(h), Form::kExplicit);
    h = H::combine_contiguous(std::move(h), r.ends.data(), r.ends.size());
    h = H::combine(std::move(h), r.ends.size());
    h = H::combine_contiguous(std::move(h), r.ids.data(), r.ids.size());
    return H::combine(std::move(h), r.ids.size());
  }
};

bool SameMesh(const hlo::MeshSpec& a, const hlo::MeshSpec& b) {
  if (a.axes.size() != b.axes.size() || a.grouped.size() != b.grouped.size() ||
      a.device_ids != b.device_ids || a.device_ids_dims != b.device_ids_dims ||
      a.device_ids_perm != b.device_ids_perm) {
    return false;
  }
  for (size_t i = 0; i < a.axes.size(); ++i) {
    if (a.axes[i].name != b.axes[i].name || a.axes[i].size != b.axes[i].size) {
      return false;
    }
  }
  for (size_t i = 0; i < a.grouped.size(); ++i) {
    const hlo::MeshAxisRef& x = a.grouped[i];
    const hlo::MeshAxisRef& y = b.grouped[i];
    if (x.name != y.name || x.pre_size != y.pre_size || x.size != y.size) {
      return false;
    }
  }
  return true;
}

bool SameWritten(const GroupSpec& spec, const WrittenRef& w) {
  return absl::Span<const int64_t>(spec.written_ends) == w.ends &&
         absl::Span<const int64_t>(spec.written) == w.ids;
}

// True when `rg` is `spec` (see GroupSpec).
bool IsSpec(const GroupSpec& spec, const hlo::ReplicaGroups& rg) {
  switch (rg.form) {
    case Form::kIota:
      return spec.form == Form::kIota &&
             spec.iota.num_groups == rg.iota.num_groups &&
             spec.iota.group_size == rg.iota.group_size &&
             spec.iota.reshape_dims == rg.iota.reshape_dims &&
             spec.iota.perm == rg.iota.perm;
    case Form::kMesh:
      return spec.form == Form::kMesh && SameMesh(spec.mesh, rg.mesh);
    default:
      return spec.form == Form::kExplicit && SameWritten(spec, WrittenRef(rg));
  }
}

}  // namespace

GroupSpecTable::GroupSpecTable() = default;
GroupSpecTable::~GroupSpecTable() = default;

const GroupSpec* GroupSpecTable::Find(const hlo::ReplicaGroups& rg) {
  if (&rg == pinned_rg_) return pinned_;
  if (const GroupSpec* const* recent = recent_.FindIf(
          [&rg](const GroupSpec* spec) { return IsSpec(*spec, rg); })) {
    return *recent;
  }
  const GroupSpec* found = FindByHash(rg);
  if (found != nullptr) recent_.Add(found, found);
  return found;
}

const GroupSpec* GroupSpecTable::FindByHash(const hlo::ReplicaGroups& rg) {
  size_t hash = 0;
  int64_t written_ids = 0;
  switch (rg.form) {
    case Form::kIota:
      hash = absl::HashOf(IotaSpecRef{rg.iota});
      break;
    case Form::kMesh:
      if (!rg.mesh.device_ids.empty()) return nullptr;
      hash = absl::HashOf(MeshSpecRef{rg.mesh});
      break;
    default: {
      const WrittenRef written(rg);
      written_ids = static_cast<int64_t>(written.ids.size());
      if (written_ids > kMaxSharedWrittenIds) return nullptr;
      hash = absl::HashOf(written);
      break;
    }
  }
  if (auto it = specs_.find(hash); it != specs_.end()) {
    const GroupSpec& spec = *it->second.spec;
    return IsSpec(spec, rg) ? &spec : nullptr;
  }
  // Sweeping costs O(table), so it waits for as many unheld specs as there
  // are held ones: O(1) amortised per new spec.
  const size_t unheld = specs_.size() - held_specs_;
  if (unheld >= std::max(kMaxUnheldSpecs, held_specs_) ||
      written_ids_since_sweep_ > kMaxUnheldWrittenIds) {
    Sweep();
  }
  auto spec = std::make_unique<GroupSpec>();
  spec->id = next_id_++;
  spec->hash = hash;
  if (rg.form == Form::kIota) {
    spec->form = Form::kIota;
    spec->iota = rg.iota;
  } else if (rg.form == Form::kMesh) {
    spec->form = Form::kMesh;
    spec->mesh = rg.mesh;
  } else {
    const WrittenRef written(rg);
    spec->written.assign(written.ids.begin(), written.ids.end());
    spec->written_ends.assign(written.ends.begin(), written.ends.end());
    spec->written_ids = written_ids;
    written_ids_since_sweep_ += written_ids;
  }
  const GroupSpec* out = spec.get();
  specs_[hash].spec = std::move(spec);
  return out;
}

void GroupSpecTable::Sweep() {
  for (auto it = specs_.begin(); it != specs_.end();) {
    if (it->second.holders == 0 && it->second.spec.get() != pinned_) {
      specs_.erase(it++);
    } else {
      ++it;
    }
  }
  recent_.Clear();
  written_ids_since_sweep_ = 0;
}

void GroupSpecTable::Hold(const GroupSpec* spec) {
  Record& r = specs_.find(spec->hash)->second;
  if (r.holders++ == 0) ++held_specs_;
}

void GroupSpecTable::Release(const GroupSpec* spec) {
  Record& r = specs_.find(spec->hash)->second;
  if (--r.holders == 0) --held_specs_;
}

GroupSpecTable::Pin::Pin(GroupSpecTable& table, const hlo::ReplicaGroups& rg)
    : table_(table) {
  table_.pinned_rg_ = nullptr;
  table_.pinned_ = table_.Find(rg);
  table_.pinned_rg_ = &rg;
}

GroupSpecTable::Pin::~Pin() {
  table_.pinned_rg_ = nullptr;
  table_.pinned_ = nullptr;
}

}  // namespace topolint::model
