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
