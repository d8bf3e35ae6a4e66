// Streaming: parsing through windows of any size (down to one byte, which
// also disables every fast path) gives exactly what parsing the whole text
// gives, for the torture module, every fixture, and randomly damaged text.
#include <dirent.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

using testing::Errors;
using testing::Parse;
using testing::ParseViaFile;
using testing::ReadFile;
using ::testing::SizeIs;

std::string Torture() {
  return ReadFile(std::string(TOPOLINT_SOURCE_DIR) +
                  "/fixtures/syntax/pass-torture/model.hlo");
}

using testing::DumpWithWindow;

TEST(TortureTest, ParsesEveryFormCleanly) {
  const std::string text = Torture();
  ASSERT_FALSE(text.empty());
  const Module m = Parse(text);
  EXPECT_EQ(Errors(m), "");
  EXPECT_EQ(m.name, "torture.1");
  EXPECT_EQ(*m.replica_count, 2);
  EXPECT_EQ(*m.num_partitions, 4);
  EXPECT_EQ(m.computation_count, 5);
  EXPECT_EQ(m.entry_computation, "%main.42");
  ASSERT_THAT(m.collectives, SizeIs(16));
  std::vector<std::string> names;
  for (const Collective& c : m.collectives) names.push_back(c.name);
  EXPECT_THAT(names, ::testing::ElementsAre(
                         "%rs.inner", "r", "%ar.cross_replica", "%ar.flat",
                         "%ag", "%ags", "%ars", "%cp", "%cps", "%a2a", "%rss",
                         "%cb", "%ragged", "%snd", "%rcv", "%nested"));
  const Collective& ragged = m.collectives[12];
  EXPECT_EQ(ShapeToString(ragged.operand_shapes[3]), "s32[4]");  // by name
  EXPECT_EQ(m.collectives[0].replica_groups.form, ReplicaGroups::Form::kMesh);
}

TEST(StreamingTest, FileWindowsMatchInMemoryParse) {
  const std::string text = Torture();
  const std::string expected = ModuleDebugString(Parse(text));
  // Windows that end exactly at the end of the file, one byte before and
  // after it, or hold it whole: the last read comes back short or empty,
  // and either ends the input.
  const size_t n = text.size();
  for (size_t window :
       {size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{7}, size_t{16},
        size_t{63}, size_t{64}, size_t{65}, size_t{100}, size_t{4096}, n / 2,
        n / 3, n - 1, n, n + 1, size_t{1} << 20}) {
    Module m = ParseViaFile(text, window);
    m.file = "test.hlo";
    EXPECT_EQ(ModuleDebugString(m), expected) << "window " << window;
    EXPECT_EQ(DumpWithWindow(text, window), expected) << "window " << window;
  }
}

TEST(StreamingTest, CrLfLineEndings) {
  std::string crlf;
  for (char c : Torture()) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const Module m = Parse(crlf);
  EXPECT_EQ(Errors(m), "");
  const Module lf = Parse(Torture());
  ASSERT_EQ(m.collectives.size(), lf.collectives.size());
  for (size_t i = 0; i < m.collectives.size(); ++i) {
    EXPECT_EQ(m.collectives[i].pos.line, lf.collectives[i].pos.line);
    EXPECT_EQ(m.collectives[i].pos.column, lf.collectives[i].pos.column);
  }
  EXPECT_EQ(DumpWithWindow(crlf, 1), ModuleDebugString(m));
}

std::vector<std::string> FixtureHloFiles() {
  std::vector<std::string> out;
  const std::string root = std::string(TOPOLINT_SOURCE_DIR) + "/fixtures";
  for (const char* rule : {"hlo-syntax", "syntax"}) {
    const std::string dir = root + "/" + rule;
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) continue;
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] == '.') continue;
      const std::string path = dir + "/" + e->d_name + "/model.hlo";
      if (std::ifstream(path).good()) out.push_back(path);
    }
    closedir(d);
  }
  return out;
}

TEST(StreamingTest, EveryFixtureMatchesAcrossWindows) {
  const std::vector<std::string> files = FixtureHloFiles();
  EXPECT_GE(files.size(), 5u);
  for (const std::string& path : files) {
    const std::string text = ReadFile(path);
    const std::string expected = ModuleDebugString(Parse(text));
    for (size_t window : {1, 7, 64}) {
      EXPECT_EQ(DumpWithWindow(text, window), expected)
          << path << " window " << window;
    }
  }
}

// Long runs of blanks where a value may or may not go on (before a mesh's
// '{', after `name=`, after a value, inside operands): the same result for
// every window, in time linear in the run (a megabyte of blanks).
TEST(StreamingTest, LongBlankRunsAgreeAcrossWindows) {
  const std::string run(1 << 20, ' ');
  const std::vector<std::string> bodies = {
      "replica_groups=mesh[x=2]" + run + "{x}, to_apply=%add",
      "replica_groups=" + run + "{{0,1}}, to_apply=%add",
      "to_apply=%add" + run + ", channel_id=3",
      "to_apply=%add" + run + "garbage",
      "metadata={op_name=\"a\"}" + run,
  };
  for (const std::string& body : bodies) {
    for (const char* op : {"all-reduce", "add"}) {
      const std::string text =
          "HloModule m\nENTRY e {\n  %p = f32[8] parameter(0)\n"
          "  %x = f32[8] " +
          std::string(op) + "(%p," + run + "%p), " + body +
          "\n  ROOT %r = f32[8] all-reduce(%x), to_apply=%add\n}\n";
      const std::string expected = DumpWithWindow(text, kDefaultWindowBytes);
      EXPECT_EQ(DumpWithWindow(text, 7), expected) << body.substr(0, 30);
      EXPECT_EQ(DumpWithWindow(text, 4096), expected) << body.substr(0, 30);
    }
  }
  const Module mesh = Parse(
      "HloModule m\nENTRY e {\n  ROOT %x = f32[8] all-reduce(%p), "
      "replica_groups=mesh[x=2]" +
      run + "{x}, channel_id=3\n}\n");
  EXPECT_EQ(Errors(mesh), "");
  ASSERT_THAT(mesh.collectives, SizeIs(1));
  EXPECT_EQ(mesh.collectives[0].channel_id, 3);
}

// Random damage: every result must be the same whatever the window (the
// one-byte window takes only the exact scanners, the default one the fast
// paths), and nothing may crash or hang.
TEST(StreamingTest, DamagedTextAgreesAcrossWindows) {
  const std::string base = Torture();
  const std::string alphabet = "{}[]()\"',=/*% \n\\<T:-?0123456789abc\x01";
  std::mt19937 rng(12345);
  for (int round = 0; round < 400; ++round) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 4) {
        case 0:
          text.erase(at, 1 + rng() % 3);
          break;
        case 1:
          text.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
        case 2:
          text[at] = alphabet[rng() % alphabet.size()];
          break;
        default:
          text.resize(at);
          break;
      }
    }
    const std::string expected = DumpWithWindow(text, kDefaultWindowBytes);
    ASSERT_EQ(DumpWithWindow(text, 1), expected) << "round " << round;
    ASSERT_EQ(DumpWithWindow(text, 29), expected) << "round " << round;
  }
}

// Instruction bodies built from random pieces stress the fast scanners'
// agreement with the exact ones at every block boundary.
TEST(StreamingTest, RandomBodiesAgreeAcrossWindows) {
  const std::vector<std::string> pieces = {
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      ",",
      " ",
      "  ",
      "x",
      "%p",
      "=",
      "f32[8]",
      "{1,0}",
      "\"s\"",
      "\"a, }) b\"",
      "'q'",
      "// c\n",
      "/* c */",
      "\n",
      "metadata={op_name=\"n\" source_line=3}",
      ", to_apply=%add",
      "replica_groups={{0,1}}",
      "mesh[x=2] {x}",
      "a= 1",
      "b=2 ROOT"};
  std::mt19937 rng(777);
  for (int round = 0; round < 600; ++round) {
    std::string body;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) body += pieces[rng() % pieces.size()];
    const std::string op = round % 2 == 0 ? "all-reduce" : "add";
    const std::string text =
        "HloModule m\nENTRY e {\n  %p = f32[8] parameter(0)\n"
        "  %x = f32[8] " +
        op + "(%p" + body +
        "\n  ROOT %r = f32[8] all-reduce(%x), "
        "to_apply=%add\n}\n";
    const std::string expected = DumpWithWindow(text, kDefaultWindowBytes);
    ASSERT_EQ(DumpWithWindow(text, 1), expected) << text;
    ASSERT_EQ(DumpWithWindow(text, 64), expected) << text;
  }
}

}  // namespace
}  // namespace topolint::hlo
