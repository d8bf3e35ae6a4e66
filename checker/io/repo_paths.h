// Paths relative to the repository root, for reports that a code host
// places on its files (SARIF for code scanning, GitHub annotations).
#ifndef TOPOLINT_CHECKER_IO_REPO_PATHS_H_
#define TOPOLINT_CHECKER_IO_REPO_PATHS_H_

#include <string>
#include <string_view>

namespace topolint {

// The git work tree holding `dir`: the nearest directory at or above it
// holding `.git` (a directory, or the file of a linked worktree or a
// submodule), the file system's root included; absolute, normalised, no
// trailing '/'. A relative `dir` is taken against the current directory.
// Empty when there is none, when `dir` is empty, or when a relative `dir`
// has no current directory to resolve against.
std::string FindGitRoot(const std::string& dir);

// `file` as given (relative paths are relative to `cwd`, absolute), made
// relative to `root` (absolute, normalised): true and the relative path in
// `*out` when the file is under `root`; false and the absolute, normalised
// path otherwise. The path of a .neff member ("m.neff:sg00/def.json") is
// treated as one path.
bool PathUnderRoot(std::string_view file, const std::string& root,
                   const std::string& cwd, std::string* out);

// Whether `file` (a finding's file) names a member of a NEFF archive,
// "m.neff:sg00/def.json": then `*archive` is "m.neff" and `*member`
// "sg00/def.json". The name is split at its last ".neff:"; a name that
// exists on disk as it is (a directory named `run.neff:1` holding
// `model.hlo`, a file `a.neff:b`) is a path, not a member. Either output
// may be null.
bool SplitNeffMember(std::string_view file, std::string_view* archive,
                     std::string_view* member);

// `path` made absolute against `cwd` (absolute, normalised) when relative,
// and lexically normal, '/'-separated: what
// (cwd / path).lexically_normal().generic_string() gives. A path that is
// already normal (no empty, "." or ".." component, no trailing '/': every
// path a directory walk builds) is joined as a string, without
// std::filesystem, which costs ~10,000 instructions a path.
std::string AbsoluteNormalPath(std::string_view path, std::string_view cwd);

// String forms of filename() / parent_path() for generic paths without a
// trailing '/' (a walk's, an output's): "." for a bare name, "/" for a file
// at the root. Called several times per file of a walk, so no fs::path.
std::string_view BaseName(std::string_view path);
std::string_view ParentView(std::string_view path);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_IO_REPO_PATHS_H_
