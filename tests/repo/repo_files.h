// Test helper: the text files of the source tree, for the tests that read
// the repository itself (docs, references, the layout of tests/).
#ifndef TOPOLINT_TESTS_REPO_REPO_FILES_H_
#define TOPOLINT_TESTS_REPO_REPO_FILES_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace topolint::testing {

inline const std::filesystem::path& RepoRoot() {
  static const std::filesystem::path root = TOPOLINT_SOURCE_DIR;
  return root;
}

inline std::string ReadRepoFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// True for a directory of the tree that holds no project file: build trees
// (build*/), version control, caches and virtual environments, benchmark
// output, fuzz corpora and Python build leftovers (as .gitignore has them).
inline bool IsGeneratedDir(const std::filesystem::path& rel) {
  const std::string name = rel.filename().string();
  if (rel.has_parent_path() && rel.parent_path() == "bench" && name == "out") {
    return true;
  }
  if (!rel.has_parent_path() &&
      (name.compare(0, 5, "build") == 0 || name == "out")) {
    return true;
  }
  if (rel.has_parent_path() && rel.parent_path() == "fuzz" &&
      name.compare(0, 7, "corpus-") == 0) {
    return true;
  }
  return name == ".git" || name == ".cache" || name == ".venv" ||
         name == "__pycache__" || name == "node_modules" ||
         (name.size() > 9 &&
          name.compare(name.size() - 9, 9, ".egg-info") == 0) ||
         (rel.has_parent_path() && rel.parent_path() == "python" &&
          (name == "build" || name == "dist"));
}

struct RepoFile {
  std::string rel;   // generic path relative to the root: "docs/cli.md"
  std::string text;  // the whole file
};

// Every regular text file (no NUL byte in it) of the tree under `under`
// (relative to the root; "" for the whole tree) whose name ends in one of
// `suffixes` (all files when empty), generated directories left out.
inline std::vector<RepoFile> RepoTextFiles(
    const std::string& under, const std::vector<std::string>& suffixes) {
  namespace fs = std::filesystem;
  std::vector<RepoFile> out;
  const fs::path start = under.empty() ? RepoRoot() : RepoRoot() / under;
  std::error_code ec;
  fs::recursive_directory_iterator it(start, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path rel = it->path().lexically_relative(RepoRoot());
    if (it->is_directory() && !it->is_symlink()) {
      if (IsGeneratedDir(rel)) it.disable_recursion_pending();
      continue;
    }
    // A worktree's .git is a file naming the main checkout: not the project's.
    if (!it->is_regular_file() || it->is_symlink() ||
        rel.filename() == ".git") {
      continue;
    }
    const std::string name = rel.generic_string();
    bool wanted = suffixes.empty();
    for (const std::string& s : suffixes) {
      wanted =
          wanted || (name.size() >= s.size() &&
                     name.compare(name.size() - s.size(), s.size(), s) == 0);
    }
    if (!wanted || it->file_size() > (4u << 20)) continue;
    std::string text = ReadRepoFile(it->path());
    if (text.find('\0') != std::string::npos) continue;
    out.push_back({name, std::move(text)});
  }
  return out;
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_REPO_REPO_FILES_H_
