#include "checker/io/repo_paths.h"

#include <filesystem>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "tests/diag/temp_dir.h"

namespace topolint {
namespace {

namespace fs = std::filesystem;

// What AbsoluteNormalPath promises to equal.
std::string ByFilesystem(const std::string& path, const std::string& cwd) {
  fs::path p(path.empty() ? "." : path);
  if (p.is_relative()) p = fs::path(cwd) / p;
  return p.lexically_normal().generic_string();
}

TEST(AbsoluteNormalPathTest, EqualsTheFilesystemLibrary) {
  const char* const paths[] = {
      "",
      ".",
      "..",
      "/",
      "//",
      "a",
      "a/b",
      "a/b/",
      "a//b",
      "./a",
      "a/./b",
      "a/../b",
      "../a",
      "a/..",
      "a/.",
      "/a",
      "/a/b",
      "/a/b/",
      "/a//b",
      "/a/./b",
      "/a/../b",
      "/..",
      "/../a",
      "//a",
      "///a/b",
      ".a",
      "a.",
      "..a",
      "a..",
      "a/.b/c..",
      "a/...",
      "/x/MODULE_1+d41d8cd9/model.neff",
      "bench/out/cache/neuronxcc-2.21.18209.0+043b1bf7/MODULE_12+ab"};
  const char* const cwds[] = {"/",      "/home/u/repo", "/home/u/repo/",
                              "/w/./x", "/w/../x",      "//w"};
  for (const char* cwd : cwds) {
    for (const char* path : paths) {
      EXPECT_EQ(AbsoluteNormalPath(path, cwd), ByFilesystem(path, cwd))
          << "path '" << path << "' in '" << cwd << "'";
    }
  }
}

TEST(AbsoluteNormalPathTest, PlainPathsAreJoinedAsGiven) {
  EXPECT_EQ(AbsoluteNormalPath("a/b", "/w"), "/w/a/b");
  EXPECT_EQ(AbsoluteNormalPath("a/b", "/"), "/a/b");
  EXPECT_EQ(AbsoluteNormalPath("/a/b", "/w"), "/a/b");
  EXPECT_EQ(AbsoluteNormalPath("a/../b", "/w"), "/w/b");
}

TEST(FindGitRootTest, TheNearestDirectoryHoldingDotGit) {
  TempDir dir;
  std::filesystem::create_directories(dir.Path("repo/.git"));
  std::filesystem::create_directories(dir.Path("repo/sub/deeper"));
  const std::string repo = dir.Path("repo");
  EXPECT_EQ(FindGitRoot(repo), repo);
  EXPECT_EQ(FindGitRoot(dir.Path("repo/sub/deeper")), repo);
  // Written with a trailing '/', "." or "..": the same root, normalised.
  EXPECT_EQ(FindGitRoot(dir.Path("repo/sub/")), repo);
  EXPECT_EQ(FindGitRoot(dir.Path("repo/sub/./deeper/..")), repo);
  // A directory that does not exist (yet) is searched from all the same.
  EXPECT_EQ(FindGitRoot(dir.Path("repo/sub/missing")), repo);
  // A linked worktree (or a submodule) has a .git file, not a directory.
  std::filesystem::create_directories(dir.Path("wt/sub"));
  dir.Write("wt/.git", "gitdir: /elsewhere\n");
  EXPECT_EQ(FindGitRoot(dir.Path("wt/sub")), dir.Path("wt"));
  // Outside both: whatever holds the scratch directory itself.
  std::filesystem::create_directories(dir.Path("plain"));
  EXPECT_EQ(FindGitRoot(dir.Path("plain")),
            FindGitRoot(std::filesystem::path(dir.Path("plain"))
                            .parent_path()
                            .parent_path()
                            .string()));
  EXPECT_EQ(FindGitRoot(""), "");
}

TEST(FindGitRootTest, ARelativePathIsTakenFromTheCurrentDirectory) {
  TempDir dir;
  std::filesystem::create_directories(dir.Path("repo/.git"));
  std::filesystem::create_directories(dir.Path("repo/a/b"));
  const std::filesystem::path cwd = std::filesystem::current_path();
  // Through "..": the search goes above the relative path's first part.
  const std::string relative =
      std::filesystem::path(dir.Path("repo/a/b")).lexically_relative(cwd);
  ASSERT_FALSE(relative.empty());
  ASSERT_NE(relative[0], '/');
  EXPECT_EQ(FindGitRoot(relative), dir.Path("repo"));
  // From inside the work tree, the root is above the path as written.
  std::filesystem::current_path(dir.Path("repo/a"));
  const std::string from_b = FindGitRoot("b");
  const std::string from_dot = FindGitRoot(".");
  std::filesystem::current_path(cwd);
  EXPECT_EQ(from_b, dir.Path("repo"));
  EXPECT_EQ(from_dot, dir.Path("repo"));
}

TEST(FindGitRootTest, TheFileSystemRootEndsTheSearch) {
  // "/" has no parent; the search stops there, with "/" itself when it
  // holds .git and "" when not.
  const std::string at_root = FindGitRoot("/");
  EXPECT_TRUE(at_root.empty() || at_root == "/") << at_root;
  EXPECT_EQ(at_root, std::filesystem::exists("/.git") ? "/" : "");
}

TEST(SplitNeffMemberTest, AMemberIsSplitAtItsArchive) {
  std::string_view archive, member;
  ASSERT_TRUE(SplitNeffMember("out/m.neff:sg00/def.json", &archive, &member));
  EXPECT_EQ(archive, "out/m.neff");
  EXPECT_EQ(member, "sg00/def.json");
  EXPECT_FALSE(SplitNeffMember("out/def.json", &archive, &member));
  EXPECT_FALSE(SplitNeffMember("out/m.neff", nullptr, nullptr));
}

TEST(SplitNeffMemberTest, APathThatExistsIsNoMember) {
  // A directory named `run.neff:1` (and a file in it) is a path; an archive
  // inside it is split at its own name.
  TempDir dir;
  std::filesystem::create_directories(dir.Path("run.neff:1"));
  const std::string hlo = dir.Write("run.neff:1/model.hlo", "HloModule m\n");
  dir.Write("run.neff:1/b.neff", "");
  const std::string file = dir.Write("a.neff:b", "");
  EXPECT_FALSE(SplitNeffMember(hlo, nullptr, nullptr));
  EXPECT_FALSE(SplitNeffMember(dir.Path("run.neff:1"), nullptr, nullptr));
  EXPECT_FALSE(SplitNeffMember(file, nullptr, nullptr));
  std::string_view archive, member;
  const std::string in_dir = dir.Path("run.neff:1/b.neff:sg00/def.json");
  ASSERT_TRUE(SplitNeffMember(in_dir, &archive, &member));
  EXPECT_EQ(archive, dir.Path("run.neff:1/b.neff"));
  EXPECT_EQ(member, "sg00/def.json");
}

}  // namespace
}  // namespace topolint
