// .gitignore semantics, without running git: which files a directory search
// of a git work tree leaves out (`topolint check` honours them unless
// --no-ignore, as ripgrep and ruff do).
//
// Read, in increasing precedence: `.git/info/exclude` of the work tree,
// then the `.gitignore` of the root and of each directory down to the
// path's own; within that order the last matching pattern decides. A
// pattern is a glob (path_glob.h: `*`, `?`, `[...]`, `**`); `#` starts a
// comment, `!` re-includes, a trailing `/` matches directories only, a `/`
// at the start or in the middle anchors it to its .gitignore's directory
// (else it matches a name at any depth below), `\` escapes (`\#`, `\!`,
// `\ `), and unescaped trailing blanks are dropped. As in git, nothing below
// an ignored directory can be re-included. Not read: the global excludes
// file (core.excludesFile) and .gitignore files inside submodules'
// own repositories.
#ifndef TOPOLINT_CHECKER_CORE_GITIGNORE_H_
#define TOPOLINT_CHECKER_CORE_GITIGNORE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace topolint {

// The patterns of one ignore file.
class GitignoreRules {
 public:
  // `base`: the directory of the file, relative to the work tree root
  // ("" for the root itself), '/'-separated.
  GitignoreRules(std::string_view text, std::string base);

  enum class Verdict { kNone, kIgnored, kIncluded };
  // The last of these patterns matching `rel` (relative to the root).
  Verdict Decide(std::string_view rel, bool is_dir) const;

 private:
  struct Pattern {
    std::string glob;  // relative to base when anchored, else a name glob
    bool negate = false;
    bool dir_only = false;
    bool anchored = false;
  };
  std::string base_;
  std::vector<Pattern> patterns_;
};

// The ignore files of one work tree, read on demand and kept. Not
// thread-safe.
class GitignoreFilter {
 public:
  // `root`: the absolute, normalised work tree root (repo_paths.h
  // FindGitRoot).
  // Directories whose rules and verdicts are kept: a search visits
  // directories in path order, so those it needs again are the ones on the
  // path down to where it is. Past this many both caches are emptied and
  // refilled, so that memory stays flat over a tree of any size (a
  // 20,000-entry compile cache in a work tree held 10 MiB of them).
  static constexpr size_t kMaxCachedDirs = 1024;

  explicit GitignoreFilter(std::string root,
                           size_t max_cached_dirs = kMaxCachedDirs);

  const std::string& root() const { return root_; }

  // A directory search just listed `rel_dir` (relative to the root) and
  // saw whether it holds a `.gitignore`: when it does not, none is looked
  // for there (one failed open() fewer per directory of the tree).
  void NoteListed(std::string_view rel_dir, bool has_ignore_file);

  // Whether `rel` (a path relative to the root, '/'-separated, no "." or
  // ".." components) or a directory above it is ignored. `search_root`:
  // the directory named on the command line that the search found `rel`
  // in, relative to the root ("" for the root); it and the directories
  // above it are not judged. A directory named by the user is searched
  // even when it is ignored itself or lies in an ignored directory, as
  // ripgrep does (`topolint check build/neuron-cache` in a repository that
  // ignores `build/`); the patterns still apply to what is below it.
  bool Ignored(std::string_view rel, bool is_dir,
               std::string_view search_root = {});

 private:
  bool Decide(std::string_view rel, bool is_dir);
  std::shared_ptr<const GitignoreRules> RulesOf(const std::string& dir);

  std::string root_;
  size_t max_cached_dirs_;
  std::unique_ptr<GitignoreRules> exclude_;
  // Shared, so that the chain below outlives an emptied cache.
  absl::flat_hash_map<std::string, std::shared_ptr<const GitignoreRules>>
      rules_;
  absl::flat_hash_map<std::string, bool> dir_ignored_;
  // Paths come grouped by directory. The ignore files that apply in
  // `chain_dir_` (its own first, up to the root's), and whether the
  // directories above the last path judged, `clear_dir_` (with its
  // `clear_search_root_`), were found not ignored: a path in the same
  // directory reuses both.
  std::string chain_dir_;
  bool chain_valid_ = false;
  std::vector<std::shared_ptr<const GitignoreRules>> chain_;
  std::string clear_dir_;
  std::string clear_search_root_;
  bool clear_valid_ = false;
};

// A path given to search (absolute, normalised) as GitignoreFilter::Ignored
// takes its `search_root`: relative to the work tree `root`, "" for the root
// itself or a path outside it.
std::string GitignoreSearchRoot(const std::string& root,
                                const std::string& given);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_GITIGNORE_H_
