#include "checker/core/shared_inputs.h"

#include <iterator>
#include <limits>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace topolint {
namespace {

bool Shareable(const InputFile& f) {
  return !f.named && !f.from_stdin &&
         (f.kind == InputKind::kJson || f.kind == InputKind::kCompileFlags);
}

template <typename T>
void AppendCopies(const std::vector<T>& from, std::vector<T>* to) {
  to->insert(to->end(), from.begin(), from.end());
}

template <typename T>
void AppendMoved(std::vector<T>* from, std::vector<T>* to) {
  to->insert(to->end(), std::make_move_iterator(from->begin()),
             std::make_move_iterator(from->end()));
}

}  // namespace

bool SharedInputs::SameSettings(const InputFile& a, const InputFile& b) {
  return a.kind == b.kind && a.named == b.named &&
         a.from_stdin == b.from_stdin && a.force_def_json == b.force_def_json &&
         a.seen_regular == b.seen_regular;
}

SharedInputs::SharedInputs(const std::vector<const UnitSpec*>& specs,
                           LoadFn load)
    : load_(std::move(load)) {
  // Count the units listing each file; a file listed with other settings
  // somewhere is loaded per unit (its result could differ). Most files
  // belong to one unit (a compile-cache entry's def.json and flags): they
  // are counted by view, and only the shared ones get an Entry.
  struct Use {
    const InputFile* first = nullptr;  // the first listing that may share
    size_t users = 0;
    bool mixed = false;
  };
  absl::flat_hash_map<std::string_view, Use> uses;
  uses.reserve(specs.size());
  for (const UnitSpec* spec : specs) {
    for (const InputFile& f : spec->files) {
      Use& u = uses[f.path];
      if (!Shareable(f)) {
        u.mixed = true;
        continue;
      }
      if (u.first == nullptr) {
        u.first = &f;
      } else if (!SameSettings(*u.first, f)) {
        u.mixed = true;
      }
      ++u.users;
    }
  }
  for (const auto& [path, u] : uses) {
    if (u.users > 1 && !u.mixed) {
      auto e = std::make_unique<Entry>();
      e->file = *u.first;
      e->users = u.users;
      entries_.emplace(std::string(path), std::move(e));
    }
  }
}

SharedInputs::SharedInputs(LoadFn load) : load_(std::move(load)) {}

void SharedInputs::Share(const InputFile& f) {
  if (!Shareable(f)) return;
  std::lock_guard<std::mutex> lock(entries_mu_);
  auto [it, added] = entries_.try_emplace(f.path);
  if (!added) return;
  it->second = std::make_unique<Entry>();
  it->second->file = f;
  it->second->users = std::numeric_limits<size_t>::max();
}

bool SharedInputs::Holds(const InputFile& f) const {
  std::lock_guard<std::mutex> lock(entries_mu_);
  auto it = entries_.find(f.path);
  return it != entries_.end() && SameSettings(it->second->file, f);
}

absl::Status SharedInputs::LoadInto(const InputFile& f, Unit* unit) const {
  Entry* entry;
  {
    std::lock_guard<std::mutex> lock(entries_mu_);
    entry = entries_.at(f.path).get();
  }
  Entry& e = *entry;
  std::lock_guard<std::mutex> lock(e.mu);
  if (!e.loaded) {
    e.loaded = true;
    e.result = std::make_unique<Unit>();
    e.status = load_(e.file, e.result.get());
    loads_.fetch_add(1);
  }
  const bool last = ++e.taken >= e.users;
  if (!e.status.ok()) return e.status;
  Unit& r = *e.result;
  if (last) {
    AppendMoved(&r.json_syntax, &unit->json_syntax);
    AppendMoved(&r.def_jsons, &unit->def_jsons);
    AppendMoved(&r.configs, &unit->configs);
    AppendMoved(&r.compile_flags, &unit->compile_flags);
    e.result.reset();
  } else {
    AppendCopies(r.json_syntax, &unit->json_syntax);
    AppendCopies(r.def_jsons, &unit->def_jsons);
    AppendCopies(r.configs, &unit->configs);
    AppendCopies(r.compile_flags, &unit->compile_flags);
  }
  return absl::OkStatus();
}

}  // namespace topolint
