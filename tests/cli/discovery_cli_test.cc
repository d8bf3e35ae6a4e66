// What `topolint check` does with what it finds: unrecognised named files,
// --verbose skip lists, the checked/skipped counts, directory symlinks,
// trees deeper than the limit, paths longer than PATH_MAX, and -j.
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char kModule[] = R"(HloModule m, replica_count=1, num_partitions=4

ENTRY %main (p: f32[8]) -> f32[16] {
  %p = f32[8]{0} parameter(0)
  ROOT %ag = f32[16]{0} all-gather(%p), channel_id=1, replica_groups={{0,1},{2,3}}, dimensions={0}, use_global_device_ids=true
}
)";

TEST(DiscoveryCliTest, NamedFileOfNoKnownKindIsAnError) {
  TempDir d;
  std::string notes = d.Write("notes.txt", "hello\n");
  CliResult r = RunTopolint({"check", notes});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(notes + ": not a recognised input"));
  // A JSON that is neither a def.json nor a config says so.
  std::string other = d.Write("other.json", R"({"a": 1})");
  r = RunTopolint({"check", other});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("neither a NEFF def.json"));
}

TEST(DiscoveryCliTest, SummaryCountsCheckedAndSkippedFiles) {
  TempDir d;
  d.Write("a/m.hlo", kModule);
  d.Write("a/README.md", "# notes\n");
  d.Write("a/other.json", R"({"a": 1})");
  CliResult r = RunTopolint({"check", d.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("(1 unit, 1 file checked, 2 skipped)"));
  EXPECT_THAT(r.err, Not(HasSubstr("README.md")));
}

TEST(DiscoveryCliTest, VerboseListsWhatTheSearchSkippedAndWhy) {
  TempDir d;
  d.Write("a/m.hlo", kModule);
  d.Write("a/README.md", "# notes\n");
  d.Write("a/broken.json", "{");
  d.Write("a/.hidden.hlo", kModule);
  CliResult r = RunTopolint({"check", "--verbose", d.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("skipped " + d.path() +
                               "/a/README.md: not a recognised input"));
  EXPECT_THAT(r.err, HasSubstr("skipped " + d.path() +
                               "/a/broken.json: not valid JSON"));
  EXPECT_THAT(r.err,
              HasSubstr("skipped " + d.path() + "/a/.hidden.hlo: hidden"));
}

TEST(DiscoveryCliTest, DirectorySymlinksAreNotFollowedUnlessAsked) {
  TempDir d;
  d.Write("elsewhere/m.hlo", kModule);
  d.Write("tree/own.hlo", kModule);
  std::filesystem::create_directory_symlink(d.path() + "/elsewhere",
                                            d.path() + "/tree/link");
  CliResult r = RunTopolint({"check", "--verbose", d.path() + "/tree"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("(1 unit, 1 file checked"));
  EXPECT_THAT(r.err, HasSubstr("tree/link: symbolic link to a directory; "
                               "not followed"));
  r = RunTopolint({"check", "--follow-symlinks", d.path() + "/tree"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("(2 units, 2 files checked"));
  // A symlink loop is searched once.
  std::filesystem::create_directory_symlink(d.path() + "/tree",
                                            d.path() + "/tree/loop");
  r = RunTopolint({"check", "--follow-symlinks", d.path() + "/tree"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("(2 units, 2 files checked"));
  // A symlinked directory named on the command line is searched.
  r = RunTopolint({"check", d.path() + "/tree/link"});
  EXPECT_THAT(r.err, HasSubstr("(1 unit, 1 file checked"));
}

TEST(DiscoveryCliTest, UnitsBelowTheDepthLimitAreReported) {
  TempDir d;
  std::string rel;
  for (int i = 0; i < 70; ++i) rel += "d/";
  d.Write(rel + "m.hlo", kModule);
  d.Write("top.hlo", kModule);
  std::string deep = d.path();
  for (int i = 0; i < 65; ++i) deep += "/d";
  // Streamed (one directory) and planned (two paths): an unchecked-input
  // finding at the first directory not searched, in every format.
  for (const std::vector<std::string>& paths :
       {std::vector<std::string>{d.path()},
        std::vector<std::string>{d.path(), d.path() + "/top.hlo"}}) {
    std::vector<std::string> args = {"check"};
    args.insert(args.end(), paths.begin(), paths.end());
    CliResult r = RunTopolint(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(deep +
                                 ": warning: directory not searched: "
                                 "more than 64 directory levels below " +
                                 d.path() + ", the search's depth limit"));
    EXPECT_THAT(r.out, HasSubstr("(expected at most 64 levels"));
    EXPECT_THAT(r.out, HasSubstr("[unchecked-input]"));
    EXPECT_THAT(r.err, HasSubstr("1 directory not searched"));
    EXPECT_THAT(r.err, HasSubstr("(1 unit, 1 file checked"));
    for (const char* format :
         {"json", "sarif", "junit", "github", "gitlab", "concise"}) {
      std::vector<std::string> f = {"check", "--format", format};
      f.insert(f.end(), paths.begin(), paths.end());
      r = RunTopolint(f);
      EXPECT_EQ(r.exit_code, 0) << format << r.err;
      EXPECT_THAT(r.out, HasSubstr("unchecked-input")) << format;
      EXPECT_THAT(r.out, HasSubstr("directory not searched")) << format;
      EXPECT_THAT(r.out, HasSubstr("/d/d/d/d")) << format;
    }
    // A gate can fail on it.
    std::vector<std::string> gate = {"check", "--severity",
                                     "unchecked-input=error"};
    gate.insert(gate.end(), paths.begin(), paths.end());
    EXPECT_EQ(RunTopolint(gate).exit_code, 1);
  }
}

// Builds `levels` nested directories of 200-byte names under `base` (with
// *at calls: the full path is longer than PATH_MAX) and writes m.hlo at the
// bottom. Returns false when the file system refuses.
bool MakeLongTree(const std::string& base, int levels) {
  int fd = open(base.c_str(), O_DIRECTORY | O_RDONLY);
  if (fd < 0) return false;
  std::string name(200, 'x');
  for (int i = 0; i < levels; ++i) {
    if (mkdirat(fd, name.c_str(), 0700) != 0) return false;
    int next = openat(fd, name.c_str(), O_DIRECTORY | O_RDONLY);
    close(fd);
    if (next < 0) return false;
    fd = next;
  }
  int out = openat(fd, "m.hlo", O_CREAT | O_WRONLY | O_TRUNC, 0600);
  close(fd);
  if (out < 0) return false;
  bool ok = write(out, kModule, sizeof(kModule) - 1) ==
            static_cast<ssize_t>(sizeof(kModule) - 1);
  close(out);
  return ok;
}

// Removes what MakeLongTree built (std::filesystem cannot: the paths are
// too long for it).
void RemoveLongTree(const std::string& base, int levels) {
  std::string name(200, 'x');
  for (int depth = levels; depth >= 0; --depth) {
    int fd = open(base.c_str(), O_DIRECTORY | O_RDONLY);
    for (int i = 0; i < depth && fd >= 0; ++i) {
      int next = openat(fd, name.c_str(), O_DIRECTORY | O_RDONLY);
      close(fd);
      fd = next;
    }
    if (fd < 0) continue;
    unlinkat(fd, "m.hlo", 0);
    unlinkat(fd, name.c_str(), AT_REMOVEDIR);
    close(fd);
  }
}

TEST(DiscoveryCliTest, PathsLongerThanPathMaxAreReported) {
  TempDir d;
  const int levels = PATH_MAX / 200 + 2;
  ASSERT_TRUE(MakeLongTree(d.path(), levels));
  CliResult r = RunTopolint({"check", d.path()});
  CliResult json = RunTopolint({"check", "--format", "json", d.path()});
  RemoveLongTree(d.path(), levels);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("longer than PATH_MAX"));
  EXPECT_THAT(r.out, HasSubstr("[unchecked-input]"));
  EXPECT_THAT(r.out, HasSubstr("(expected a path shorter than PATH_MAX"));
  EXPECT_THAT(r.err, HasSubstr("1 directory not searched"));
  EXPECT_THAT(json.out, HasSubstr("\"rule\": \"unchecked-input\""));
  EXPECT_THAT(json.out, HasSubstr("longer than PATH_MAX"));
}

TEST(DiscoveryCliTest, ParallelRunsGiveTheSameReport) {
  std::string cache = "fixtures/layouts/compile-cache";
  CliResult one = RunTopolint({"check", "--color", "never", "-j", "1", cache});
  CliResult two = RunTopolint({"check", "--color", "never", "-j", "2", cache});
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(one.err, two.err);
  EXPECT_EQ(one.exit_code, two.exit_code);
}

// Many units of every kind, so that -j threads share the walk, the
// classification and the checks: the reports must be byte-identical.
TEST(DiscoveryCliTest, ManyUnitsGiveTheSameBytesWithAnyJobs) {
  TempDir d;
  std::string bad = kModule;
  bad.replace(bad.find("{{0,1},{2,3}}"), 13, "{{0,1},{1,2}}");
  d.Write("cache/vllm_config.json", R"({"tensor_parallel_size": 4})");
  for (int i = 0; i < 150; ++i) {
    std::string e = "cache/v/MODULE_" + std::to_string(1000 + i) + "+d41d8cd9/";
    d.Write(e + "model.hlo", i % 3 == 0 ? bad : kModule);
    d.Write(e + "compile_flags.json", R"(["--target=trn1", "--lnc=1"])");
    if (i % 11 != 0) d.Write(e + "model.done", "");  // else: incomplete
    if (i % 13 == 0) d.Write(e + "notes.txt", "not an input\n");
  }
  for (int i = 0; i < 20; ++i) {
    std::string w = "work/" + std::to_string(i) + "/";
    d.Write(w + "a.hlo", i % 2 == 0 ? bad : kModule);
    d.Write(w + "b.hlo", kModule);
    d.Write(w + ".hidden.hlo", kModule);
    d.Write(w + "other.json", R"({"a": 1})");
  }
  d.Write("work/7/.topolint.json", R"({"rules": "-*"})");
  // Files whose content says what they are (no telling name): more than
  // one thread's share (64), among the thousand told by name.
  for (int i = 0; i < 80; ++i) {
    d.Write("sniffed/" + std::to_string(i) + "/graph",
            i % 4 == 0 ? bad : kModule);
    d.Write("sniffed/" + std::to_string(i) + "/readme", "plain text\n");
  }
  for (const char* format : {"text", "json", "sarif"}) {
    std::vector<std::string> args = {"check",    "--color", "never",
                                     "--format", format,    "--verbose",
                                     "-j",       "1",       d.path()};
    CliResult one = RunTopolint(args);
    EXPECT_EQ(one.exit_code, 1) << one.err;
    EXPECT_THAT(one.err, HasSubstr("incomplete entry"));
    EXPECT_THAT(one.err, HasSubstr("notes.txt: not a recognised input"));
    EXPECT_THAT(one.err, HasSubstr("sniffed/3/readme: not a recognised"));
    EXPECT_THAT(one.out, HasSubstr("sniffed/4/graph"));
    for (const char* jobs : {"2", "3", "8"}) {
      args[7] = jobs;
      CliResult many = RunTopolint(args);
      EXPECT_EQ(one.out, many.out) << format << " -j " << jobs;
      EXPECT_EQ(one.err, many.err) << format << " -j " << jobs;
      EXPECT_EQ(one.exit_code, many.exit_code);
    }
  }
}

// Settings at several levels of a tree of many units (the nearest
// .topolint.json wins), and a broken one: the same bytes at any -j, and the
// plan error (exit 2) before any report output.
TEST(DiscoveryCliTest, SettingsAtSeveralLevelsAndPlanErrorsWithAnyJobs) {
  TempDir d;
  std::string bad = kModule;
  bad.replace(bad.find("{{0,1},{2,3}}"), 13, "{{0,1},{1,2}}");
  d.Write(".topolint.json",
          R"({"severity": {"hlo-duplicate-device-id": "warning"}})");
  d.Write("t/a/.topolint.json", R"({"rules": "-*"})");
  d.Write("t/b/.topolint.json", R"({"werror": true})");
  for (int i = 0; i < 120; ++i) {
    const std::string n = std::to_string(i);
    const char* level = i % 3 == 0 ? "t/a/" : i % 3 == 1 ? "t/b/" : "t/c/";
    d.Write(level + n + "/m.hlo", bad);
    if (i % 10 == 0) d.Write(level + n + "/deep/" + n + "/m.hlo", bad);
  }
  std::vector<std::string> args = {"check", "--color", "never",
                                   "-j",    "1",       d.path() + "/t"};
  CliResult one = RunTopolint(args);
  EXPECT_EQ(one.exit_code, 1) << one.err;
  EXPECT_THAT(one.out, Not(HasSubstr("/t/a/")));
  EXPECT_THAT(one.out, HasSubstr("/t/b/"));
  EXPECT_THAT(one.out, HasSubstr("/t/c/"));
  for (const char* jobs : {"2", "8"}) {
    args[4] = jobs;
    CliResult many = RunTopolint(args);
    EXPECT_EQ(one.out, many.out) << "-j " << jobs;
    EXPECT_EQ(one.err, many.err) << "-j " << jobs;
    EXPECT_EQ(one.exit_code, many.exit_code);
  }
  d.Write("t/c/62/.topolint.json", R"({"lnc": "two"})");
  args[4] = "1";
  // A search of one directory streams (docs/layouts.md): the broken file is
  // exit 2 where the walk meets it, after the units before it were reported
  // (the same ones at any -j), none after it.
  CliResult error = RunTopolint(args);
  EXPECT_EQ(error.exit_code, 2) << error.err;
  EXPECT_THAT(error.err, HasSubstr("t/c/62/.topolint.json"));
  EXPECT_THAT(error.out, HasSubstr("/t/b/"));
  EXPECT_THAT(error.out, Not(HasSubstr("/t/c/62/")));
  EXPECT_THAT(error.out, Not(HasSubstr("/t/c/65/")));
  for (const char* jobs : {"2", "8"}) {
    args[4] = jobs;
    CliResult many = RunTopolint(args);
    EXPECT_EQ(many.exit_code, 2) << "-j " << jobs;
    EXPECT_EQ(error.out, many.out) << "-j " << jobs;
    EXPECT_EQ(error.err, many.err) << "-j " << jobs;
  }
  // Two paths stream as one does (issue 46 item 3: one unit pipeline; a
  // planned run used to read every settings file before reporting). t/c is
  // inside t: searched once, so the report is the one above.
  args.push_back(d.path() + "/t/c");
  for (const char* jobs : {"1", "2"}) {
    args[4] = jobs;
    CliResult two = RunTopolint(args);
    EXPECT_EQ(two.exit_code, 2) << "-j " << jobs;
    EXPECT_EQ(two.out, error.out) << "-j " << jobs;
    EXPECT_THAT(two.err, HasSubstr("t/c/62/.topolint.json"));
  }
}

// Units come from discovery sorted by directory ("m/a" before "m/a-b"),
// but their files sort the other way ("m/a-b/x.hlo" before "m/a/x.hlo"):
// the report follows the files, at any -j.
TEST(DiscoveryCliTest, ReportFollowsFileOrderWhenDirectoriesSortOtherwise) {
  TempDir d;
  std::string bad = kModule;
  bad.replace(bad.find("{{0,1},{2,3}}"), 13, "{{0,1},{1,2}}");
  d.Write("m/a/x.hlo", bad);
  d.Write("m/a-b/x.hlo", bad);
  d.Write("m/a.c/x.hlo", bad);
  CliResult one =
      RunTopolint({"check", "--color", "never", "-j", "1", d.path() + "/m"});
  EXPECT_EQ(one.exit_code, 1) << one.err;
  const size_t dash = one.out.find("m/a-b/x.hlo");
  const size_t dot = one.out.find("m/a.c/x.hlo");
  const size_t plain = one.out.find("m/a/x.hlo");
  ASSERT_NE(plain, std::string::npos) << one.out;
  EXPECT_LT(dash, dot);
  EXPECT_LT(dot, plain);
  for (const char* jobs : {"2", "8"}) {
    CliResult many =
        RunTopolint({"check", "--color", "never", "-j", jobs, d.path() + "/m"});
    EXPECT_EQ(one.out, many.out) << "-j " << jobs;
    EXPECT_EQ(one.err, many.err) << "-j " << jobs;
  }
}

TEST(DiscoveryCliTest, HelpDocumentsTheDiscoveryFlags) {
  CliResult r = RunTopolint({"--help"});
  EXPECT_THAT(r.out, HasSubstr("--verbose"));
  EXPECT_THAT(r.out, HasSubstr("--follow-symlinks"));
}

}  // namespace
}  // namespace topolint::testing
