#include "checker/core/gitignore.h"

#include <fstream>
#include <utility>

#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "checker/core/path_glob.h"

namespace topolint {
namespace {

// The directory part of `rel` (a path relative to the work tree root): ""
// for a name at the root.
std::string_view ParentOf(std::string_view rel) {
  const size_t last = rel.rfind('/');
  return last == std::string_view::npos ? std::string_view()
                                        : rel.substr(0, last);
}

// An ignore file, or "" when it cannot be read (git ignores those too).
// Ignore files are small; a huge one is read up to 1 MiB.
std::string ReadIgnoreFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::string text;
  char buf[65536];
  while (text.size() < (1u << 20) &&
         (in.read(buf, sizeof(buf)) || in.gcount() > 0)) {
    text.append(buf, static_cast<size_t>(in.gcount()));
  }
  return text;
}

// `line` without unescaped trailing blanks.
std::string_view TrimTrailingBlanks(std::string_view line) {
  size_t end = line.size();
  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t')) {
    size_t backslashes = 0;
    for (size_t i = end - 1; i > 0 && line[i - 1] == '\\'; --i) ++backslashes;
    if (backslashes % 2 == 1) break;  // "\ " keeps its blank
    --end;
  }
  return line.substr(0, end);
}

// `rel` relative to `base` ("" = the root): false when outside it.
bool Below(std::string_view rel, std::string_view base, std::string_view* out) {
  if (base.empty()) {
    *out = rel;
    return true;
  }
  if (rel.size() <= base.size() || rel.substr(0, base.size()) != base ||
      rel[base.size()] != '/') {
    return false;
  }
  *out = rel.substr(base.size() + 1);
  return true;
}

}  // namespace

GitignoreRules::GitignoreRules(std::string_view text, std::string base)
    : base_(std::move(base)) {
  for (absl::string_view piece :
       absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    std::string_view line(piece.data(), piece.size());
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    line = TrimTrailingBlanks(line);
    if (line.empty() || line[0] == '#') continue;
    Pattern p;
    if (line[0] == '!') {
      p.negate = true;
      line.remove_prefix(1);
    } else if (line[0] == '\\' && line.size() > 1 &&
               (line[1] == '!' || line[1] == '#')) {
      line.remove_prefix(1);
    }
    if (!line.empty() && line.back() == '/') {
      p.dir_only = true;
      line.remove_suffix(1);
    }
    if (line.empty()) continue;
    p.anchored = line.find('/') != std::string_view::npos;
    if (!line.empty() && line[0] == '/') line.remove_prefix(1);
    p.glob = std::string(line);
    patterns_.push_back(std::move(p));
  }
}

GitignoreRules::Verdict GitignoreRules::Decide(std::string_view rel,
                                               bool is_dir) const {
  std::string_view local;
  if (!Below(rel, base_, &local)) return Verdict::kNone;
  const size_t slash = local.rfind('/');
  const std::string_view name =
      slash == std::string_view::npos ? local : local.substr(slash + 1);
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    if (it->dir_only && !is_dir) continue;
    const bool hit = it->anchored ? GlobPathMatch(it->glob, local)
                                  : GlobComponentMatch(it->glob, name);
    if (hit) return it->negate ? Verdict::kIncluded : Verdict::kIgnored;
  }
  return Verdict::kNone;
}

GitignoreFilter::GitignoreFilter(std::string root, size_t max_cached_dirs)
    : root_(std::move(root)), max_cached_dirs_(max_cached_dirs) {
  const std::string exclude = ReadIgnoreFile(root_ + "/.git/info/exclude");
  if (!exclude.empty()) {
    exclude_ = std::make_unique<GitignoreRules>(exclude, "");
  }
}

void GitignoreFilter::NoteListed(std::string_view rel_dir,
                                 bool has_ignore_file) {
  if (has_ignore_file) return;  // read when first needed
  const std::string dir(rel_dir);
  if (rules_.find(dir) != rules_.end()) return;
  if (rules_.size() >= max_cached_dirs_) rules_.clear();
  rules_.emplace(dir, nullptr);
}

std::shared_ptr<const GitignoreRules> GitignoreFilter::RulesOf(
    const std::string& dir) {
  auto it = rules_.find(dir);
  if (it == rules_.end()) {
    if (rules_.size() >= max_cached_dirs_) rules_.clear();
    const std::string path =
        root_ + (dir.empty() ? "" : "/" + dir) + "/.gitignore";
    const std::string text = ReadIgnoreFile(path);
    std::shared_ptr<const GitignoreRules> rules;
    if (!text.empty()) rules = std::make_shared<GitignoreRules>(text, dir);
    it = rules_.emplace(dir, std::move(rules)).first;
  }
  return it->second;
}

bool GitignoreFilter::Decide(std::string_view rel, bool is_dir) {
  const std::string_view parent = ParentOf(rel);
  if (!chain_valid_ || parent != chain_dir_) {
    chain_.clear();
    std::string dir(parent);
    for (;;) {
      if (std::shared_ptr<const GitignoreRules> rules = RulesOf(dir)) {
        chain_.push_back(std::move(rules));
      }
      if (dir.empty()) break;
      const size_t slash = dir.rfind('/');
      dir.resize(slash == std::string::npos ? 0 : slash);
    }
    chain_dir_.assign(parent);
    chain_valid_ = true;
  }
  // Deepest ignore file first: the first one with a verdict decides.
  for (const std::shared_ptr<const GitignoreRules>& rules : chain_) {
    const GitignoreRules::Verdict v = rules->Decide(rel, is_dir);
    if (v != GitignoreRules::Verdict::kNone) {
      return v == GitignoreRules::Verdict::kIgnored;
    }
  }
  if (exclude_ != nullptr) {
    return exclude_->Decide(rel, is_dir) == GitignoreRules::Verdict::kIgnored;
  }
  return false;
}

bool GitignoreFilter::Ignored(std::string_view rel, bool is_dir,
                              std::string_view search_root) {
  // The search root and what is above it are not judged: start below it.
  size_t from = 0;
  if (!search_root.empty() && rel.size() > search_root.size() &&
      rel.compare(0, search_root.size(), search_root) == 0 &&
      rel[search_root.size()] == '/') {
    from = search_root.size() + 1;
  }
  const std::string_view parent = ParentOf(rel);
  if (!clear_valid_ || parent != clear_dir_ ||
      search_root != clear_search_root_) {
    // Each directory above, from the top (an ignored one hides all below).
    for (size_t slash = rel.find('/', from); slash != std::string_view::npos;
         slash = rel.find('/', slash + 1)) {
      const std::string_view dir = rel.substr(0, slash);
      auto it = dir_ignored_.find(absl::string_view(dir.data(), dir.size()));
      if (it == dir_ignored_.end()) {
        const bool ignored = Decide(dir, /*is_dir=*/true);
        if (dir_ignored_.size() >= max_cached_dirs_) dir_ignored_.clear();
        it = dir_ignored_.emplace(std::string(dir), ignored).first;
      }
      if (it->second) return true;
    }
    clear_dir_.assign(parent);
    clear_search_root_.assign(search_root);
    clear_valid_ = true;
  }
  return Decide(rel, is_dir);
}

std::string GitignoreSearchRoot(const std::string& root,
                                const std::string& given) {
  std::string_view g = given;
  std::string_view r = root;
  while (g.size() > 1 && g.back() == '/') g.remove_suffix(1);
  while (!r.empty() && r.back() == '/') r.remove_suffix(1);  // "/" -> ""
  if (g.size() <= r.size() || g.compare(0, r.size(), r) != 0 ||
      g[r.size()] != '/') {
    return "";
  }
  return std::string(g.substr(r.size() + 1));
}

}  // namespace topolint
