// Hostile inputs through the real command line: binary garbage, non-UTF-8,
// empty files, thousands of files, unreadable files, symlink loops, huge
// lines. Exit codes as docs/reference/cli.md: 0/1 for anything readable (a file
// that does not parse is a finding), 2 only for what cannot be read; never a
// signal.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"
#include "tests/reliability/reliability_util.h"

namespace topolint::testing {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

const char kSmallHlo[] =
    "HloModule m, replica_count=4\n"
    "ENTRY %main (p: f32[8]) -> f32[8] {\n"
    "  %p = f32[8]{0} parameter(0)\n"
    "  ROOT %ar = f32[8]{0} all-reduce(%p), replica_groups={{0,1},{2,3}}, "
    "to_apply=%add\n"
    "}\n";
const char kSmallDef[] =
    "{\"CCInfo\": {\"replica_groups\": [[[0, 1], [2, 3]]]}}\n";

std::string RandomBytes(std::mt19937* rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>((*rng)() & 0xff);
  return s;
}

// The output of --format json must be one valid JSON document whatever the
// input bytes were.
void ExpectValidJson(const CliResult& r) {
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.out.substr(0, 2000);
}

TEST(CliHostileTest, BinaryGarbageIsAFindingPerFile) {
  std::mt19937 rng(20240601);
  for (int round = 0; round < 5; ++round) {
    SCOPED_TRACE(round);
    TempDir d;
    const std::string hlo = d.Write("garbage.hlo", RandomBytes(&rng, 5000));
    const std::string def = d.Write("def.json", RandomBytes(&rng, 5000));
    const std::string neff = d.Write("model.neff", RandomBytes(&rng, 5000));
    CliResult r =
        RunTopolintWithin({"check", "--format", "json", hlo, def, neff});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    ExpectValidJson(r);
    EXPECT_THAT(r.out, HasSubstr("\"hlo-syntax\""));
    EXPECT_THAT(r.out, HasSubstr("\"json-syntax\""));
    EXPECT_THAT(r.out, HasSubstr("\"neff-schema\""));
    // The text renderer (caret display of binary lines) and SARIF too.
    CliResult text =
        RunTopolintWithin({"check", "--color", "always", hlo, def, neff});
    EXPECT_EQ(text.exit_code, 1) << text.err;
    CliResult sarif =
        RunTopolintWithin({"check", "--format", "sarif", d.path()});
    EXPECT_THAT(sarif.exit_code, AnyOf(0, 1)) << sarif.err;
    ExpectValidJson(sarif);
  }
}

TEST(CliHostileTest, GarbageFoundInADirectoryNeverExitsTwo) {
  std::mt19937 rng(7);
  TempDir d;
  for (int i = 0; i < 20; ++i) {
    d.Write("u" + std::to_string(i) + "/blob" + std::to_string(i),
            RandomBytes(&rng, 3000));
    d.Write("u" + std::to_string(i) + "/x.json", RandomBytes(&rng, 3000));
    d.Write("u" + std::to_string(i) + "/m.hlo.txt", RandomBytes(&rng, 3000));
  }
  CliResult r = RunTopolintWithin({"check", "--format", "json", d.path()});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the .hlo.txt files do not parse
  ExpectValidJson(r);
}

TEST(CliHostileTest, NonUtf8InputsGiveValidJsonAndSarif) {
  TempDir d;
  d.Write(
      "a/model.hlo",
      "HloModule m\xff\xfe, replica_count=2 // caf\xe9 \xc3\x28\n"
      "ENTRY %main (p: f32[8]) -> f32[8] {\n"
      "  %p = f32[8]{0} parameter(0), metadata={op_name=\"\xff\xfe\" "
      "source_file=\"\xc0\xaf.py\"}\n"
      "  ROOT %ar\xe2\x82 = f32[8]{0} all-reduce(%p), replica_groups={{0,0}}\n"
      "}\n");
  d.Write(
      "a/def.json",
      "{\"CCInfo\": {\"replica_groups\": [[[0, 1]]], \"\xff\": \"\xc3\x28\"}}");
  d.Write("b/def.json",
          "{\"CCInfo\": {\"replica_groups\": [[[0, \"\xed\xa0\x80\"]]]}}");
  d.Write("b/model.hlo",
          "HloModule m, replica_count=2\n"
          "ENTRY %main (p: f32[8]) -> f32[8] {\n"
          "  %p = f32[8]{0} parameter(0), metadata={op_name=\"\xff\"}\n"
          "  ROOT %ar = f32[8]{0} all-reduce(%p), replica_groups={{0,0}}, "
          "metadata={op_name=\"x\xff\xfey\" source_file=\"\xfe.py\" "
          "source_line=1}\n"
          "}\n");
  for (const char* format : {"json", "sarif"}) {
    SCOPED_TRACE(format);
    CliResult r = RunTopolintWithin({"check", "--format", format, d.path()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    ExpectValidJson(r);
  }
  CliResult text = RunTopolintWithin({"check", d.path()});
  EXPECT_EQ(text.exit_code, 1) << text.err;
  CliResult explain =
      RunTopolintWithin({"explain", "--format", "json", d.path() + "/b"});
  EXPECT_THAT(explain.exit_code, AnyOf(0, 1)) << explain.err;
  ExpectValidJson(explain);
}

TEST(CliHostileTest, NonUtf8FileNamesGiveValidJson) {
  TempDir d;
  const std::string hlo = d.Write("m\xff\xfe.hlo", kSmallHlo);
  d.Write("d\xc3\x28/def.json", "{\"CCInfo\": []}");
  CliResult r = RunTopolintWithin({"check", "--format", "json", d.path()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  ExpectValidJson(r);
  CliResult s = RunTopolintWithin({"check", "--format", "sarif", d.path()});
  EXPECT_EQ(s.exit_code, 1) << s.err;
  ExpectValidJson(s);
}

TEST(CliHostileTest, EmptyFilesAreFindingsNotErrors) {
  TempDir d;
  d.Write("model.hlo", "");
  d.Write("def.json", "");
  d.Write("neuron_config.json", "");
  d.Write("model.neff", "");
  CliResult r = RunTopolintWithin({"check", "--format", "json", d.path()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  ExpectValidJson(r);
  EXPECT_THAT(r.out, HasSubstr("\"hlo-syntax\""));
  EXPECT_THAT(r.out, HasSubstr("\"json-syntax\""));
  EXPECT_THAT(r.out, HasSubstr("\"neff-schema\""));
  // Named one by one too.
  for (const char* name :
       {"model.hlo", "def.json", "neuron_config.json", "model.neff"}) {
    SCOPED_TRACE(name);
    CliResult one = RunTopolintWithin({"check", d.path() + "/" + name});
    EXPECT_EQ(one.exit_code, 1) << one.out << one.err;
  }
}

TEST(CliHostileTest, NulBytesAndWhitespaceOnlyFiles) {
  TempDir d;
  const std::string nul = d.Write("x/model.hlo", std::string(4096, '\0'));
  const std::string ws = d.Write("y/model.hlo", std::string(100000, '\n'));
  const std::string def = d.Write("z/def.json", std::string(100000, ' '));
  for (const std::string& f : {nul, ws, def}) {
    SCOPED_TRACE(f);
    CliResult r = RunTopolintWithin({"check", f});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  }
}

TEST(CliHostileTest, GarbageOnStdin) {
  std::mt19937 rng(99);
  for (const char* name : {"x.hlo", "def.json", "neuron_config.json"}) {
    SCOPED_TRACE(name);
    CliResult r = RunTopolintWithin(
        {"check", "--format", "json", "--stdin-filename", name, "-"},
        RandomBytes(&rng, 20000));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    ExpectValidJson(r);
  }
}

TEST(CliHostileTest, ThousandsOfFilesFinish) {
  TempDir d;
  for (int i = 0; i < 3000; ++i) {
    const std::string n = std::to_string(i);
    switch (i % 3) {
      case 0:  // HLO modules, some in their own unit directory
        d.Write((i % 2 ? "flat/m" : "units/u" + n + "/m") + n + ".hlo",
                kSmallHlo);
        break;
      case 1:  // JSON of every kind
        d.Write("flat/f" + n + ".json", i % 4 == 1
                                            ? std::string(kSmallDef)
                                            : "{\"unrelated\": " + n + "}");
        break;
      default:  // text that is not an input
        d.Write("flat/notes" + n + ".txt", "not an input " + n + "\n");
    }
  }
  CliResult r =
      RunTopolintWithin({"check", "--format", "json", "-j", "2", d.path()});
  EXPECT_THAT(r.exit_code, AnyOf(0, 1)) << r.err;
  ExpectValidJson(r);
}

// Runs topolint as an unprivileged user: root reads mode-000 directories, so
// as root the run drops to `nobody` with setpriv. Returns false (and the
// caller skips) when that is not possible.
bool RunUnprivileged(const std::vector<std::string>& args, CliResult* r) {
  std::string prefix;
  if (geteuid() == 0) {
    if (std::system("setpriv --version >/dev/null 2>&1") != 0) return false;
    prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups -- ";
  }
  static int counter = 0;
  const std::string base = (std::filesystem::temp_directory_path() /
                            ("topolint-unpriv-" + std::to_string(getpid()) +
                             "-" + std::to_string(counter++)))
                               .string();
  const std::string out = base + ".out", err = base + ".err";
  std::string cmd = "cd " + ShellQuote(TOPOLINT_SOURCE_DIR) +
                    " && timeout -s KILL 60 " + prefix +
                    ShellQuote(TOPOLINT_BINARY);
  for (const std::string& a : args) cmd += " " + ShellQuote(a);
  cmd += " </dev/null >" + ShellQuote(out) + " 2>" + ShellQuote(err);
  const int status = std::system(cmd.c_str());
  r->exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r->out = ReadAll(out);
  r->err = ReadAll(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return true;
}

// A directory met while searching that cannot be read is skipped with a
// warning naming it; it holds no known input, so the exit code is that of
// the rest (docs/reference/cli.md: 2 is for an input that cannot be read). A
// directory named on the command line that cannot be read is such an input. A
// file that cannot be read, named or found in a directory, is exit 2
// (docs/reference/cli.md). Runs as `nobody` when the tests run as root.
TEST(CliHostileTest, UnreadableFileExitsTwo) {
  TempDir d;
  ASSERT_EQ(chmod(d.path().c_str(), 0755), 0);
  const std::string hlo = d.Write("a/model.hlo", kSmallHlo);
  const std::string def = d.Write("b/def.json", kSmallDef);
  ASSERT_EQ(chmod(hlo.c_str(), 0), 0);
  ASSERT_EQ(chmod(def.c_str(), 0), 0);
  CliResult named_hlo, named_def, walk;
  if (!RunUnprivileged({"check", hlo}, &named_hlo)) {
    GTEST_SKIP() << "cannot run as an unprivileged user";
  }
  EXPECT_EQ(named_hlo.exit_code, 2) << named_hlo.out << named_hlo.err;
  ASSERT_TRUE(RunUnprivileged({"check", def}, &named_def));
  EXPECT_EQ(named_def.exit_code, 2) << named_def.out << named_def.err;
  ASSERT_TRUE(RunUnprivileged({"check", d.path()}, &walk));
  EXPECT_EQ(walk.exit_code, 2) << walk.out << walk.err;
  EXPECT_THAT(walk.err, HasSubstr("model.hlo"));
}

// Needs an unprivileged user (root reads any directory); the stream's own
// test, DiscoveryStreamTest.ADirectoryThatCannotBeOpenedIsAnUncheckedInputUnit,
// makes open() fail as root too.
TEST(CliHostileTest, UnreadableDirectoryIsAFindingNotASilentSkip) {
  TempDir d;
  ASSERT_EQ(chmod(d.path().c_str(), 0755), 0);
  d.Write("ok/def.json", kSmallDef);
  d.Write("locked/def.json", kSmallDef);
  const std::string locked = d.path() + "/locked";
  ASSERT_EQ(chmod(locked.c_str(), 0), 0);
  CliResult r;
  if (!RunUnprivileged({"check", d.path()}, &r)) {
    chmod(locked.c_str(), 0755);
    GTEST_SKIP() << "cannot run as an unprivileged user";
  }
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr(locked + ": warning: directory not searched: "
                                        "it cannot be read (permission "
                                        "denied)"));
  EXPECT_THAT(r.out, HasSubstr("[unchecked-input]"));
  EXPECT_THAT(r.err, HasSubstr("1 directory not searched"));
  CliResult quiet;
  ASSERT_TRUE(RunUnprivileged({"check", "--quiet", d.path()}, &quiet));
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_THAT(quiet.err, Not(HasSubstr("not searched")));
  CliResult sarif;
  ASSERT_TRUE(
      RunUnprivileged({"check", "--format", "sarif", d.path()}, &sarif));
  EXPECT_THAT(sarif.out, HasSubstr("directory not searched"));
  CliResult gate;
  ASSERT_TRUE(RunUnprivileged(
      {"check", "--severity", "unchecked-input=error", d.path()}, &gate));
  EXPECT_EQ(gate.exit_code, 1) << gate.out << gate.err;
  CliResult named;
  ASSERT_TRUE(RunUnprivileged({"check", locked}, &named));
  EXPECT_EQ(named.exit_code, 2) << named.out << named.err;
  EXPECT_THAT(named.err, HasSubstr(locked + ": cannot read directory"));
  chmod(locked.c_str(), 0755);
}

TEST(CliHostileTest, SymlinkLoopsTerminate) {
  TempDir d;
  d.Write("a/def.json", kSmallDef);
  d.Write("a/b/model.hlo", kSmallHlo);
  namespace fs = std::filesystem;
  fs::create_directory_symlink("..", d.path() + "/a/b/up");
  fs::create_directory_symlink(".", d.path() + "/a/self");
  fs::create_directory_symlink(d.path(), d.path() + "/a/b/root");
  fs::create_symlink("loop2.hlo", d.path() + "/a/loop1.hlo");
  fs::create_symlink("loop1.hlo", d.path() + "/a/loop2.hlo");
  CliResult r = RunTopolintWithin({"check", d.path()});
  EXPECT_THAT(r.exit_code, AnyOf(0, 1)) << r.err;
  CliResult from_inside = RunTopolintWithin({"check", d.path() + "/a/b/up"});
  EXPECT_THAT(from_inside.exit_code, AnyOf(0, 1)) << from_inside.err;
}

TEST(CliHostileTest, DeviceAndDanglingLinkInsideADirectoryAreSkipped) {
  TempDir d;
  d.Write("def.json", kSmallDef);
  namespace fs = std::filesystem;
  fs::create_symlink("/dev/zero", d.path() + "/zero.hlo");
  fs::create_symlink("/nonexistent/topolint", d.path() + "/dangling.json");
  CliResult r = RunTopolintWithin({"check", d.path()});
  EXPECT_THAT(r.exit_code, AnyOf(0, 1)) << r.err;
}

TEST(CliHostileTest, LineLongerThanTheInstructionCapIsAFinding) {
  // One 80 MB line: an instruction above the parser's 64 MiB cap. The
  // parser reads in bounded windows, so this costs time linear in the file
  // and bounded memory.
  TempDir d;
  std::string line = "  ROOT %t = (f32[8]) tuple(%p";
  const size_t target = size_t{80} << 20;
  line.reserve(target + 64);
  while (line.size() < target) line += ", %p";
  const std::string hlo =
      d.Write("model.hlo",
              "HloModule m\nENTRY %main (p: f32[8]) -> f32[8] {\n"
              "  %p = f32[8]{0} parameter(0)\n" +
                  line + ")\n}\n");
  line.clear();
  line.shrink_to_fit();
  CliResult r = RunTopolintWithin({"check", "--color", "never", hlo});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("model.hlo:4:"));
  EXPECT_THAT(r.out, HasSubstr("[hlo-syntax]"));
  // The caret display of the 80 MB line is an excerpt, not the whole line.
  EXPECT_LT(r.out.size(), size_t{64} << 10);
}

TEST(CliHostileTest, LongCommentLineIsSkippedCheaply) {
  TempDir d;
  std::string hlo = "HloModule m, replica_count=2\n// ";
  hlo.append(size_t{20} << 20, 'c');
  hlo +=
      "\nENTRY %main (p: f32[8]) -> f32[8] {\n"
      "  ROOT %p = f32[8]{0} parameter(0)\n}\n";
  const std::string path = d.Write("model.hlo", hlo);
  CliResult r = RunTopolintWithin({"check", path});
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
}

// Found by hlo_parser_fuzz: a '/' that starts no comment, met while the
// parser looks for the next line to resume at, made it loop forever
// (fuzz/regressions/hlo_parser_fuzz/hang-stray-slash-resync.hlo).
TEST(CliHostileTest, StraySlashIsAFindingNotAHang) {
  for (const char* text : {"/", "HloModule m\n/x\n",
                           "HloModule m\nENTRY %main () -> f32[] {\n/x\n}\n"}) {
    SCOPED_TRACE(text);
    TempDir d;
    const std::string hlo = d.Write("model.hlo", text);
    CliResult r = RunTopolintWithin({"check", "--color", "never", hlo}, "", 30);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("[hlo-syntax]"));
  }
}

// Found while sizing the fuzzers' inputs: a single-line def.json (as
// json.dumps writes it) with 30000 duplicate ranks gives 30000 findings on
// one 60 KB line; rendering their caret excerpts must stay linear
// (fuzz/regressions/def_json_fuzz/hang-30000-duplicate-ranks-one-line.json).
// The source cache keeps the union of the findings' windows of a line, so
// the caret display costs O(line + findings log findings).
TEST(CliHostileTest, ManyFindingsOnOneLongLineFinish) {
  TempDir d;
  const std::string def =
      d.Write("def.json", ReadAll(std::string(TOPOLINT_SOURCE_DIR) +
                                  "/fuzz/regressions/def_json_fuzz/"
                                  "hang-30000-duplicate-ranks-one-line.json"));
  for (const char* format : {"text", "json"}) {
    SCOPED_TRACE(format);
    CliResult r = RunTopolintWithin(
        {"check", "--color", "never", "--format", format, def}, "", 60);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(r.out, HasSubstr("neff-duplicate-rank"));
  }
}

}  // namespace
}  // namespace topolint::testing
