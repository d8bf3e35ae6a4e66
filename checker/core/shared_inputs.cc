#include "checker/core/shared_inputs.h"

#include <utility>

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

bool SameSettings(const InputFile& a, const InputFile& b) {
  return a.kind == b.kind && a.named == b.named &&
         a.from_stdin == b.from_stdin && a.force_def_json == b.force_def_json &&
         a.seen_regular == b.seen_regular;
}

}  // namespace

SharedInputs::SharedInputs(LoadFn load) : load_(std::move(load)) {}

void SharedInputs::Share(const InputFile& f) {
  if (!Shareable(f)) return;
  std::lock_guard<std::mutex> lock(entries_mu_);
  auto [it, added] = entries_.try_emplace(f.path);
  if (!added) return;
  it->second = std::make_unique<Entry>();
  it->second->file = f;
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
  if (!e.status.ok()) return e.status;
  const Unit& r = *e.result;
  AppendCopies(r.json_syntax, &unit->json_syntax);
  AppendCopies(r.def_jsons, &unit->def_jsons);
  AppendCopies(r.configs, &unit->configs);
  AppendCopies(r.compile_flags, &unit->compile_flags);
  return absl::OkStatus();
}

}  // namespace topolint
