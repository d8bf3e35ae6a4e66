#include "checker/model/family_matcher_cache.h"

#include <atomic>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "fmt/format.h"

namespace topolint::model {
namespace {

using Shared = absl::StatusOr<std::shared_ptr<const FamilyMatcher>>;

struct Cache {
  std::mutex mu;
  std::unordered_map<std::string, Shared> by_layout;
  std::atomic<size_t> builds{0};
};

// Never destroyed: units may still be checked while static destructors run
// in a library caller's process.
Cache& TheCache() {
  static Cache* cache = new Cache;
  return *cache;
}

Shared Build(const config::ParallelConfig& cfg) {
  absl::StatusOr<std::vector<GroupFamily>> families = GroupFamiliesOf(cfg);
  if (!families.ok()) return families.status();
  return std::shared_ptr<const FamilyMatcher>(
      std::make_shared<FamilyMatcher>(*std::move(families)));
}

}  // namespace

std::string LayoutKey(const config::ParallelConfig& cfg) {
  if (cfg.form == config::ConfigForm::kVllm) {
    const VllmLayout l = VllmLayoutOf(cfg);
    std::string key =
        fmt::format("vllm {} {} {} {}", l.tp, l.dp, l.ep, l.sampling_dp);
    for (const ComponentSize& c : l.components) {
      // Names hold no spaces or '=' (they are JSON keys of the schema).
      key += fmt::format(" {}={}={}", c.component, c.key, c.size);
    }
    return key;
  }
  absl::StatusOr<NxdiLayout> l = NxdiLayoutOf(cfg);
  if (!l.ok()) return "nxdi overflow";
  return fmt::format("nxdi {} {} {} {} {} {} {} {} {} {} {}", l->tp, l->world,
                     l->cp, l->attention_dp, l->mlp_cp, l->sampling_dp, l->pp,
                     l->ep, l->moe_tp, l->moe_ep, l->switch_cc ? 1 : 0);
}

absl::StatusOr<std::shared_ptr<const FamilyMatcher>> SharedFamilyMatcher(
    const config::ParallelConfig& cfg) {
  Cache& cache = TheCache();
  std::string key = LayoutKey(cfg);
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    if (auto it = cache.by_layout.find(key); it != cache.by_layout.end()) {
      return it->second;
    }
  }
  // Built outside the lock; two threads building one layout at once both
  // get equal results, and the first one kept serves later callers.
  Shared built = Build(cfg);
  cache.builds.fetch_add(1);
  std::lock_guard<std::mutex> lock(cache.mu);
  if (cache.by_layout.size() >= kMaxCachedLayouts) return built;
  return cache.by_layout.emplace(std::move(key), std::move(built))
      .first->second;
}

size_t FamilyMatcherBuilds() { return TheCache().builds.load(); }

}  // namespace topolint::model
