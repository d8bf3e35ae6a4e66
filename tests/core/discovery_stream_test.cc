// The streamed search (checker/core/discovery_stream.h): units handed out in
// key order, walking no further than needed.
#include "checker/core/discovery_stream.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::TempDir;

// A unit as one line: its directory and files.
std::string Line(const UnitSpec& u) {
  std::string s = u.directory + ":";
  for (const InputFile& f : u.files) s += " " + f.path;
  return s;
}

struct Streamed {
  std::vector<std::string> units;  // Line()
  std::vector<std::string> keys;
  size_t skipped_files = 0;
  size_t new_files = 0;
};

Streamed Stream(const std::string& root) {
  DiscoveryLimits limits;
  Streamed out;
  UnitStream stream(root, limits,
                    [&](SkippedPath s) { out.skipped_files += s.files; });
  for (;;) {
    StreamedUnit u;
    absl::StatusOr<bool> more = stream.Next(&u);
    EXPECT_TRUE(more.ok()) << more.status();
    if (!more.ok() || !*more) break;
    out.units.push_back(Line(u.spec));
    out.keys.push_back(u.key);
    out.new_files += u.new_files;
  }
  return out;
}

// Every fixture directory streams its units in key order.
TEST(DiscoveryStreamTest, KeysAreInOrderOnTheFixtures) {
  for (const char* root : {"/fixtures", "/fixtures/layouts"}) {
    Streamed s = Stream(std::string(TOPOLINT_SOURCE_DIR) + root);
    EXPECT_GT(s.keys.size(), 10u) << root;
    EXPECT_TRUE(std::is_sorted(s.keys.begin(), s.keys.end())) << root;
  }
}

// `a-b/` sorts before `a/` as a path ("a-b/x" < "a/x"), though "a" < "a-b"
// as a name: the walk lists directories in path order.
TEST(DiscoveryStreamTest, KeysFollowPathOrderNotNameOrder) {
  TempDir d;
  const std::string m = "HloModule m\n";
  d.Write("a/m.hlo", m);
  d.Write("a-b/m.hlo", m);
  d.Write("a.hlo", m);
  d.Write("a/z/m.hlo", m);
  d.Write("zz.hlo", m);
  // Names around '/' (0x2f) and one past ASCII, whose bytes are unsigned.
  d.Write("a0/m.hlo", m);
  d.Write("a.b/m.hlo", m);
  d.Write("ab/m.hlo", m);
  d.Write("a\xc3\xa9/m.hlo", m);
  Streamed s = Stream(d.path());
  const std::string& p = d.path();
  EXPECT_THAT(
      s.keys,
      ElementsAre(p + "/a-b/m.hlo", p + "/a.b/m.hlo", p + "/a.hlo",
                  p + "/a/m.hlo", p + "/a/z/m.hlo", p + "/a0/m.hlo",
                  p + "/ab/m.hlo", p + "/a\xc3\xa9/m.hlo", p + "/zz.hlo"));
}

// A compile cache's config above the entries is inherited by each entry,
// and is no unit of its own; a config nobody inherits is one.
TEST(DiscoveryStreamTest, InheritedConfigIsNoUnitOfItsOwn) {
  TempDir d;
  const std::string cfg =
      R"({"neuron_config": {"tp_degree": 2, "world_size": 2}})";
  d.Write("cache/neuron_config.json", cfg);
  d.Write("cache/v/MODULE_1+a/model.hlo", "HloModule m\n");
  d.Write("cache/v/MODULE_1+a/model.done", "");
  d.Write("cache/v/MODULE_2+a/model.hlo", "HloModule m\n");
  d.Write("cache/v/MODULE_2+a/model.done", "");
  d.Write("alone/neuron_config.json", cfg);
  Streamed s = Stream(d.path());
  const std::string& p = d.path();
  EXPECT_THAT(
      s.units,
      ElementsAre(
          p + "/alone: " + p + "/alone/neuron_config.json",
          p + "/cache/v/MODULE_1+a: " + p + "/cache/neuron_config.json " + p +
              "/cache/v/MODULE_1+a/model.hlo",
          p + "/cache/v/MODULE_2+a: " + p + "/cache/neuron_config.json " + p +
              "/cache/v/MODULE_2+a/model.hlo"));
  // alone/neuron_config.json, the inherited config once, two modules.
  EXPECT_EQ(s.new_files, 4u);
}

TEST(DiscoveryStreamTest, FailedAndLockedEntriesAreOneSkipUnitEach) {
  TempDir d;
  d.Write("v/MODULE_1+a/model.hlo", "HloModule m\n");
  d.Write("v/MODULE_1+a/model.log", "error\n");
  d.Write("v/MODULE_2+a/model.hlo", "HloModule m\n");
  d.Write("v/MODULE_2+a/model.hlo.lock", "");
  d.Write("v/MODULE_3+a/model.hlo", "HloModule m\n");
  d.Write("v/MODULE_3+a/model.done", "");
  Streamed s = Stream(d.path());
  // Two units of no files report the entries (at the entry's path: their
  // key), then the finished entry.
  const std::string v = d.path() + "/v";
  EXPECT_THAT(s.units,
              ElementsAre(v + "/MODULE_1+a:", v + "/MODULE_2+a:",
                          v + "/MODULE_3+a: " + v + "/MODULE_3+a/model.hlo"));
  EXPECT_THAT(s.keys, ElementsAre(v + "/MODULE_1+a", v + "/MODULE_2+a",
                                  v + "/MODULE_3+a/model.hlo"));
  EXPECT_EQ(s.skipped_files, 2u);  // the two modules (markers not counted)
}

// A skipped entry is reported at its directory's own path, which sorts
// before a sibling listed first ("MODULE_1" < "MODULE_1-b/..." although
// MODULE_1-b/ is listed before MODULE_1/): the stream waits for it.
TEST(DiscoveryStreamTest, ASkippedEntryKeepsKeyOrderBesideASiblingListedFirst) {
  TempDir d;
  d.Write("v/MODULE_1/model.hlo", "HloModule m\n");
  d.Write("v/MODULE_1/model.hlo.lock", "");
  d.Write("v/MODULE_1-b/model.hlo", "HloModule m\n");
  d.Write("v/MODULE_1-b/model.done", "");
  Streamed s = Stream(d.path());
  const std::string v = d.path() + "/v";
  EXPECT_THAT(s.keys,
              ElementsAre(v + "/MODULE_1", v + "/MODULE_1-b/model.hlo"));
}

// An NxD bucket's model/graph.hlo is grouped with the bucket's NEFF side,
// although it is listed after the bucket.
TEST(DiscoveryStreamTest, BucketWaitsForItsModelDirectory) {
  TempDir d;
  d.Write("_tp0_bk0/def.json", R"({"CCInfo": []})");
  d.Write("_tp0_bk0/model/graph.hlo", "HloModule m\n");
  d.Write("_tp0_bk0/aaa/other.hlo", "HloModule m\n");
  Streamed s = Stream(d.path());
  const std::string b = d.path() + "/_tp0_bk0";
  EXPECT_THAT(s.units, ElementsAre(b + "/aaa: " + b + "/aaa/other.hlo",
                                   b + ": " + b + "/def.json " + b +
                                       "/model/graph.hlo"));
}

// The walk lists only what the next unit needs: a search of many entries
// hands out its first unit after a few directories, not all of them (what
// keeps memory flat in the size of the tree).
TEST(DiscoveryStreamTest, WalksNoFurtherThanTheNextUnit) {
  TempDir d;
  for (int i = 0; i < 300; ++i) {
    d.Write("v/MODULE_" + std::to_string(1000 + i) + "+a/model.hlo",
            "HloModule m\n");
    d.Write("v/MODULE_" + std::to_string(1000 + i) + "+a/model.done", "");
  }
  DiscoveryLimits limits;
  UnitStream stream(d.path(), limits, [](SkippedPath) {});
  StreamedUnit u;
  ASSERT_TRUE(*stream.Next(&u));
  EXPECT_EQ(u.spec.directory, d.path() + "/v/MODULE_1000+a");
  EXPECT_LE(stream.directories_listed(), 4u);
  size_t n = 1;
  while (*stream.Next(&u)) ++n;
  EXPECT_EQ(n, 300u);
  EXPECT_EQ(stream.directories_listed(), 302u);
}

// A directory the walk cannot open is an unchecked-input unit, not a
// stderr warning. Running as root, permissions cannot make one: the test
// replaces directories after their parent was listed and before the walk
// reaches them (a file where a directory was: ENOTDIR; gone: ENOENT), which
// exercises the same open() failure a directory without permission gives
// (the CLI test CliHostileTest.UnreadableDirectoryIsAFinding covers
// EACCES where it can run as an unprivileged user).
TEST(DiscoveryStreamTest, ADirectoryThatCannotBeOpenedIsAnUncheckedInputUnit) {
  TempDir d;
  d.Write("r/a/m.hlo", "HloModule a\n");
  d.Write("r/b/m.hlo", "HloModule b\n");
  d.Write("r/c/m.hlo", "HloModule c\n");
  DiscoveryLimits limits;
  std::vector<std::string> skipped;
  UnitStream stream(d.path() + "/r", limits, [&](SkippedPath s) {
    skipped.push_back(s.path + ": " + s.reason);
  });
  ASSERT_TRUE(stream.Prime().ok());
  // r and r/a are listed; r/b and r/c are known, not opened yet.
  ASSERT_EQ(stream.directories_listed(), 2u);
  std::filesystem::remove_all(d.path() + "/r/b");
  d.Write("r/b", "now a file\n");
  std::filesystem::remove_all(d.path() + "/r/c");
  std::vector<StreamedUnit> units;
  for (;;) {
    StreamedUnit u;
    absl::StatusOr<bool> more = stream.Next(&u);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    units.push_back(std::move(u));
  }
  ASSERT_EQ(units.size(), 3u);
  EXPECT_EQ(Line(units[0].spec), d.path() + "/r/a: " + d.path() + "/r/a/m.hlo");
  const char* reasons[] = {"not a directory", "no such file or directory"};
  for (size_t i = 1; i < 3; ++i) {
    const UnitSpec& spec = units[i].spec;
    EXPECT_TRUE(IsSkipUnit(spec));
    ASSERT_EQ(spec.unchecked.size(), 1u);
    const UncheckedInput& u = spec.unchecked[0];
    EXPECT_EQ(u.kind, UncheckedInput::Kind::kNotSearched);
    EXPECT_EQ(u.path, d.path() + (i == 1 ? "/r/b" : "/r/c"));
    EXPECT_EQ(units[i].key, u.path);
    // In the settings of the directory listed above it.
    EXPECT_EQ(spec.directory, d.path() + "/r");
    EXPECT_THAT(u.message, HasSubstr(std::string("directory not searched: it "
                                                 "cannot be read (") +
                                     reasons[i - 1] + ")"));
    EXPECT_THAT(u.message, HasSubstr("expected a directory topolint can list"));
  }
  EXPECT_EQ(skipped.size(), 2u);  // --verbose lists them
}

// Directories deeper than the limit are unchecked-input units at the first
// level not searched, whatever the limit.
TEST(DiscoveryStreamTest, TooDeepIsAnUncheckedInputUnit) {
  TempDir d;
  d.Write("r/x/y/z/m.hlo", "HloModule z\n");
  d.Write("r/x/m.hlo", "HloModule x\n");
  DiscoveryLimits limits;
  limits.max_depth = 2;
  UnitStream stream(d.path() + "/r", limits, [](SkippedPath) {});
  std::vector<StreamedUnit> units;
  StreamedUnit u;
  while (*stream.Next(&u)) units.push_back(std::move(u));
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].key, d.path() + "/r/x/m.hlo");
  ASSERT_EQ(units[1].spec.unchecked.size(), 1u);
  EXPECT_EQ(units[1].spec.unchecked[0].path, d.path() + "/r/x/y/z");
  EXPECT_EQ(units[1].spec.directory, d.path() + "/r/x/y");
  EXPECT_THAT(units[1].spec.unchecked[0].message,
              HasSubstr("more than 2 directory levels below " + d.path() +
                        "/r, the search's depth limit"));
}

// One file under names in two directories (issue 43 section 8): checked
// once, in the first directory that has it; the other name is listed as
// skipped, saying which name is checked.
TEST(DiscoveryStreamTest, AFileInTwoDirectoriesIsCheckedOnce) {
  for (const bool symlink : {false, true}) {
    TempDir d;
    const std::string first = d.Write("r/a/m.hlo", "HloModule a\n");
    d.Write("r/b/other.hlo", "HloModule b\n");
    const std::string second = d.path() + "/r/b/m.hlo";
    if (symlink) {
      std::filesystem::create_symlink("../a/m.hlo", second);
    } else {
      ASSERT_EQ(::link(first.c_str(), second.c_str()), 0);
    }
    // Walked after a/: the second name in walk order, and before: the
    // symlink yields to the file itself either way.
    d.Write("r/0/keep.hlo", "HloModule keep\n");
    DiscoveryLimits limits;
    std::vector<std::string> skipped;
    UnitStream stream(d.path() + "/r", limits, [&](SkippedPath s) {
      skipped.push_back(s.path + ": " + s.reason);
    });
    std::vector<std::string> lines;
    StreamedUnit u;
    while (*stream.Next(&u)) lines.push_back(Line(u.spec));
    const std::string r = d.path() + "/r";
    EXPECT_THAT(lines,
                ElementsAre(r + "/0: " + r + "/0/keep.hlo", r + "/a: " + first,
                            r + "/b: " + r + "/b/other.hlo"))
        << symlink;
    ASSERT_EQ(skipped.size(), 1u);
    EXPECT_EQ(skipped[0], second + ": same file as " + first +
                              " (one device and inode); checked once, as " +
                              first);
  }
}

// A symlink met before the file it names (in path order) yields to it too.
TEST(DiscoveryStreamTest, ASymlinkMetFirstYieldsToTheFileItNames) {
  TempDir d;
  const std::string target = d.Write("r/z/m.hlo", "HloModule z\n");
  std::filesystem::create_directories(d.path() + "/r/a");
  std::filesystem::create_symlink("../z/m.hlo", d.path() + "/r/a/m.hlo");
  DiscoveryLimits limits;
  std::vector<std::string> skipped;
  UnitStream stream(d.path() + "/r", limits,
                    [&](SkippedPath s) { skipped.push_back(s.path); });
  std::vector<std::string> lines;
  StreamedUnit u;
  while (*stream.Next(&u)) lines.push_back(Line(u.spec));
  EXPECT_THAT(lines, ElementsAre(d.path() + "/r/z: " + target));
  EXPECT_THAT(skipped, ElementsAre(d.path() + "/r/a/m.hlo"));
}

TEST(DiscoveryStreamTest, UnreadableRootIsAnError) {
  DiscoveryLimits limits;
  UnitStream stream("/nonexistent/topolint/dir", limits, [](SkippedPath) {});
  EXPECT_FALSE(stream.Prime().ok());
  StreamedUnit u;
  EXPECT_FALSE(stream.Next(&u).ok());
}

}  // namespace
}  // namespace topolint
