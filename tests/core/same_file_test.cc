// One file, one identity (issue 43, section 8): names of one file in one
// unit (hard links, symlinks: one device and inode) are one input, so a
// module hard-linked under a second name still pairs with its NEFF side.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "checker/core/discovery.h"
#include "checker/core/discovery_stream.h"
#include "checker/core/layout_groups.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::TempDir;

std::vector<std::string> Paths(const UnitSpec& u) {
  std::vector<std::string> out;
  for (const InputFile& f : u.files) out.push_back(f.path);
  return out;
}

struct Found {
  std::vector<UnitSpec> units;
  DiscoveryReport report;
};

Found Discover(const std::vector<std::string>& paths) {
  Found f;
  DiscoveryLimits limits;
  absl::Status st = DiscoverUnits(paths, limits, &f.units, &f.report);
  EXPECT_TRUE(st.ok()) << st;
  return f;
}

std::vector<std::string> SkipReasons(const DiscoveryReport& r) {
  std::vector<std::string> out;
  for (const SkippedPath& s : r.skipped)
    out.push_back(s.path + ": " + s.reason);
  return out;
}

TEST(SameFileTest, AHardLinkedModuleIsOneModuleThatPairs) {
  TempDir d;
  const std::string model = d.Write("u/model.hlo", "HloModule m\n");
  ASSERT_EQ(::link(model.c_str(), (d.path() + "/u/copy.hlo").c_str()), 0);
  d.Write("u/def.json", R"({"CCInfo": {"replica_groups": [[[0]]]}})");
  const Found f = Discover({d.path() + "/u"});
  ASSERT_EQ(f.units.size(), 1u);
  // Path order keeps copy.hlo; either name, the module meets its def.json.
  EXPECT_THAT(Paths(f.units[0]),
              ElementsAre(d.path() + "/u/copy.hlo", d.path() + "/u/def.json"));
  EXPECT_THAT(f.units[0].unchecked, IsEmpty());
  EXPECT_THAT(SkipReasons(f.report),
              ElementsAre(d.path() +
                          "/u/model.hlo: model.hlo is copy.hlo (same file: one "
                          "device and inode); checked once, as " +
                          d.path() + "/u/copy.hlo"));
}

TEST(SameFileTest, ASymlinkYieldsToTheFileItNames) {
  TempDir d;
  d.Write("u/model.hlo", "HloModule m\n");
  fs::create_symlink("model.hlo", d.path() + "/u/copy.hlo");
  d.Write("u/def.json", R"({"CCInfo": {"replica_groups": [[[0]]]}})");
  const Found f = Discover({d.path() + "/u"});
  ASSERT_EQ(f.units.size(), 1u);
  EXPECT_THAT(Paths(f.units[0]),
              ElementsAre(d.path() + "/u/def.json", d.path() + "/u/model.hlo"));
  ASSERT_EQ(f.report.skipped.size(), 1u);
  EXPECT_THAT(f.report.skipped[0].reason, HasSubstr("copy.hlo is model.hlo"));
}

TEST(SameFileTest, TheNameThatPairsIsKept) {
  TempDir d;
  const std::string a = d.Write("u/a.hlo", "HloModule m\n");
  ASSERT_EQ(::link(a.c_str(), (d.path() + "/u/b.hlo").c_str()), 0);
  d.Write("u/b.neff", "not read here");
  const std::string def = d.Write("u/x.def.json", R"({"CCInfo": {}})");
  ASSERT_EQ(::link(def.c_str(), (d.path() + "/u/def.json").c_str()), 0);
  d.Write("u/c.hlo", "HloModule c\n");
  const Found f = Discover({d.path() + "/u"});
  // b.hlo pairs with b.neff; the plain def.json (not x.def.json) pairs with
  // c.hlo, the only module left.
  ASSERT_EQ(f.units.size(), 2u);
  EXPECT_THAT(Paths(f.units[0]),
              ElementsAre(d.path() + "/u/b.hlo", d.path() + "/u/b.neff"));
  EXPECT_THAT(Paths(f.units[1]),
              ElementsAre(d.path() + "/u/c.hlo", d.path() + "/u/def.json"));
  for (const UnitSpec& u : f.units) EXPECT_THAT(u.unchecked, IsEmpty());
}

TEST(SameFileTest, DistinctFilesOfOneContentStayTwo) {
  TempDir d;
  d.Write("u/model.hlo", "HloModule m\n");
  d.Write("u/copy.hlo", "HloModule m\n");  // a copy, not a link
  d.Write("u/def.json", R"({"CCInfo": {}})");
  const Found f = Discover({d.path() + "/u"});
  EXPECT_EQ(f.units.size(), 3u);
  size_t records = 0;
  for (const UnitSpec& u : f.units) records += u.unchecked.size();
  EXPECT_EQ(records, 1u);  // cannot pair: reported, not guessed
}

TEST(SameFileTest, TheStreamKeepsOneNameToo) {
  TempDir d;
  const std::string model = d.Write("u/model.hlo", "HloModule m\n");
  ASSERT_EQ(::link(model.c_str(), (d.path() + "/u/copy.hlo").c_str()), 0);
  d.Write("u/def.json", R"({"CCInfo": {}})");
  DiscoveryLimits limits;
  std::vector<SkippedPath> skipped;
  UnitStream stream(d.path() + "/u", limits,
                    [&](SkippedPath s) { skipped.push_back(std::move(s)); });
  StreamedUnit u;
  absl::StatusOr<bool> more = stream.Next(&u);
  ASSERT_TRUE(more.ok() && *more) << more.status();
  EXPECT_THAT(Paths(u.spec),
              ElementsAre(d.path() + "/u/copy.hlo", d.path() + "/u/def.json"));
  more = stream.Next(&u);
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(*more);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].path, d.path() + "/u/model.hlo");
}

}  // namespace
}  // namespace topolint
