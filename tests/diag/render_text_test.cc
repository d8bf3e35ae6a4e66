#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "checker/diag/source_cache.h"
#include "gtest/gtest.h"
#include "tests/diag/temp_dir.h"

namespace topolint {
namespace {

Finding MakeFinding(std::string rule, Location loc, std::string message,
                    Severity severity = Severity::kError) {
  Finding f;
  f.rule = std::move(rule);
  f.loc = std::move(loc);
  f.message = std::move(message);
  f.severity = severity;
  return f;
}

TEST(RenderTextTest, SpecExample) {
  const std::string hlo_line =
      "  ROOT %ar = f32[16,128]{1,0} all-reduce(%p), channel_id=1, "
      "replica_groups={{0,4},{1,5}}";
  SourceCache sources;
  sources.AddInMemory("model.hlo", "HloModule m\n\n" + hlo_line + "\n");
  sources.AddInMemory(
      "def.json",
      "{\n  \"CCInfo\": {\n    \"replica_groups\": [[[0,4],[4,5]]]\n");
  Finding f =
      MakeFinding("xref-topology-mismatch", {"model.hlo", 3, 83},
                  "replica group 1 is {1,5} here but {4,5} in topology[0]");
  f.notes.push_back({{"def.json", 3, 23}, "topology[0] is declared here"});
  EXPECT_EQ(RenderText({f}, sources, /*color=*/false),
            "model.hlo:3:83: error: replica group 1 is {1,5} here but {4,5} "
            "in topology[0] [xref-topology-mismatch]\n"
            "  " +
                hlo_line + "\n" + "  " + std::string(82, ' ') + "^\n" +
                "def.json:3:23: note: topology[0] is declared here\n"
                "      \"replica_groups\": [[[0,4],[4,5]]]\n" +
                "  " + std::string(22, ' ') + "^\n");
}

TEST(RenderTextTest, CaretMirrorsTabs) {
  SourceCache sources;
  sources.AddInMemory("m.hlo", "\tROOT\t%ar = x\n");
  const Finding f = MakeFinding("r", {"m.hlo", 1, 7}, "at the op");
  EXPECT_EQ(RenderText({f}, sources, false),
            "m.hlo:1:7: error: at the op [r]\n"
            "  \tROOT\t%ar = x\n"
            "  \t    \t^\n");
}

TEST(RenderTextTest, WarningAndNoteSeverities) {
  SourceCache sources;
  const Finding w =
      MakeFinding("w-rule", {"a.hlo", 0, 0}, "odd", Severity::kWarning);
  const Finding n =
      MakeFinding("n-rule", {"a.hlo", 0, 0}, "fyi", Severity::kNote);
  EXPECT_EQ(RenderText({w, n}, sources, false),
            "a.hlo: warning: odd [w-rule]\n"
            "a.hlo: note: fyi [n-rule]\n");
}

TEST(RenderTextTest, LineZeroHasNoSourceLine) {
  SourceCache sources;
  sources.AddInMemory("def.json", "{}\n");
  const Finding f = MakeFinding("neff-schema", {"def.json", 0, 0}, "no CCInfo");
  EXPECT_EQ(RenderText({f}, sources, false),
            "def.json: error: no CCInfo [neff-schema]\n");
}

TEST(RenderTextTest, ColumnZeroShowsTheLineWithoutCaret) {
  SourceCache sources;
  sources.AddInMemory("a.hlo", "x\nwhole line\n");
  const Finding f = MakeFinding("r", {"a.hlo", 2, 0}, "about the line");
  EXPECT_EQ(RenderText({f}, sources, false),
            "a.hlo:2: error: about the line [r]\n"
            "  whole line\n");
}

TEST(RenderTextTest, NotesWithoutColumnOrLineHaveNoSource) {
  SourceCache sources;
  sources.AddInMemory("a.hlo", "abc\ndef\n");
  sources.AddInMemory("b.json", "{}\n");
  Finding f = MakeFinding("r", {"a.hlo", 1, 2}, "main");
  f.notes.push_back({{"a.hlo", 2, 0}, "a line"});
  f.notes.push_back({{"b.json", 0, 0}, "a file"});
  f.notes.push_back({{"a.hlo", 2, 3}, "a column"});
  EXPECT_EQ(RenderText({f}, sources, false),
            "a.hlo:1:2: error: main [r]\n"
            "  abc\n"
            "   ^\n"
            "a.hlo:2: note: a line\n"
            "b.json: note: a file\n"
            "a.hlo:2:3: note: a column\n"
            "  def\n"
            "    ^\n");
}

TEST(RenderTextTest, UnreadableSourceOmitsTheSnippet) {
  SourceCache sources;
  const Finding f = MakeFinding("r", {"/nonexistent/dir/x.hlo", 4, 2}, "msg");
  EXPECT_EQ(RenderText({f}, sources, false),
            "/nonexistent/dir/x.hlo:4:2: error: msg [r]\n");
}

TEST(RenderTextTest, FindingsKeepTheGivenOrder) {
  SourceCache sources;
  const Finding b = MakeFinding("r", {"b", 0, 0}, "second file");
  const Finding a = MakeFinding("r", {"a", 0, 0}, "first file");
  EXPECT_EQ(RenderText({b, a}, sources, false),
            "b: error: second file [r]\n"
            "a: error: first file [r]\n");
}

TEST(RenderTextTest, CaretAtEndOfLineAndPastIt) {
  SourceCache sources;
  sources.AddInMemory("a.hlo", "abc\n");
  const Finding end = MakeFinding("r", {"a.hlo", 1, 4}, "eol");
  const Finding past = MakeFinding("r", {"a.hlo", 1, 9}, "past");
  EXPECT_EQ(RenderText({end, past}, sources, false),
            "a.hlo:1:4: error: eol [r]\n"
            "  abc\n"
            "     ^\n"
            "a.hlo:1:9: error: past [r]\n"
            "  abc\n");
}

TEST(RenderTextTest, LongLineShowsAWindowAroundTheColumn) {
  std::string line;
  for (int i = 0; line.size() < 1000; ++i)
    line += static_cast<char>('a' + i % 26);
  SourceCache sources;
  sources.AddInMemory("a.hlo", line + "\n");
  const Finding f = MakeFinding("r", {"a.hlo", 1, 500}, "deep");
  // Byte 499 (0-based) is the target; the window is [439, 559).
  EXPECT_EQ(RenderText({f}, sources, false),
            "a.hlo:1:500: error: deep [r]\n"
            "  ..." +
                line.substr(439, 120) + "...\n" + "  " +
                std::string(3 + 60, ' ') + "^\n");
}

TEST(RenderTextTest, LongLineNearItsStartAndEnd) {
  const std::string line(300, 'x');
  SourceCache sources;
  sources.AddInMemory("a.hlo", line + "\n");
  const Finding start = MakeFinding("r", {"a.hlo", 1, 5}, "near start");
  const Finding end = MakeFinding("r", {"a.hlo", 1, 300}, "near end");
  EXPECT_EQ(RenderText({start, end}, sources, false),
            "a.hlo:1:5: error: near start [r]\n"
            "  " +
                std::string(120, 'x') + "...\n" +
                "      ^\n"
                "a.hlo:1:300: error: near end [r]\n"
                "  ..." +
                std::string(120, 'x') + "\n" + "  " +
                std::string(3 + 119, ' ') + "^\n");
}

TEST(RenderTextTest, HugeLineOnDiskKeepsTheCaretRight) {
  std::string line(200000, '-');
  line[150000] = '%';  // column 150001
  TempDir dir;
  const std::string path = dir.Write("big.hlo", "HloModule m\n" + line + "\n");
  SourceCache sources;
  const Finding f = MakeFinding("r", {path, 2, 150001}, "far right");
  EXPECT_EQ(RenderText({f}, sources, false),
            path + ":2:150001: error: far right [r]\n" + "  ..." +
                std::string(60, '-') + "%" + std::string(59, '-') + "...\n" +
                "  " + std::string(63, ' ') + "^\n");
}

TEST(RenderTextTest, WholeLineOfALongLineIsCutAtTheRight) {
  SourceCache sources;
  sources.AddInMemory("a.hlo", std::string(500, 'y') + "\n");
  const Finding f = MakeFinding("r", {"a.hlo", 1, 0}, "line");
  EXPECT_EQ(RenderText({f}, sources, false),
            "a.hlo:1: error: line [r]\n"
            "  " +
                std::string(120, 'y') + "...\n");
}

TEST(RenderTextTest, NonPrintableBytesAreEscapedAndCaretFollows) {
  SourceCache sources;
  // 'a', SOH, 'b', an invalid byte, 'c' (column 5), ESC.
  sources.AddInMemory("a.hlo", std::string("a\x01"
                                           "b\xff"
                                           "c\x1b[31m") +
                                   "\n");
  const Finding f = MakeFinding("r", {"a.hlo", 1, 5}, "the c");
  EXPECT_EQ(RenderText({f}, sources, false),
            "a.hlo:1:5: error: the c [r]\n"
            "  a<U+0001>b<FF>c<U+001B>[31m\n"
            "  " +
                std::string(1 + 8 + 1 + 4, ' ') + "^\n");
}

TEST(RenderTextTest, MultiByteCharactersTakeOneCaretColumn) {
  SourceCache sources;
  // "é" is 2 bytes, "→" is 3: '=' is at byte column 7.
  sources.AddInMemory("a.hlo", "\xc3\xa9\xe2\x86\x92x=1\n");
  const Finding f = MakeFinding("r", {"a.hlo", 1, 7}, "eq");
  // A column inside the arrow points at the arrow.
  const Finding mid = MakeFinding("r", {"a.hlo", 1, 4}, "mid");
  EXPECT_EQ(RenderText({f, mid}, sources, false),
            "a.hlo:1:7: error: eq [r]\n"
            "  \xc3\xa9\xe2\x86\x92x=1\n"
            "     ^\n"
            "a.hlo:1:4: error: mid [r]\n"
            "  \xc3\xa9\xe2\x86\x92x=1\n"
            "   ^\n");
}

TEST(RenderTextTest, BidiOverridesInSourceAndMessagesAreEscaped) {
  SourceCache sources;
  sources.AddInMemory("a.hlo", "x\xe2\x80\xaey\n");  // U+202E RLO
  const Finding f = MakeFinding("r", {"a.hlo", 1, 5}, "key \x1b[2J\n");
  EXPECT_EQ(RenderText({f}, sources, false),
            "a.hlo:1:5: error: key <U+001B>[2J<U+000A> [r]\n"
            "  x<U+202E>y\n"
            "  " +
                std::string(9, ' ') + "^\n");
}

TEST(RenderTextTest, ColourLikeClang) {
  SourceCache sources;
  sources.AddInMemory("a.hlo", "abc\n");
  Finding e = MakeFinding("r", {"a.hlo", 1, 2}, "bad");
  e.notes.push_back({{"a.hlo", 1, 3}, "see"});
  const Finding w =
      MakeFinding("w", {"a.hlo", 0, 0}, "hmm", Severity::kWarning);
  EXPECT_EQ(RenderText({e, w}, sources, /*color=*/true),
            "\x1b[1ma.hlo:1:2:\x1b[0m \x1b[1;31merror:\x1b[0m "
            "\x1b[1mbad [r]\x1b[0m\n"
            "  abc\n"
            "   \x1b[1;32m^\x1b[0m\n"
            "\x1b[1ma.hlo:1:3:\x1b[0m \x1b[1;36mnote:\x1b[0m see\n"
            "  abc\n"
            "    \x1b[1;32m^\x1b[0m\n"
            "\x1b[1ma.hlo:\x1b[0m \x1b[1;35mwarning:\x1b[0m "
            "\x1b[1mhmm [w]\x1b[0m\n");
}

TEST(RenderTextTest, NoColourMeansNoEscapeBytes) {
  SourceCache sources;
  sources.AddInMemory("a.hlo", "abc\n");
  Finding e = MakeFinding("r", {"a.hlo", 1, 2}, "bad", Severity::kWarning);
  e.notes.push_back({{"a.hlo", 1, 3}, "see"});
  EXPECT_EQ(RenderText({e}, sources, false).find('\x1b'), std::string::npos);
}

TEST(RenderTextTest, EmptyInputRendersNothing) {
  SourceCache sources;
  EXPECT_EQ(RenderText({}, sources, true), "");
}

// Issue 47: on a terminal, `[rule-id]` links to the rule's page (OSC 8);
// the text around it is the same bytes as without the link.
TEST(RenderTextTest, RuleIdIsAHyperlinkWhenAsked) {
  SourceCache sources;
  const Finding f = MakeFinding("hlo-empty-group", {"m.hlo", 0, 0}, "empty");
  TextStyle style;
  style.links = true;
  std::string out = MakeTextReport(&sources, style, nullptr)->RenderAll({f});
  EXPECT_EQ(out,
            "m.hlo: error: empty \x1b]8;;https://github.com/topolint/topolint/"
            "blob/main/docs/rules/hlo-empty-group.md\x1b\\[hlo-empty-group]"
            "\x1b]8;;\x1b\\\n");
  style.docs_url = "https://example.invalid/docs/";
  out = MakeTextReport(&sources, style, nullptr)->RenderAll({f});
  EXPECT_NE(out.find("\x1b]8;;https://example.invalid/docs/"
                     "hlo-empty-group.md\x1b\\"),
            std::string::npos)
      << out;
  style.links = false;
  EXPECT_EQ(MakeTextReport(&sources, style, nullptr)->RenderAll({f}),
            "m.hlo: error: empty [hlo-empty-group]\n");
}

// With roots, the text format names files relative to the repository root,
// as every other format does.
TEST(RenderTextTest, FilesAreNamedFromTheRoot) {
  SourceCache sources;
  SarifRoots roots{"/repo", "/repo/llama"};
  Finding f = MakeFinding("r", {"model.hlo", 0, 0}, "m");
  f.notes.push_back({{"../other/def.json", 0, 0}, "n"});
  EXPECT_EQ(MakeTextReport(&sources, TextStyle(), &roots)->RenderAll({f}),
            "llama/model.hlo: error: m [r]\nother/def.json: note: n\n");
}

}  // namespace
}  // namespace topolint
