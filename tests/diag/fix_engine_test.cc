// The fix engine: resolving edits against bytes, refusing the ones that do
// not match, choosing non-overlapping fixes, and the unified diff.
#include <string>
#include <vector>

#include "checker/diag/fix.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

TextEdit RemoveComment(int64_t line, int64_t column) {
  TextEdit e;
  e.kind = TextEdit::Kind::kRemoveLineComment;
  e.file = "m.hlo";
  e.line = line;
  e.column = column;
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
  EXPECT_EQ(Apply(text, RemoveComment(2, 3)), "a\nb\n");
  // The last line, without a line break.
  EXPECT_EQ(Apply("a\n// topolint: disable=x", RemoveComment(2, 1)), "a\n");
  // CRLF: the line goes with its "\r\n".
  EXPECT_EQ(Apply("a\r\n// topolint: disable=x\r\nb\r\n", RemoveComment(2, 1)),
            "a\r\nb\r\n");
}

TEST(ResolveEditTest, RemovesATrailingCommentAndTheBlanksBeforeIt) {
  const std::string text = "ROOT x = f(p)   // topolint: disable=x\nb\n";
  EXPECT_EQ(Apply(text, RemoveComment(1, 17)), "ROOT x = f(p)\nb\n");
}

TEST(ResolveEditTest, RefusesWhatTheRuleDidNotSee) {
  // Not a topolint comment there (the file changed).
  EXPECT_FALSE(ResolveEdit("a\n// other\n", RemoveComment(2, 1)).ok());
  EXPECT_FALSE(ResolveEdit("a\n", RemoveComment(5, 1)).ok());
  EXPECT_FALSE(ResolveEdit("a\n", RemoveComment(1, 9)).ok());
  TextEdit rename;
  rename.file = "c.json";
  rename.line = 1;
  rename.column = 2;
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
  e.replacement = "[[0, 1]]";
  const std::string text = "{\"replica_groups\": [[[1,\n 0]]]}";
  EXPECT_EQ(Apply(text, e), "{\"replica_groups\": [[[0, 1]]]}");
  EXPECT_FALSE(ResolveEdit("{\"replica_groups\": [[\"a\"]]}", e).ok());
  EXPECT_FALSE(ResolveEdit("{\"replica_groups\": [[[1, 0]", e).ok());
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

}  // namespace
}  // namespace topolint
