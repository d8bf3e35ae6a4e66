// The directory walk (checker/core/dir_walk.h): what it lists, in which
// order, and that listing with several threads changes nothing.
#include "checker/core/dir_walk.h"

#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::TempDir;

// Everything a walk reports, flattened for comparison.
std::vector<std::string> Flat(const WalkResult& r) {
  std::vector<std::string> out;
  for (const FoundFile& f : r.files) {
    out.push_back("file " + f.path + " @" + *f.root +
                  (f.named ? " named" : ""));
  }
  for (const SkippedPath& s : r.skipped) {
    out.push_back("skip " + s.path + ": " + s.reason + " (" +
                  std::to_string(s.files) + ")");
  }
  for (const std::string& w : r.warnings) out.push_back("warn " + w);
  for (const ListedDir& d : r.listed) {
    out.push_back("dir " + d.path + (d.has_settings ? " settings" : ""));
  }
  return out;
}

WalkResult Walk(const std::vector<std::string>& paths, int jobs,
                int max_depth = 64, bool follow = false) {
  DiscoveryLimits limits;
  limits.jobs = jobs;
  limits.max_depth = max_depth;
  limits.follow_symlinks = follow;
  WalkResult r;
  absl::Status st = WalkPaths(paths, limits, &r);
  EXPECT_TRUE(st.ok()) << st;
  return r;
}

TEST(DirWalkTest, ListsDepthFirstInNameOrder) {
  TempDir d;
  d.Write("b/y.hlo", "");
  d.Write("b/x.hlo", "");
  d.Write("a/z/deep.hlo", "");
  d.Write("a/a.hlo", "");
  d.Write("top.hlo", "");
  d.Write("a/.topolint.json", "{}");
  d.Write("b/.hidden", "");
  WalkResult r = Walk({d.path()}, 1);
  const std::string& p = d.path();
  std::vector<std::string> files;
  for (const FoundFile& f : r.files) files.push_back(f.path);
  EXPECT_THAT(files,
              ElementsAre(p + "/a/a.hlo", p + "/a/z/deep.hlo", p + "/b/x.hlo",
                          p + "/b/y.hlo", p + "/top.hlo"));
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].path, p + "/b/.hidden");
  std::vector<std::string> dirs;
  for (const ListedDir& l : r.listed) {
    dirs.push_back(l.path + (l.has_settings ? "*" : ""));
  }
  EXPECT_THAT(dirs, ElementsAre(p, p + "/a*", p + "/a/z", p + "/b"));
}

// A tree wide and deep enough that several threads share the listing, with
// something of every kind the walk reports.
void BuildMixedTree(const TempDir& d) {
  for (int i = 0; i < 40; ++i) {
    std::string e = "cache/v/MODULE_" + std::to_string(1000 + i) + "/";
    d.Write(e + "model.hlo", "");
    d.Write(e + "model.done", "");
    if (i % 7 == 0) d.Write(e + ".lock", "");
    if (i % 5 == 0) d.Write(e + "sub/deeper/x.hlo", "");
  }
  d.Write("cache/.topolint.json", "{}");
  std::string deep = "deep/";
  for (int i = 0; i < 6; ++i) deep += "d" + std::to_string(i) + "/";
  d.Write(deep + "m.hlo", "");
  std::filesystem::create_directory_symlink(d.path() + "/cache/v",
                                            d.path() + "/link");
  std::filesystem::create_symlink(d.path() + "/nowhere", d.path() + "/broken");
  std::filesystem::create_symlink(d.path() + "/deep", d.path() + "/deep/loop");
}

TEST(DirWalkTest, ThreadsChangeNothing) {
  TempDir d;
  BuildMixedTree(d);
  // Named twice, and a directory inside one named before: listed once.
  std::vector<std::string> paths = {d.path(), d.path() + "/cache",
                                    d.path() + "/deep/d0"};
  std::vector<std::string> one = Flat(Walk(paths, 1, 4));
  EXPECT_THAT(one, ::testing::Contains(HasSubstr("already searched")));
  EXPECT_THAT(one, ::testing::Contains(HasSubstr("more than 4 directory")));
  EXPECT_THAT(one, ::testing::Contains(HasSubstr("broken symbolic link")));
  EXPECT_THAT(one, ::testing::Contains(HasSubstr("not followed")));
  for (int jobs : {2, 3, 8}) {
    for (int round = 0; round < 5; ++round) {
      EXPECT_EQ(Flat(Walk(paths, jobs, 4)), one) << jobs << " threads";
    }
  }
  // Following symlinks: each directory once, whatever -j says.
  std::vector<std::string> follow = Flat(Walk({d.path()}, 1, 64, true));
  EXPECT_EQ(Flat(Walk({d.path()}, 4, 64, true)), follow);
  EXPECT_THAT(follow, ::testing::Contains(HasSubstr("already searched")));
}

// One directory of many subdirectories (a compile cache's version
// directory): with several threads they are handed out while it is still
// being read, in batches, and nested ones are found meanwhile.
TEST(DirWalkTest, SubdirectoriesHandedOutWhileReadingChangeNothing) {
  TempDir d;
  for (int i = 0; i < 203; ++i) {
    std::string e = "v/MODULE_" + std::to_string(1000 + i) + "/";
    d.Write(e + "model.hlo", "");
    if (i % 9 == 0) d.Write(e + "nested/" + std::to_string(i) + ".hlo", "");
    if (i % 17 == 0) d.Write(e + ".topolint.json", "{}");
    if (i % 50 == 0) d.Write("v/file" + std::to_string(i) + ".hlo", "");
  }
  std::vector<std::string> one = Flat(Walk({d.path()}, 1));
  EXPECT_EQ(one.size(), 203u + 23u + 5u + 1u + 1u + 203u + 23u);
  for (int jobs : {2, 3, 8}) {
    for (int round = 0; round < 5; ++round) {
      EXPECT_EQ(Flat(Walk({d.path()}, jobs)), one) << jobs << " threads";
    }
  }
}

}  // namespace
}  // namespace topolint
