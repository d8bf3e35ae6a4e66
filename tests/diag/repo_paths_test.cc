#include "checker/diag/repo_paths.h"

#include <filesystem>
#include <string>

#include "gtest/gtest.h"

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

}  // namespace
}  // namespace topolint
