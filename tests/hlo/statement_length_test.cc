// The instruction length limit (ParseOptions::max_instruction_bytes)
// counts an instruction from its first byte to its last: comments, blank
// lines and blanks between instructions are no part of it (issue 31 item
// 11: 64 MiB of `//` lines after an instruction gave a false hlo-syntax).
#include <unistd.h>

#include <cstdio>
#include <string>

#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

using testing::Errors;

// A module whose instructions are each followed by `gap`.
std::string ModuleWithGaps(const std::string& gap) {
  return "HloModule m, replica_count=4\n" + gap +
         "\nENTRY main {\n"
         "  %p = f32[8]{0} parameter(0)\n" +
         gap + "  %q = f32[8]{0} add(f32[8]{0} %p, f32[8]{0} %p)\n" + gap +
         "  %ar = f32[8]{0} all-reduce(f32[8]{0} %q), "
         "replica_groups={{0,1,2,3}}, to_apply=%add\n" +
         gap + "  ROOT %r = f32[8]{0} add(%ar, %ar)\n" + gap + "}\n";
}

Module ParseWithLimit(const std::string& text, size_t window, int64_t limit) {
  ParseOptions options;
  options.window_bytes = window;
  options.max_instruction_bytes = limit;
  return ParseHloText(text, "test.hlo", options);
}

TEST(StatementLengthTest, TriviaAfterAnInstructionDoesNotCount) {
  for (const std::string& gap :
       {std::string(40, '\n'), "  // " + std::string(300, 'c') + "\n",
        std::string(300, ' ') + "\n", "\n" + std::string(300, ' '),
        "/* " + std::string(300, 'b') + " */\n",
        "\r\n// a\r\n// " + std::string(300, 'd') + "\r\n"}) {
    const std::string text = ModuleWithGaps(gap);
    for (size_t window : {size_t{1}, size_t{7}, size_t{64}, size_t{1} << 20}) {
      // Each instruction is under 120 bytes; each gap is over 250.
      const Module m = ParseWithLimit(text, window, 120);
      EXPECT_EQ(Errors(m), "") << window << " " << text;
      EXPECT_EQ(m.collectives.size(), 1u);
    }
  }
}

TEST(StatementLengthTest, AnInstructionOverTheLimitIsStillReported) {
  const std::string text = ModuleWithGaps("// " + std::string(300, 'c') + "\n");
  for (size_t window : {size_t{1}, size_t{1} << 20}) {
    // The all-reduce is 91 bytes long; the other instructions are shorter.
    const Module m = ParseWithLimit(text, window, 80);
    EXPECT_EQ(Errors(m),
              "9:3: instruction is longer than the limit of 80 bytes; "
              "expected it to end sooner\n")
        << window;
  }
}

TEST(StatementLengthTest, CommentsAndBlanksInsideAnInstructionCount) {
  const std::string text =
      "HloModule m\n\nENTRY main {\n"
      "  %p = f32[8]{0} parameter(0)\n"
      "  ROOT %t = (f32[8]{0}, f32[8]{0}) tuple(%p, // " +
      std::string(200, 'c') + "\n    %p)\n}\n";
  for (size_t window : {size_t{1}, size_t{1} << 20}) {
    const Module m = ParseWithLimit(text, window, 120);
    EXPECT_NE(Errors(m).find("5:3: instruction is longer than the limit"),
              std::string::npos)
        << Errors(m);
  }
}

// The default limit (64 MiB), crossed by comment lines alone: the file is
// written in pieces and read through the default window.
TEST(StatementLengthTest, MoreThan64MiBOfCommentLinesAfterAnInstruction) {
  char path[] = "/tmp/topolint_statement_length_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  std::FILE* out = fdopen(fd, "w");
  ASSERT_NE(out, nullptr);
  std::fputs(
      "HloModule m, replica_count=4\n\nENTRY main {\n"
      "  %p = f32[8]{0} parameter(0)\n"
      "  %ar = f32[8]{0} all-reduce(f32[8]{0} %p), "
      "replica_groups={{0,1,2,3}}, to_apply=%add\n",
      out);
  const std::string line = "  // " + std::string(1019, 'x') + "\n";  // 1 KiB
  const int64_t lines = (kMaxInstructionBytes >> 10) + 64;
  for (int64_t i = 0; i < lines; ++i) std::fputs(line.c_str(), out);
  std::fputs("  ROOT %r = f32[8]{0} add(%ar, %ar)\n}\n", out);
  ASSERT_EQ(std::fclose(out), 0);
  Module m;
  const absl::Status status = ParseHloFile(path, "big.hlo", ParseOptions{}, &m);
  std::remove(path);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Errors(m), "");
  EXPECT_EQ(m.collectives.size(), 1u);
}

}  // namespace
}  // namespace topolint::hlo
