// The fix engine: resolving edits against bytes, refusing the ones that do
// not match, choosing non-overlapping fixes, and the unified diff.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/diag/fix.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

constexpr char kComment[] = "// topolint: disable=x";

// Removing `comment` at byte `offset` (line and column are for messages).
TextEdit RemoveComment(int64_t offset, std::string comment = kComment) {
  TextEdit e;
  e.kind = TextEdit::Kind::kRemoveLineComment;
  e.file = "m.hlo";
  e.line = 1;
  e.column = 1;
  e.offset = offset;
  e.original = std::move(comment);
  return e;
}

std::string Apply(const std::string& text, const TextEdit& e) {
  absl::StatusOr<ByteEdit> b = ResolveEdit(text, e);
  EXPECT_TRUE(b.ok()) << b.status();
  if (!b.ok()) return text;
  return ApplyEdits(text, {*b});
}

TEST(ResolveEditTest, RemovesACommentLineWhole) {
  const std::string text = "a\n  // topolint: disable=x\nb\n";
  EXPECT_EQ(Apply(text, RemoveComment(4)), "a\nb\n");
  // The last line, without a line break.
  EXPECT_EQ(Apply("a\n// topolint: disable=x", RemoveComment(2)), "a\n");
  // CRLF: the line goes with its "\r\n".
  EXPECT_EQ(Apply("a\r\n// topolint: disable=x\r\nb\r\n", RemoveComment(3)),
            "a\r\nb\r\n");
}

// Issue 43: the engine counted lines at '\n' only (and counted a BOM in
// the column): a CR-only file lost everything, a comment ended by a lone CR
// took the next line along, a "\r\r\n" moved every edit after it.
TEST(ResolveEditTest, LineEndsAndAByteOrderMarkDoNotMoveAnEdit) {
  // CR-only: the first line goes, with its CR, and nothing else.
  EXPECT_EQ(Apply("// topolint: disable=x\rHloModule m\rENTRY e {\r}\r",
                  RemoveComment(0)),
            "HloModule m\rENTRY e {\r}\r");
  // A comment ended by a lone CR in an LF file: the next line stays.
  EXPECT_EQ(Apply("// topolint: disable=x\rHloModule m\nENTRY e {\n}\n",
                  RemoveComment(0)),
            "HloModule m\nENTRY e {\n}\n");
  // "\r\r\n" before the comment: two line breaks, and the edit is where
  // the rule saw it.
  const std::string mixed =
      "HloModule m\r\r\n// topolint: disable=y\n// topolint: disable=x\n}\n";
  EXPECT_EQ(Apply(mixed, RemoveComment(mixed.find(kComment))),
            "HloModule m\r\r\n// topolint: disable=y\n}\n");
  // After a byte order mark: the mark stays, the line goes.
  EXPECT_EQ(Apply("\xEF\xBB\xBF// topolint: disable=x\nHloModule m\n",
                  RemoveComment(3)),
            "\xEF\xBB\xBFHloModule m\n");
  // A trailing comment ended by a lone CR: the comment and its blanks go.
  EXPECT_EQ(
      Apply("ROOT x = f(p) // topolint: disable=x\rb\r", RemoveComment(14)),
      "ROOT x = f(p)\rb\r");
}

TEST(ResolveEditTest, RemovesATrailingCommentAndTheBlanksBeforeIt) {
  const std::string text = "ROOT x = f(p)   // topolint: disable=x\nb\n";
  EXPECT_EQ(Apply(text, RemoveComment(16)), "ROOT x = f(p)\nb\n");
}

TEST(ResolveEditTest, RefusesWhatTheRuleDidNotSee) {
  // Not a topolint comment there (the file changed).
  EXPECT_FALSE(ResolveEdit("a\n// other\n", RemoveComment(2)).ok());
  EXPECT_FALSE(ResolveEdit("a\n", RemoveComment(5)).ok());
  EXPECT_FALSE(ResolveEdit("a\n", RemoveComment(1)).ok());
  EXPECT_FALSE(ResolveEdit("a\n", RemoveComment(-1)).ok());
  // Another topolint comment where the rule saw this one (before, any
  // "topolint:" comment there was removed).
  EXPECT_FALSE(
      ResolveEdit("a\n// topolint: disable=y\n", RemoveComment(2)).ok());
  // The comment the rule saw, now longer: not the whole comment.
  EXPECT_FALSE(
      ResolveEdit("a\n// topolint: disable=x,y\n", RemoveComment(2)).ok());
  // No comment text recorded (a comment too long to keep): no edit.
  EXPECT_FALSE(
      ResolveEdit("a\n// topolint: disable=x\n", RemoveComment(2, "")).ok());
  TextEdit rename;
  rename.file = "c.json";
  rename.line = 1;
  rename.column = 2;
  rename.offset = 1;
  rename.original = "\"mlp_dp_szie\"";
  rename.replacement = "\"mlp_dp_size\"";
  EXPECT_EQ(Apply("{\"mlp_dp_szie\": 2}", rename), "{\"mlp_dp_size\": 2}");
  // The key written with an escape: not the bytes the edit names.
  EXPECT_FALSE(ResolveEdit("{\"mlp\\u005fdp_szie\": 2}", rename).ok());
}

TEST(ResolveEditTest, ReplacesOnlyPlainIntegerArrays) {
  TextEdit e;
  e.kind = TextEdit::Kind::kReplaceIntegerArray;
  e.file = "def.json";
  e.line = 1;
  e.column = 21;
  e.offset = 20;
  e.original = "[[1,0]]";
  e.replacement = "[[0, 1]]";
  const std::string text = "{\"replica_groups\": [[[1,\n 0]]]}";
  EXPECT_EQ(Apply(text, e), "{\"replica_groups\": [[[0, 1]]]}");
  EXPECT_FALSE(ResolveEdit("{\"replica_groups\": [[\"a\"]]}", e).ok());
  EXPECT_FALSE(ResolveEdit("{\"replica_groups\": [[[1, 0]", e).ok());
  // An array of integers, but not the ones the rule saw.
  EXPECT_FALSE(ResolveEdit("{\"replica_groups\": [[[1, 2]]]}", e).ok());
  EXPECT_FALSE(ResolveEdit("{\"replica_groups\": [[[1, 0], [2]]]}", e).ok());
}

TEST(UnifiedDiffTest, HunksWithContextAndLineNumbers) {
  std::string text;
  for (int i = 1; i <= 12; ++i) text += "line" + std::to_string(i) + "\n";
  // Remove line 2 and rename within line 11: two hunks.
  const std::vector<ByteEdit> edits = {
      {6, 12, ""},  // "line2\n"
      {text.find("line11"), text.find("line11") + 6, "LINE11"}};
  EXPECT_EQ(UnifiedDiff("f.txt", text, edits),
            "--- f.txt\n+++ f.txt\n"
            "@@ -1,5 +1,4 @@\n line1\n-line2\n line3\n line4\n line5\n"
            "@@ -8,5 +7,5 @@\n line8\n line9\n line10\n-line11\n+LINE11\n"
            " line12\n");
  EXPECT_EQ(UnifiedDiff("f.txt", text, {}), "");
  EXPECT_EQ(UnifiedDiff("g", "a\nb", {{2, 3, "c"}}),
            "--- g\n+++ g\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of "
            "file\n+c\n\\ No newline at end of file\n");
}

Fix OneEdit(const std::string& file, int64_t column, std::string original,
            std::string replacement) {
  Fix f;
  f.title = "edit";
  TextEdit e;
  e.file = file;
  e.line = 1;
  e.column = column;
  e.offset = column - 1;
  e.original = std::move(original);
  e.replacement = std::move(replacement);
  f.edits.push_back(std::move(e));
  return f;
}

TEST(PlanFileFixesTest, SharesIdenticalEditsAndRefusesOverlaps) {
  testing::TempDir dir;
  const std::string file = dir.Write("c.json", "{\"ab\": 1, \"cd\": 2}\n");
  const Fix a = OneEdit(file, 2, "\"ab\"", "\"xy\"");
  const Fix same = OneEdit(file, 2, "\"ab\"", "\"xy\"");
  const Fix overlapping = OneEdit(file, 3, "ab", "zz");
  const Fix other = OneEdit(file, 11, "\"cd\"", "\"ef\"");
  absl::StatusOr<FileFixPlan> plan =
      PlanFileFixes(file, {&a, &same, &overlapping, &other});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->applied, (std::vector<bool>{true, true, false, true}));
  ASSERT_EQ(plan->refused.size(), 1u);
  EXPECT_NE(plan->refused[0].find("overlaps another fix"), std::string::npos);
  EXPECT_EQ(plan->after, "{\"xy\": 1, \"ef\": 2}\n");
  // A fix without edits, and one whose bytes are not there, are refused.
  const Fix empty;
  const Fix stale = OneEdit(file, 2, "\"zz\"", "\"yy\"");
  absl::StatusOr<FileFixPlan> refused = PlanFileFixes(file, {&empty, &stale});
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->applied, (std::vector<bool>{false, false}));
  EXPECT_EQ(refused->after, refused->before);
  ASSERT_EQ(refused->refused.size(), 2u);
  EXPECT_NE(refused->refused[1].find("the file changed since it was read"),
            std::string::npos);
  ASSERT_TRUE(WriteFixedFile(*plan).ok());
  EXPECT_EQ(testing::ReadAll(file), plan->after);
}

TEST(PlanFileFixesTest, NeverEditsBinariesOrArchives) {
  testing::TempDir dir;
  for (const char* name : {"m.hlo.pb", "m.hlo.gz", "model.neff"}) {
    const std::string file = dir.Write(name, "{\"ab\": 1}");
    const Fix f = OneEdit(file, 2, "\"ab\"", "\"xy\"");
    absl::StatusOr<FileFixPlan> plan = PlanFileFixes(file, {&f});
    ASSERT_TRUE(plan.ok());
    EXPECT_TRUE(plan->edits.empty()) << name;
    ASSERT_EQ(plan->refused.size(), 1u);
    EXPECT_NE(plan->refused[0].find("not fixable here"), std::string::npos);
  }
  EXPECT_NE(NotFixableReason("x.neff:sg00/def.json"), "");
  // A NUL byte: binary, whatever the name.
  const std::string bin = dir.Write("odd.json", std::string("{\"ab\"\0}", 7));
  const Fix f = OneEdit(bin, 2, "\"ab\"", "\"xy\"");
  absl::StatusOr<FileFixPlan> plan = PlanFileFixes(bin, {&f});
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->edits.empty());
}

TEST(WritableFixTest, NeedsTheOffsetAndTheBytesTheRuleSaw) {
  Fix f = OneEdit("c.json", 2, "\"ab\"", "\"xy\"");
  EXPECT_TRUE(WritableFix(f));
  f.edits[0].offset = -1;
  EXPECT_FALSE(WritableFix(f)) << "no offset: --fix would refuse it";
  f.edits[0].offset = 1;
  f.edits[0].original.clear();
  EXPECT_FALSE(WritableFix(f)) << "nothing to check: --fix would refuse it";
}

TEST(PlanFileFixesTest, ManyEditsArePlannedInOneSweep) {
  // Issue 43: 80,000 edits planned in quadratic time (a line count and an
  // overlap scan per edit). The sweep gives the same answer: every comment
  // goes, and of two fixes of one comment only the first.
  testing::TempDir dir;
  std::string text = "HloModule m\n";
  std::vector<int64_t> offsets;
  for (int i = 0; i < 20000; ++i) {
    offsets.push_back(static_cast<int64_t>(text.size()) + 2);
    text += "  // topolint: disable=x\n";
  }
  const std::string file = dir.Write("m.hlo", text);
  std::vector<Fix> fixes;
  for (int64_t at : offsets) {
    Fix f;
    f.title = "remove";
    TextEdit e = RemoveComment(at);
    e.file = file;
    f.edits.push_back(e);
    fixes.push_back(f);
  }
  // A fix overlapping one in the middle (a replacement inside a comment).
  Fix inside = OneEdit(file, 0, "topolint", "x");
  inside.edits[0].offset = offsets[10000] + 3;
  fixes.push_back(inside);
  std::vector<const Fix*> given;
  for (const Fix& f : fixes) given.push_back(&f);
  absl::StatusOr<FileFixPlan> plan = PlanFileFixes(file, given);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->after, "HloModule m\n");
  EXPECT_EQ(plan->edits.size(), offsets.size());
  EXPECT_FALSE(plan->applied.back());
  ASSERT_EQ(plan->refused.size(), 1u);
  EXPECT_NE(plan->refused[0].find("overlaps"), std::string::npos);
}

TEST(PlanFileFixesTest, OtherNamesOfTheFileAreItsEdits) {
  testing::TempDir dir;
  const std::string file = dir.Write("c.json", "{\"ab\": 1}\n");
  const Fix a = OneEdit(file, 2, "\"ab\"", "\"xy\"");
  const Fix b = OneEdit(dir.path() + "/link.json", 2, "\"ab\"", "\"xy\"");
  absl::StatusOr<FileFixPlan> plan =
      PlanFileFixes(file, {&a, &b}, {dir.path() + "/link.json"});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->applied, (std::vector<bool>{true, true}));
  EXPECT_EQ(plan->after, "{\"xy\": 1}\n");
}

TEST(PlanFileFixesTest, APipeIsNotFixable) {
  testing::TempDir dir;
  const std::string fifo = dir.path() + "/m.hlo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const Fix f = OneEdit(fifo, 2, "\"ab\"", "\"xy\"");
  // Not opened (opening a FIFO without a writer would block).
  absl::StatusOr<FileFixPlan> plan = PlanFileFixes(fifo, {&f});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_TRUE(plan->edits.empty());
  ASSERT_EQ(plan->refused.size(), 1u);
  EXPECT_NE(plan->refused[0].find("not fixable here: read from a pipe"),
            std::string::npos)
      << plan->refused[0];
}

// Issue 43: a file written between the read and the write (an editor, a
// second --fix) was replaced by the fixed old text.
TEST(WriteFixedFileTest, RefusesAFileThatChangedSinceItWasRead) {
  testing::TempDir dir;
  const std::string file = dir.Write("c.json", "{\"ab\": 1}\n");
  const Fix a = OneEdit(file, 2, "\"ab\"", "\"xy\"");
  absl::StatusOr<FileFixPlan> plan = PlanFileFixes(file, {&a});
  ASSERT_TRUE(plan.ok());
  // Same size, another modification time.
  testing::WriteAll(file, "{\"ab\": 2}\n");
  struct timespec times[2] = {{0, UTIME_OMIT}, {12345, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
  absl::Status st = WriteFixedFile(*plan);
  EXPECT_TRUE(absl::IsFailedPrecondition(st)) << st;
  EXPECT_NE(st.message().find("changed since it was read"), std::string::npos);
  EXPECT_EQ(testing::ReadAll(file), "{\"ab\": 2}\n");
  // Replaced by another file (another inode) of the same bytes: refused.
  plan = PlanFileFixes(file, {&a});
  ASSERT_TRUE(plan.ok());
  const std::string other = dir.Write("other.json", "{\"ab\": 2}\n");
  ASSERT_EQ(rename(other.c_str(), file.c_str()), 0);
  EXPECT_FALSE(WriteFixedFile(*plan).ok());
  EXPECT_EQ(testing::ReadAll(file), "{\"ab\": 2}\n");
}

TEST(WriteFixedFileTest, KeepsOwnerGroupAndModeAndWritesThroughASymlink) {
  testing::TempDir dir;
  const std::string file = dir.Write("real/c.json", "{\"ab\": 1}\n");
  ASSERT_EQ(chmod(file.c_str(), 0640), 0);
  const bool root = geteuid() == 0;
  if (root) {
    ASSERT_EQ(chown(file.c_str(), 12345, 12346), 0);
  }
  const std::string link = dir.path() + "/c.json";
  ASSERT_EQ(symlink(file.c_str(), link.c_str()), 0);
  const Fix a = OneEdit(link, 2, "\"ab\"", "\"xy\"");
  absl::StatusOr<FileFixPlan> plan = PlanFileFixes(link, {&a});
  ASSERT_TRUE(plan.ok());
  ASSERT_TRUE(WriteFixedFile(*plan).ok());
  struct stat lst, st;
  ASSERT_EQ(lstat(link.c_str(), &lst), 0);
  EXPECT_TRUE(S_ISLNK(lst.st_mode)) << "the link stays a link";
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(testing::ReadAll(file), "{\"xy\": 1}\n");
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  if (root) {
    EXPECT_EQ(st.st_uid, 12345u) << "as sed -i, root keeps the owner";
    EXPECT_EQ(st.st_gid, 12346u);
  }
  // No temporary left beside the target or the link.
  size_t entries = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(dir.path() + "/real")) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
}

TEST(UnifiedDiffTest, NamesWithBlanksAreQuotedAsGnuDiffQuotesThem) {
  // The two header lines of the diff of `file`.
  auto headers = [](const std::string& file) {
    const std::string diff = UnifiedDiff(file, "a\n", {{0, 1, "b"}});
    return diff.substr(0, diff.find("@@"));
  };
  EXPECT_EQ(headers("my dir/a b.hlo"),
            "--- \"my dir/a b.hlo\"\n+++ \"my dir/a b.hlo\"\n");
  EXPECT_EQ(headers("a\tb\"c\\d\x1b\xC3\xA9"),
            "--- \"a\\tb\\\"c\\\\d\\033\\303\\251\"\n"
            "+++ \"a\\tb\\\"c\\\\d\\033\\303\\251\"\n");
  EXPECT_EQ(headers("plain/x-1_2.hlo"),
            "--- plain/x-1_2.hlo\n+++ plain/x-1_2.hlo\n");
}

}  // namespace
}  // namespace topolint
