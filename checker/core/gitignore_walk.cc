#include "checker/core/gitignore_walk.h"

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "checker/core/gitignore.h"
#include "checker/diag/repo_paths.h"

namespace topolint {
namespace fs = std::filesystem;

void DropGitignored(WalkResult* walk) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (ec) return;
  const std::string cwd_text = cwd.generic_string();
  // One filter per work tree; each path given leads to one (or none).
  absl::flat_hash_map<std::string, std::unique_ptr<GitignoreFilter>> filters;
  // Per path given: its work tree's filter and the path relative to it.
  struct Given {
    GitignoreFilter* filter = nullptr;
    std::string search_root;
  };
  absl::flat_hash_map<const std::string*, Given> by_given;
  auto given_of = [&](const FoundFile& f) -> const Given* {
    const std::string* given = f.root.get();
    if (given == nullptr) return nullptr;
    auto it = by_given.find(given);
    if (it != by_given.end()) return &it->second;
    fs::path abs = fs::path(*given);
    if (abs.is_relative()) abs = cwd / abs;
    abs = abs.lexically_normal();
    std::string root = FindGitRoot(abs.string());
    Given g;
    if (!root.empty()) {
      auto& slot = filters[root];
      if (slot == nullptr) slot = std::make_unique<GitignoreFilter>(root);
      g.filter = slot.get();
      g.search_root = GitignoreSearchRoot(root, abs.generic_string());
    }
    return &by_given.emplace(given, std::move(g)).first->second;
  };
  std::vector<FoundFile> kept;
  kept.reserve(walk->files.size());
  for (FoundFile& f : walk->files) {
    const Given* given = f.named ? nullptr : given_of(f);
    GitignoreFilter* filter = given != nullptr ? given->filter : nullptr;
    if (filter != nullptr) {
      std::string rel;
      const std::string p = AbsoluteNormalPath(f.path, cwd_text);
      if (p.size() > filter->root().size() &&
          p.compare(0, filter->root().size(), filter->root()) == 0 &&
          p[filter->root().size()] == '/') {
        rel = p.substr(filter->root().size() + 1);
      }
      if (!rel.empty() &&
          filter->Ignored(rel, /*is_dir=*/false, given->search_root)) {
        walk->skipped.push_back({std::move(f.path),
                                 "ignored by .gitignore (--no-ignore reads it)",
                                 1});
        continue;
      }
    }
    kept.push_back(std::move(f));
  }
  walk->files = std::move(kept);
}

}  // namespace topolint
