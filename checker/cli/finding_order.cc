#include "checker/cli/finding_order.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

bool SameNotes(const std::vector<Note>& a, const std::vector<Note>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Note& x, const Note& y) {
                      return x.loc == y.loc && x.message == y.message;
                    });
}

// Same rule, place, message, severity and notes: the same finding reported
// by two units that check one config.
bool SameFinding(const Finding& a, const Finding& b) {
  return a.rule == b.rule && a.loc == b.loc && a.message == b.message &&
         a.severity == b.severity && SameNotes(a.notes, b.notes);
}

void AppendField(std::string_view s, std::string* out) {
  *out += fmt::format("{}:{}", s.size(), s);
}

void AppendLocation(const Location& loc, std::string* out) {
  AppendField(loc.file, out);
  *out += fmt::format("{},{},{};", loc.line, loc.column, loc.byte_offset);
}

// What SameFinding compares, as one string.
std::string IdentityOf(const Finding& f) {
  std::string out;
  AppendField(f.rule, &out);
  out += fmt::format("{};", static_cast<int>(f.severity));
  AppendField(f.message, &out);
  AppendLocation(f.loc, &out);
  for (const Note& n : f.notes) {
    AppendLocation(n.loc, &out);
    AppendField(n.message, &out);
  }
  return out;
}

}  // namespace

FindingOrder::FindingOrder(const JobPlan& plan) {
  // Views into the plan's paths (a hash map: a compile cache has thousands).
  // Each path hashed once: its distinct index, and how many units list it.
  absl::flat_hash_map<std::string_view, size_t> index_of;
  size_t listings = 0;
  for (const UnitJob& job : plan.jobs) listings += job.spec.files.size();
  index_of.reserve(listings);
  std::vector<size_t> file_of;  // per listing, in plan order
  file_of.reserve(listings);
  std::vector<size_t> units_of_file;  // per distinct path
  for (const UnitJob& job : plan.jobs) {
    for (const InputFile& f : job.spec.files) {
      auto [it, added] = index_of.try_emplace(f.path, units_of_file.size());
      if (added) units_of_file.push_back(0);
      ++units_of_file[it->second];
      file_of.push_back(it->second);
    }
  }
  std::vector<std::string> key_of(plan.jobs.size());
  size_t listing = 0;
  for (size_t i = 0; i < plan.jobs.size(); ++i) {
    const std::string* own = nullptr;
    const std::string* any = nullptr;
    for (const InputFile& f : plan.jobs[i].spec.files) {
      if (any == nullptr || f.path < *any) any = &f.path;
      if (units_of_file[file_of[listing++]] == 1 &&
          (own == nullptr || f.path < *own)) {
        own = &f.path;
      }
    }
    // What discovery left out is reported at its own path, by this unit
    // alone (a skipped compile-cache entry is a unit of no files).
    for (const UncheckedInput& u : plan.jobs[i].spec.unchecked) {
      if (own == nullptr || u.path < *own) own = &u.path;
    }
    if (own != nullptr) {
      key_of[i] = *own;
    } else if (any != nullptr) {
      key_of[i] = *any;
    }
  }
  file_count_ = units_of_file.size();
  for (const auto& [file, index] : index_of) {
    if (units_of_file[index] > 1) shared_files_.insert(std::string(file));
  }
  order_.resize(plan.jobs.size());
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
  // A search's units mostly come in key order already (one per directory,
  // directories in name order): then the stable sort would change nothing.
  if (!std::is_sorted(key_of.begin(), key_of.end())) {
    std::stable_sort(order_.begin(), order_.end(),
                     [&](size_t a, size_t b) { return key_of[a] < key_of[b]; });
  }
  keys_.reserve(order_.size());
  for (size_t i : order_) keys_.push_back(std::move(key_of[i]));
}

void FindingOrder::AddShared(const std::vector<std::string>& files) {
  for (const std::string& f : files) shared_files_.insert(f);
}

void FindingOrder::Add(std::vector<Finding> findings,
                       const std::optional<std::string>& frontier,
                       std::vector<Finding>* ready) {
  const size_t middle = held_.size();
  held_.insert(held_.end(), std::make_move_iterator(findings.begin()),
               std::make_move_iterator(findings.end()));
  std::inplace_merge(held_.begin(), held_.begin() + middle, held_.end(),
                     FindingLess);
  size_t count = held_.size();
  if (frontier) {
    count = static_cast<size_t>(
        std::lower_bound(held_.begin(), held_.end(), *frontier,
                         [](const Finding& f, const std::string& file) {
                           return f.loc.file < file;
                         }) -
        held_.begin());
  }
  if (held_.size() - count > kMaxHeldFindings) {
    count = held_.size() - kMaxHeldFindings;
  }
  Release(count, ready);
}

void FindingOrder::Finish(std::vector<Finding>* ready) {
  Release(held_.size(), ready);
}

void FindingOrder::Release(size_t count, std::vector<Finding>* ready) {
  for (size_t i = 0; i < count; ++i) {
    Finding& f = held_[i];
    if (last_ && SameFinding(*last_, f)) continue;
    if (shared_files_.count(f.loc.file) &&
        !released_shared_.insert(IdentityOf(f)).second) {
      continue;
    }
    last_ = f;
    ready->push_back(std::move(f));
  }
  held_.erase(held_.begin(), held_.begin() + static_cast<ptrdiff_t>(count));
}

}  // namespace topolint::cli
