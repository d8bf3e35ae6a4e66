// `check --fix / --diff` never damages a file (issue 43): an edit applies
// where the rule saw its bytes, whatever the line ends; a file reached by
// two names is fixed once; nothing is written before the run is known not to
// end in a usage error; a failed write names what was rewritten; the owner
// stays; pipes are reported, not fixed; the diff goes to -o and applies with
// patch -p0 whatever the names.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

namespace fs = std::filesystem;
using testing::ReadAll;
using testing::RunTopolint;
using testing::ShellQuote;
using testing::TempDir;

// Runs `script` with bash (process substitution, ulimit) in `cwd`; `$T` is
// the topolint binary.
testing::CliResult RunBash(const std::string& script, const std::string& cwd) {
  static int counter = 0;
  const std::string base = (fs::temp_directory_path() /
                            ("topolint-fix-safety-" + std::to_string(getpid()) +
                             "-" + std::to_string(counter++)))
                               .string();
  const std::string cmd =
      "cd " + ShellQuote(cwd) + " && T=" + ShellQuote(TOPOLINT_BINARY) +
      " bash -c " + ShellQuote(script) + " >" + ShellQuote(base + ".out") +
      " 2>" + ShellQuote(base + ".err") + " </dev/null";
  const int status = std::system(cmd.c_str());
  testing::CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadAll(base + ".out");
  r.err = ReadAll(base + ".err");
  fs::remove(base + ".out");
  fs::remove(base + ".err");
  return r;
}

// A module whose line 1 is a stale suppression (nothing on line 2 is
// silenced), then a module with an error that a second suppression
// silences: with line ends `nl`.
std::string StaleFirstLine(const std::string& nl) {
  return "// topolint: disable-next-line=hlo-empty-group" + nl +
         "HloModule m, replica_count=2" + nl + nl + "ENTRY e {" + nl +
         "  ROOT p = f32[8] parameter(0)" + nl + "}" + nl;
}

TEST(FixLineEndsTest, ACrOnlyModuleLosesOnlyItsStaleFirstLine) {
  TempDir dir;
  const std::string file = dir.Write("m.hlo", StaleFirstLine("\r"));
  testing::CliResult r = RunTopolint({"check", "--fix", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1 fixed, 0 remaining"), std::string::npos) << r.err;
  EXPECT_EQ(ReadAll(file),
            "HloModule m, replica_count=2\r\rENTRY e {\r"
            "  ROOT p = f32[8] parameter(0)\r}\r");
}

TEST(FixLineEndsTest, TheHeaderAfterACommentEndedByALoneCrStays) {
  TempDir dir;
  // The comment ends at a lone CR; the rest of the file has LF line ends.
  std::string text = StaleFirstLine("\n");
  text[text.find('\n')] = '\r';
  const std::string file = dir.Write("m.hlo", text);
  testing::CliResult r = RunTopolint({"check", "--fix", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadAll(file),
            "HloModule m, replica_count=2\n\nENTRY e {\n"
            "  ROOT p = f32[8] parameter(0)\n}\n");
}

// A used suppression (of an hlo-group-coverage error) right after a stale
// one; `first_line_end` ends the header line.
std::string UsedAfterStale(const std::string& first_line_end) {
  return "HloModule m, replica_count=4" + first_line_end +
         "\n"
         "ENTRY e {\n"
         "  p = f32[8] parameter(0)\n"
         "  // topolint: disable-next-line=hlo-empty-group\n"
         "  // topolint: disable-next-line=hlo-group-coverage\n"
         "  ROOT ar = f32[8] all-reduce(p), replica_groups={{0,1}}, "
         "to_apply=add\n"
         "}\n";
}

TEST(FixLineEndsTest, ACrCrLfEarlierInTheFileMovesNothing) {
  TempDir dir;
  const std::string file = dir.Write("m.hlo", UsedAfterStale("\r\r\n"));
  testing::CliResult r = RunTopolint({"check", "--fix", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string after = ReadAll(file);
  EXPECT_EQ(after.find("hlo-empty-group"), std::string::npos) << after;
  EXPECT_NE(after.find("// topolint: disable-next-line=hlo-group-coverage\n"),
            std::string::npos)
      << "the used suppression stays:\n"
      << after;
}

TEST(FixLineEndsTest, AByteOrderMarkIsCountedAndKept) {
  TempDir dir;
  const std::string file =
      dir.Write("m.hlo", "\xEF\xBB\xBF" + StaleFirstLine("\n"));
  testing::CliResult check = RunTopolint({"check", file});
  EXPECT_NE(check.err.find("1 fixable with --fix"), std::string::npos)
      << check.err;
  testing::CliResult r = RunTopolint({"check", "--fix", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1 fixed, 0 remaining"), std::string::npos) << r.err;
  EXPECT_EQ(ReadAll(file),
            "\xEF\xBB\xBFHloModule m, replica_count=2\n\nENTRY e {\n"
            "  ROOT p = f32[8] parameter(0)\n}\n");
}

TEST(FixLineEndsTest, ACommentTooLongToCheckGetsNoFix) {
  TempDir dir;
  std::string text = StaleFirstLine("\n");
  text.insert(text.find('\n'), " " + std::string(5000, 'x'));
  const std::string file = dir.Write("m.hlo", text);
  testing::CliResult check = RunTopolint({"check", file});
  EXPECT_NE(check.out.find("unused-suppression"), std::string::npos);
  EXPECT_EQ(check.err.find("fixable"), std::string::npos) << check.err;
  testing::CliResult r = RunTopolint({"check", "--fix", file});
  EXPECT_EQ(ReadAll(file), text);
}

constexpr char kTypoConfig[] =
    "{\n"
    "  \"neuron_config\": {\n"
    "    \"tp_degree\": 8,\n"
    "    KEYS\n"
    "  }\n"
    "}\n";

std::string Config(const std::string& keys) {
  std::string text = kTypoConfig;
  text.replace(text.find("KEYS"), 4, keys);
  return text;
}

TEST(FixConfigKeysTest, AnEscapedKeyIsNeitherCountedNorFixed) {
  TempDir dir;
  const std::string text = Config("\"mlp_dp_szi\\u0065\": 2");
  const std::string file = dir.Write("neuron_config.json", text);
  testing::CliResult check = RunTopolint({"check", file});
  EXPECT_NE(check.out.find("config-unknown-key"), std::string::npos)
      << check.out;
  EXPECT_EQ(check.err.find("fixable"), std::string::npos) << check.err;
  testing::CliResult json = RunTopolint({"check", "--format", "json", file});
  EXPECT_EQ(json.out.find("\"fix\""), std::string::npos) << json.out;
  testing::CliResult r = RunTopolint({"check", "--fix", file});
  EXPECT_EQ(r.err.find("not applied"), std::string::npos) << r.err;
  EXPECT_EQ(ReadAll(file), text);
  // Written plainly, the same key is fixed, and JSON gives the edit's
  // offset and the bytes it replaces.
  const std::string plain = Config("\"mlp_dp_szie\": 2");
  testing::WriteAll(file, plain);
  json = RunTopolint({"check", "--format", "json", file});
  EXPECT_NE(json.out.find("\"offset\": " +
                          std::to_string(plain.find("\"mlp_dp_szie\""))),
            std::string::npos)
      << json.out;
  r = RunTopolint({"check", "--fix", file});
  EXPECT_NE(r.err.find("1 fixed"), std::string::npos) << r.err;
  EXPECT_EQ(ReadAll(file), Config("\"mlp_dp_size\": 2"));
}

TEST(FixConfigKeysTest, TwoIdenticalTypoKeysAreNotBothRenamed) {
  TempDir dir;
  const std::string text =
      Config("\"mlp_dp_szie\": 2,\n    \"mlp_dp_szie\": 2");
  const std::string file = dir.Write("neuron_config.json", text);
  testing::CliResult check = RunTopolint({"check", file});
  EXPECT_EQ(check.err.find("fixable"), std::string::npos) << check.err;
  RunTopolint({"check", "--fix", file});
  EXPECT_EQ(ReadAll(file), text);
}

TEST(FixIdentityTest, AFileReachedByTwoNamesIsFixedOnce) {
  TempDir dir;
  {
    // A search that meets the module under two names (b/m.hlo is a symlink
    // to a/m.hlo): before, the second fix removed the used suppression.
    const std::string file = dir.Write("tree/a/m.hlo", UsedAfterStale("\n"));
    fs::create_directories(dir.path() + "/tree/b");
    fs::create_symlink("../a/m.hlo", dir.path() + "/tree/b/m.hlo");
    testing::CliResult r =
        RunTopolint({"check", "--fix", dir.path() + "/tree"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::string after = ReadAll(file);
    EXPECT_EQ(after.find("hlo-empty-group"), std::string::npos) << after;
    EXPECT_NE(after.find("disable-next-line=hlo-group-coverage"),
              std::string::npos)
        << after;
    // One finding: b/m.hlo is a/m.hlo, reported once (issue 43 section 8;
    // "2 fixed" counted the finding once per name).
    EXPECT_NE(r.err.find("1 fixed, 0 remaining"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_symlink(dir.path() + "/tree/b/m.hlo"));
  }
  // Stale suppression on line 5, used one on line 6: fixing the file twice
  // (once per name) removed the used one the second time.
  const std::string file = dir.Write("real/m.hlo", UsedAfterStale("\n"));
  const std::string link = dir.path() + "/link.hlo";
  fs::create_symlink(file, link);
  const std::string hard = dir.path() + "/hard.hlo";
  fs::create_hard_link(file, hard);
  testing::CliResult r = RunTopolint({"check", "--fix", file, link});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string after = ReadAll(file);
  EXPECT_EQ(after.find("hlo-empty-group"), std::string::npos) << after;
  EXPECT_NE(after.find("disable-next-line=hlo-group-coverage"),
            std::string::npos)
      << after;
  EXPECT_TRUE(fs::is_symlink(link));
  // A hard link: the same, once.
  testing::WriteAll(file, UsedAfterStale("\n"));
  fs::remove(hard);
  fs::create_hard_link(file, hard);
  r = RunTopolint({"check", "--fix", hard, file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(ReadAll(hard).find("disable-next-line=hlo-group-coverage"),
            std::string::npos);
  EXPECT_EQ(ReadAll(hard).find("hlo-empty-group"), std::string::npos);
}

constexpr char kStale[] =
    "HloModule m, replica_count=2\n"
    "\n"
    "ENTRY e {\n"
    "  // topolint: disable-next-line=hlo-empty-group\n"
    "  ROOT p = f32[8] parameter(0)\n"
    "}\n";

// Issue 43: these wrote the fixes, then failed with exit 2.
TEST(FixBeforeWritingTest, AUsageErrorWritesNothing) {
  TempDir dir;
  const std::string file = dir.Write("m/model.hlo", kStale);
  const std::vector<std::vector<std::string>> cases = {
      {"check", "--fix", "-o", file, file},
      {"check", "--fix", "--baseline", dir.path() + "/missing.json", file},
      {"check", "--fix", "--write-baseline",
       dir.path() + "/no/such/dir/baseline.json", file},
      {"check", "--fix", "--write-baseline", dir.path() + "/m", file},
  };
  for (const std::vector<std::string>& args : cases) {
    testing::CliResult r = RunTopolint(args);
    EXPECT_EQ(r.exit_code, 2) << args[3] << ": " << r.err;
    EXPECT_EQ(ReadAll(file), kStale) << args[2] << " " << args[3];
  }
}

TEST(FixBeforeWritingTest, TheBaselineKeepsWhatItAccepts) {
  TempDir dir;
  const std::string file = dir.Write("m/model.hlo", kStale);
  const std::string baseline = dir.path() + "/baseline.json";
  testing::CliResult r =
      RunTopolint({"check", "--write-baseline", baseline, file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunTopolint({"check", "--fix", "--baseline", baseline, file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadAll(file), kStale) << "the baseline accepts that finding";
  EXPECT_NE(r.err.find("0 fixed, 0 remaining; 1 left as the baseline accepts "
                       "it"),
            std::string::npos)
      << r.err;
  r = RunTopolint({"check", "--diff", "--baseline", baseline, file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  // Without the baseline it goes.
  r = RunTopolint({"check", "--fix", file});
  EXPECT_EQ(ReadAll(file).find("topolint:"), std::string::npos);
}

// A write that fails on file 2 of 3 (RLIMIT_FSIZE: it is larger than the
// limit): the files before it stay rewritten, the one after it is still
// written, and the message names both; exit 2. The name is printed with its
// control bytes escaped.
TEST(FixWriteFailureTest, SaysWhatWasRewrittenAndTriesTheRest) {
  TempDir dir;
  const std::string a = dir.Write("a.hlo", kStale);
  std::string large = kStale;
  large += "// " + std::string(20000, 'x') + "\n";
  const std::string b_name = "b\x1b]0;owned\x07.hlo";
  const std::string b = dir.Write(b_name, large);
  const std::string c = dir.Write("c.hlo", kStale);
  testing::CliResult r = RunBash(
      "ulimit -f 8; \"$T\" check --fix a.hlo \"$(printf 'b\\033]0;owned\\007."
      "hlo')\" c.hlo",
      dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(ReadAll(a).find("topolint:"), std::string::npos);
  EXPECT_EQ(ReadAll(b), large) << "the failed file is left as it was";
  EXPECT_EQ(ReadAll(c).find("topolint:"), std::string::npos)
      << "the file after the failure is still fixed";
  EXPECT_NE(r.err.find("1 file not written (b<U+001B>]0;owned<U+0007>.hlo); "
                       "2 files rewritten: a.hlo, c.hlo"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "no raw ESC";
  EXPECT_EQ(r.err.find('\x07'), std::string::npos) << "no raw BEL";
  // No temporary file left behind.
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 3u);
}

TEST(FixOwnerTest, RootKeepsTheFilesOwnerAndGroup) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a file away";
  TempDir dir;
  const std::string file = dir.Write("m/model.hlo", kStale);
  ASSERT_EQ(chown(file.c_str(), 12345, 12346), 0);
  ASSERT_EQ(chmod(file.c_str(), 0604), 0);
  testing::CliResult r = RunTopolint({"check", "--fix", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadAll(file).find("topolint:"), std::string::npos);
  struct stat st;
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 12345u);
  EXPECT_EQ(st.st_gid, 12346u);
  EXPECT_EQ(st.st_mode & 07777, 0604u);
}

TEST(FixPipeTest, APathReadFromAPipeIsReportedAndTheRunGoesOn) {
  TempDir dir;
  dir.Write("m.hlo", kStale);
  testing::CliResult r =
      RunBash("\"$T\" check --fix <(cat m.hlo) m.hlo", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("not fixable here: read from a pipe"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("1 fixed, 1 remaining"), std::string::npos) << r.err;
  EXPECT_EQ(ReadAll(dir.path() + "/m.hlo").find("topolint:"),
            std::string::npos);
  r = RunBash("\"$T\" check --diff <(cat m.hlo)", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(FixDiffTest, DiffGoesToTheOutputFile) {
  TempDir dir;
  const std::string file = dir.Write("m.hlo", kStale);
  const std::string patch = dir.path() + "/d.patch";
  testing::CliResult r = RunTopolint({"check", "--diff", "-o", patch, file});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(ReadAll(patch).rfind("--- " + file + "\n", 0), 0u)
      << ReadAll(patch);
  EXPECT_EQ(ReadAll(file), kStale);
  // -o naming the input: refused, nothing written.
  r = RunTopolint({"check", "--diff", "-o", file, file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(ReadAll(file), kStale);
}

TEST(FixDiffTest, NamesWithBlanksApplyWithPatch) {
  if (std::system("command -v patch >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "patch(1) is not installed";
  }
  TempDir dir;
  const std::vector<std::string> names = {"my dir/a b.hlo", "t\tab.hlo",
                                          "q\"uote\\d.hlo"};
  for (const std::string& name : names) dir.Write(name, kStale);
  std::vector<std::string> args = {"check", "--diff"};
  args.insert(args.end(), names.begin(), names.end());
  testing::CliResult r = RunTopolint(args, dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  TempDir other;
  const std::string diff = other.Write("fix.diff", r.out);
  const std::string cmd =
      "cd " + ShellQuote(dir.path()) + " && patch -s -p0 <" + ShellQuote(diff);
  EXPECT_EQ(std::system(cmd.c_str()), 0) << r.out;
  for (const std::string& name : names) {
    EXPECT_EQ(ReadAll(dir.path() + "/" + name).find("topolint:"),
              std::string::npos)
        << name;
  }
}

// Issue 43: 80,000 stale suppressions in one 3.4 MB module took 43 s with
// --diff (a line count from the start of the file per edit, and an overlap
// scan of every accepted edit per edit). No timing here: the whole diff
// must come out, every comment removed.
TEST(FixScaleTest, EightyThousandStaleSuppressionsInOneModule) {
  TempDir dir;
  std::string text =
      "HloModule m, replica_count=2\n\nENTRY e {\n  p = f32[8] parameter(0)\n";
  constexpr int kComments = 80000;
  for (int i = 0; i < kComments; ++i) {
    text += "  // topolint: disable=hlo-device-id-range\n";
  }
  text +=
      "  ROOT ar = f32[8] all-reduce(p), replica_groups={{0,1}}, "
      "to_apply=add\n}\n";
  const std::string file = dir.Write("big.hlo", text);
  testing::CliResult r =
      RunTopolint({"check", "--diff", "--max-findings", "0", file});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--fix would fix 80000 findings in 1 file"),
            std::string::npos)
      << r.err;
  size_t removed = 0;
  for (size_t at = r.out.find("\n-  // topolint:"); at != std::string::npos;
       at = r.out.find("\n-  // topolint:", at + 1)) {
    ++removed;
  }
  EXPECT_EQ(removed, static_cast<size_t>(kComments));
}

}  // namespace
}  // namespace topolint
