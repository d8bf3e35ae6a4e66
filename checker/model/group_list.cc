#include "checker/model/group_list.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace topolint::model {

GroupList GroupList::Uniform(int64_t num_groups, int64_t group_size,
                             std::vector<int64_t> ids) {
  GroupList list;
  list.num_groups_ = num_groups;
  list.uniform_size_ = num_groups == 0 ? 0 : group_size;
  list.ids_ = std::move(ids);
  return list;
}

GroupList GroupList::FromGroups(
    const std::vector<std::vector<int64_t>>& groups) {
  GroupList list;
  size_t total = 0;
  for (const std::vector<int64_t>& g : groups) total += g.size();
  list.ids_.reserve(total);
  for (const std::vector<int64_t>& g : groups) list.AppendGroup(g);
  return list;
}

GroupList GroupList::Shared(std::shared_ptr<const std::vector<int64_t>> ids,
                            absl::Span<const int64_t> group_ends) {
  GroupList list;
  list.num_groups_ = static_cast<int64_t>(group_ends.size());
  int64_t begin = 0;
  for (size_t g = 0; g < group_ends.size(); ++g) {
    const int64_t size = group_ends[g] - begin;
    if (g == 0) {
      list.uniform_size_ = size;
    } else if (list.offsets_.empty() && size != list.uniform_size_) {
      // First group of a different size: explicit offsets, as AppendGroup.
      list.offsets_.reserve(group_ends.size() + 1);
      for (size_t h = 0; h <= g; ++h) {
        list.offsets_.push_back(static_cast<int64_t>(h) * list.uniform_size_);
      }
    }
    begin = group_ends[g];
    if (!list.offsets_.empty()) list.offsets_.push_back(begin);
  }
  if (ids == nullptr || begin == 0) return list;
  if (static_cast<int64_t>(ids->size()) == begin) {
    list.shared_ids_ = std::move(ids);
  } else {  // more ids than the groups hold: keep only theirs
    list.ids_.assign(ids->begin(), ids->begin() + begin);
  }
  return list;
}

GroupList GroupList::Owned() const {
  GroupList list = *this;
  if (list.shared_ids_ != nullptr) {
    list.ids_.assign(list.shared_ids_->begin(), list.shared_ids_->end());
    list.shared_ids_.reset();
  }
  return list;
}

void GroupList::AppendGroup(absl::Span<const int64_t> group) {
  if (shared_ids_ != nullptr) {
    ids_.assign(shared_ids_->begin(), shared_ids_->end());
    shared_ids_.reset();
  }
  const int64_t size = static_cast<int64_t>(group.size());
  if (num_groups_ == 0) {
    uniform_size_ = size;
  } else if (offsets_.empty() && size != uniform_size_) {
    // First group of a different size: switch to explicit offsets.
    offsets_.reserve(static_cast<size_t>(num_groups_) + 2);
    for (int64_t g = 0; g <= num_groups_; ++g) {
      offsets_.push_back(g * uniform_size_);
    }
  }
  ids_.insert(ids_.end(), group.begin(), group.end());
  ++num_groups_;
  if (!offsets_.empty()) offsets_.push_back(static_cast<int64_t>(ids_.size()));
}

int64_t GroupList::largest_group_size() const {
  if (empty()) return 0;
  if (is_uniform()) return uniform_size_;
  int64_t best = 0;
  for (int64_t g = 0; g < num_groups_; ++g)
    best = std::max(best, group_size(g));
  return best;
}

int64_t GroupList::group_start(int64_t g) const {
  return offsets_.empty() ? g * uniform_size_ : offsets_[g];
}

int64_t GroupList::group_size(int64_t g) const {
  return offsets_.empty() ? uniform_size_ : offsets_[g + 1] - offsets_[g];
}

absl::Span<const int64_t> GroupList::group(int64_t g) const {
  return ids().subspan(static_cast<size_t>(group_start(g)),
                       static_cast<size_t>(group_size(g)));
}

std::vector<std::vector<int64_t>> GroupList::ToVectors() const {
  std::vector<std::vector<int64_t>> out;
  out.reserve(static_cast<size_t>(num_groups_));
  for (int64_t g = 0; g < num_groups_; ++g) {
    absl::Span<const int64_t> s = group(g);
    out.emplace_back(s.begin(), s.end());
  }
  return out;
}

namespace {

// Appends `{a,b,...}` for `ids`, spending from `*budget`; returns false when
// the budget ran out (and `...` was written).
bool AppendBraced(absl::Span<const int64_t> ids, int64_t* budget,
                  std::string* out) {
  out->push_back('{');
  for (size_t i = 0; i < ids.size(); ++i) {
    if (*budget <= 0) {
      absl::StrAppend(out, i == 0 ? "...}" : ",...}");
      return false;
    }
    if (i > 0) out->push_back(',');
    absl::StrAppend(out, ids[i]);
    --*budget;
  }
  out->push_back('}');
  return true;
}

}  // namespace

GroupList GroupList::WithSortedGroups() const {
  GroupList out;
  std::vector<int64_t> buf;
  for (int64_t g = 0; g < num_groups_; ++g) {
    absl::Span<const int64_t> members = group(g);
    buf.assign(members.begin(), members.end());
    std::sort(buf.begin(), buf.end());
    out.AppendGroup(buf);
  }
  return out;
}

GroupList GroupList::Canonical() const {
  const GroupList sorted = WithSortedGroups();
  std::vector<int64_t> order(static_cast<size_t>(num_groups_));
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    absl::Span<const int64_t> x = sorted.group(a);
    absl::Span<const int64_t> y = sorted.group(b);
    return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end());
  });
  GroupList out;
  for (int64_t i : order) out.AppendGroup(sorted.group(i));
  return out;
}

std::string GroupList::ToString(int64_t max_ids) const {
  std::string out = "{";
  int64_t budget = std::max<int64_t>(max_ids, 1);
  for (int64_t g = 0; g < num_groups_; ++g) {
    if (g > 0) out.push_back(',');
    if (budget <= 0) {
      out += "...";
      break;
    }
    if (!AppendBraced(group(g), &budget, &out)) break;
  }
  out.push_back('}');
  return out;
}

std::string GroupList::GroupToString(int64_t g, int64_t max_ids) const {
  std::string out;
  int64_t budget = std::max<int64_t>(max_ids, 1);
  AppendBraced(group(g), &budget, &out);
  return out;
}

bool operator==(const GroupList& a, const GroupList& b) {
  if (a.num_groups_ != b.num_groups_ || a.ids() != b.ids()) return false;
  if (a.is_uniform() && b.is_uniform()) {
    return a.num_groups_ == 0 || a.uniform_size_ == b.uniform_size_;
  }
  // A non-uniform list never equals a uniform one with the same ids.
  return a.offsets_ == b.offsets_;
}

}  // namespace topolint::model
