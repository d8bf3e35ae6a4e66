// Syntax errors: exact positions and messages, recovery at the next
// instruction, the error cap, limits, binary input, unreadable files.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

using testing::Errors;
using ::testing::HasSubstr;
using testing::Parse;
using ::testing::SizeIs;
using ::testing::StartsWith;
using testing::WriteTemp;

TEST(HloErrorTest, EmptyAndCommentOnlyFiles) {
  EXPECT_EQ(Errors(Parse("")),
            "1:1: expected 'HloModule' or a computation, found end of file\n");
  EXPECT_EQ(Errors(Parse("  \n// only a comment\n")),
            "3:1: expected 'HloModule' or a computation, found end of file\n");
  EXPECT_EQ(Errors(Parse("HloModule m\n")),
            "2:1: expected a computation (such as 'ENTRY main { ... }') after "
            "the HloModule header, found end of file\n");
}

TEST(HloErrorTest, NotHloAtAll) {
  EXPECT_EQ(Errors(Parse("hello world\nthis is not hlo\n")),
            "1:1: expected 'HloModule' or a computation ('name {' or 'ENTRY "
            "name {'), found 'hello'\n");
  EXPECT_EQ(Errors(Parse("{\"CCInfo\": {}}")),
            "1:1: expected 'HloModule' or a computation, found '{'\n");
}

TEST(HloErrorTest, BinaryInputIsOneError) {
  std::string binary = "HloModule m\n";
  for (int i = 0; i < 5000; ++i) binary.push_back(static_cast<char>(i * 7));
  const Module m = Parse(binary);
  ASSERT_THAT(m.syntax_errors, SizeIs(1));
  EXPECT_EQ(Errors(m),
            "2:1: not HLO text: found control byte 0x00; the input "
            "looks like binary data\n");
  // A control byte after the first 4 KiB stops parsing there.
  std::string late = "HloModule m\nENTRY e {\n";
  for (int i = 0; i < 300; ++i) late += "  x = f32[] constant(0)\n";
  late +=
      "  y = f32[] constant(\x01)\n  ROOT r = f32[] all-reduce(y), "
      "to_apply=a\n}\n";
  const Module l = Parse(late);
  EXPECT_EQ(Errors(l),
            "303:22: not HLO text: found control byte 0x01; the "
            "input looks like binary data\n");
  EXPECT_TRUE(l.collectives.empty());
}

// A control byte in the first 4 KiB after text that parses cleanly up to
// it (a whole module with a NUL after it): the module is checked, its
// collectives reach the sink, and the byte is reported where it is, as
// after the first 4 KiB. Garbage before the byte keeps the binary verdict.
TEST(HloErrorTest, ControlByteAfterAWholeModuleKeepsTheModule) {
  const std::string module =
      "HloModule m, replica_count=4\n"
      "ENTRY e {\n"
      "  p = f32[8] parameter(0)\n"
      "  ROOT ar = f32[8] all-reduce(p), replica_groups={{0,1},{2,3}}, "
      "to_apply=a\n"
      "}\n";
  const std::string nul_after = module + std::string(1, '\0') + "\n";
  const Module m = Parse(nul_after);
  EXPECT_EQ(Errors(m),
            "6:1: not HLO text: found control byte 0x00; the input looks "
            "like binary data\n");
  EXPECT_TRUE(m.has_header);
  EXPECT_EQ(m.replica_count, 4);
  ASSERT_THAT(m.collectives, SizeIs(1));
  EXPECT_EQ(m.collectives[0].name, "ar");

  // With a sink: the collective is handed to it, once, after the parse.
  ParseOptions sinking;
  std::vector<std::string> seen;
  sinking.on_collective = [&](const Module& mod, Collective& c) {
    EXPECT_TRUE(mod.has_header);
    seen.push_back(c.name);
  };
  const Module s = ParseHloText(nul_after, "test.hlo", sinking);
  EXPECT_THAT(seen, ::testing::ElementsAre("ar"));
  EXPECT_TRUE(s.collectives.empty());
  EXPECT_THAT(s.syntax_errors, SizeIs(1));

  // A syntax error before the byte: binary data, one finding, nothing kept
  // (and nothing handed to the sink).
  seen.clear();
  const std::string bad =
      "HloModule m\nENTRY e {\n  ROOT ar = f32[8] all-reduce(p), "
      "replica_groups={{0,1}}, to_apply=a\n  @@@\n}\n" +
      std::string(1, '\x01');
  const Module b = ParseHloText(bad, "test.hlo", sinking);
  EXPECT_EQ(Errors(b),
            "6:1: not HLO text: found control byte 0x01; the input looks "
            "like binary data\n");
  EXPECT_TRUE(seen.empty());
  EXPECT_FALSE(b.has_header);
  EXPECT_TRUE(b.collectives.empty());
}

// The first 4 KiB are checked for control bytes at once when the window
// holds them (a small file read whole, the first window of a large one):
// the same report, at the same place, as byte by byte through a 1-byte
// window, wherever the byte is; whitespace bytes are no control bytes.
TEST(HloErrorTest, ControlBytesInTheFirstWindowAtEveryPlace) {
  std::string text = "HloModule m\nENTRY e {\n";
  for (int i = 0; i < 200; ++i) {
    text += "  x." + std::to_string(i) + " = f32[]\t constant(0)\r\n";
  }
  text += "  ROOT r = f32[] constant(0)\n}\n";
  ASSERT_GT(text.size(), size_t{5000});
  for (size_t window : {size_t{1}, size_t{4096}, kDefaultWindowBytes}) {
    ParseOptions options;
    options.window_bytes = window;
    EXPECT_EQ(Errors(ParseHloText(text, "test.hlo", options)), "") << window;
    std::string vt = text;
    vt[30] = '\v';
    vt[31] = '\f';
    EXPECT_EQ(ModuleDebugString(ParseHloText(vt, "test.hlo", options)),
              testing::DumpWithWindow(vt, 1));
  }
  for (size_t at : {size_t{0}, size_t{15}, size_t{16}, size_t{17}, size_t{40},
                    size_t{1000}, size_t{4079}, size_t{4080}, size_t{4095}}) {
    for (char bad : {'\0', '\x01', '\x1b', '\x7f'}) {
      std::string b = text;
      b[at] = bad;
      ParseOptions bytewise;
      bytewise.window_bytes = 1;
      const std::string exact = Errors(ParseHloText(b, "test.hlo", bytewise));
      EXPECT_THAT(exact, HasSubstr("not HLO text")) << at;
      EXPECT_EQ(Errors(Parse(b)), exact) << at << " " << int{bad};
    }
  }
  // Binary data after a line of garbage: the control byte is what is
  // reported (before the parser could stop at the garbage), found by the
  // check of the first 4 KiB.
  std::string garbage = "HloModule m\n@@@@ ###\n";
  garbage.push_back('\x02');
  garbage += text;
  EXPECT_EQ(Errors(Parse(garbage)),
            "3:1: not HLO text: found control byte 0x02; the input looks "
            "like binary data\n");
  // Lines of high bytes (each an error of its own to the parser) before the
  // first control byte: one finding, the control byte.
  std::string high;
  for (int i = 0; i < 30; ++i) high += "\xff\xfe\xfd =\n";
  high.push_back('\x03');
  high += text;
  EXPECT_EQ(Errors(Parse(high)),
            "31:1: not HLO text: found control byte 0x03; the input looks "
            "like binary data\n");
  // A PNG's signature: its first bytes are no control bytes, the fifth is.
  std::string png = "\x89PNG\r\n\x1a\n";
  png += text;
  EXPECT_EQ(Errors(Parse(png)),
            "2:1: not HLO text: found control byte 0x1a; the input looks "
            "like binary data\n");
}

TEST(HloErrorTest, HeaderValues) {
  EXPECT_EQ(Errors(Parse("HloModule m, replica_count=0\nENTRY e {\n}\n")),
            "1:28: replica_count must be a positive integer, found 0\n");
  EXPECT_EQ(Errors(Parse("HloModule m, num_partitions=-2\nENTRY e {\n}\n")),
            "1:29: num_partitions must be a positive integer, found -2\n");
  EXPECT_EQ(Errors(Parse("HloModule m, replica_count=99999999999999999999\n"
                         "ENTRY e {\n}\n")),
            "1:28: integer 99999999999999999999 does not fit in 64 bits\n");
  EXPECT_EQ(Errors(Parse("HloModule m, replica_count=2, replica_count=2\n"
                         "ENTRY e {\n}\n")),
            "1:31: header attribute 'replica_count' is given twice; expected "
            "it at most once\n");
  EXPECT_EQ(Errors(Parse("HloModule m, replica_count=2x\nENTRY e {\n}\n")),
            "1:29: expected ',' or end of line after the value of "
            "'replica_count', found 'x'\n");
  EXPECT_EQ(Errors(Parse("HloModule\nENTRY e {\n}\n")),
            "2:1: expected a module name after 'HloModule', found 'ENTRY'\n");
}

TEST(HloErrorTest, TruncatedModules) {
  const std::string full =
      "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n"
      "  ROOT r = f32[4] all-reduce(p), replica_groups={{0,1}}, "
      "to_apply=add\n}\n";
  EXPECT_EQ(Errors(Parse(full)), "");
  // Cut before the closing brace: the collective is kept.
  const Module no_close = Parse(full.substr(0, full.size() - 2));
  EXPECT_EQ(Errors(no_close),
            "5:1: expected '}' to close computation 'e' "
            "(opened at 2:1), found end of file\n");
  EXPECT_THAT(no_close.collectives, SizeIs(1));
  // Cut inside the operand list.
  const Module cut = Parse(full.substr(0, full.find("(p)") + 2));
  EXPECT_EQ(Errors(cut),
            "4:31: expected ',' or ')' in the operand list of "
            "'r', found end of file\n");
}

TEST(HloErrorTest, CutInsideReplicaGroups) {
  const Module m = Parse(
      "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n"
      "  ROOT r = f32[4] all-reduce(p), replica_groups={{0,1");
  EXPECT_EQ(Errors(m),
            "4:54: expected ',' or '}' in replica group 0, found "
            "end of file\n");
}

TEST(HloErrorTest, UnbalancedBrackets) {
  // A '[' never closed in a shape: reported where the wrong closer is.
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  p = f32[4 parameter(0)\n"
                         "  ROOT r = f32[4] all-reduce(p), to_apply=add\n}\n")),
            "3:10: unbalanced brackets: expected ']' to close this '[' before "
            "the instruction on line 4\n");
  // A '{' never closed in an attribute of a non-collective.
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  p = f32[4] parameter(0), "
                         "sharding={devices=[2]0,1\n")),
            "3:37: unbalanced brackets: expected '}' to close this '{' before "
            "end of file\n"
            "4:1: expected '}' to close computation 'e' (opened at 2:1), "
            "found end of file\n");
  // A mismatched closer.
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  ROOT r = f32[4] "
                         "all-reduce(p), to_apply=add, "
                         "sharding={devices=[2]0,1)\n}\n")),
            "3:72: unbalanced brackets: expected '}' to close the '{' opened "
            "at 3:57, found ')'\n");
  // An extra closer after the computation.
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  ROOT c = f32[] "
                         "constant(0)\n}\n}\n")),
            "5:1: expected a computation, found '}'\n");
}

TEST(HloErrorTest, CommentsAndStrings) {
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  p = f32[4] parameter(0) "
                         "/* open\n  ROOT c = f32[] constant(0)\n}\n")),
            "3:27: unterminated comment: expected '*/' to close the '/*' that "
            "starts here\n"
            "6:1: expected '}' to close computation 'e' (opened at 2:1), "
            "found end of file\n");
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  x = f32[4] add(p, p) / "
                         "2\n  ROOT c = f32[] constant(0)\n}\n")),
            "3:24: expected an instruction ('name = shape opcode(...)') or '}' "
            "to close computation 'e', found '/'\n");
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  x = f32[4] custom-call(p), "
                         "backend_config=\"never closed\n}\n")),
            "3:45: unterminated string: expected a closing quote (\") for the "
            "string that starts here\n"
            "5:1: expected '}' to close computation 'e' (opened at 2:1), "
            "found end of file\n");
}

TEST(HloErrorTest, InstructionShape) {
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  x f32[4] add(p, p)\n"
                         "  ROOT c = f32[] constant(0)\n}\n")),
            "3:5: expected '=' after instruction name 'x', found 'f32'\n");
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  %x = f32[4] add\n"
                         "  ROOT c = f32[] constant(0)\n}\n")),
            "4:3: expected '(' after opcode 'add', found 'ROOT'\n");
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  %x = = f32[4] add(p)\n"
                         "  ROOT c = f32[] constant(0)\n}\n")),
            "3:8: expected a shape or an opcode after '%x =', found '='\n");
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  %x = f32[4] 7(p)\n"
                         "  ROOT c = f32[] constant(0)\n}\n")),
            "3:15: expected an opcode after the shape of '%x', found '7'\n");
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  ROOT r = f32[4] "
                         "all-reduce(f32[4 %p), to_apply=add\n}\n")),
            "3:36: expected ',' or ']' in the shape dimensions, found '%p'\n");
  // `f32` alone is an operand name, so '%p' is out of place.
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  ROOT r = f32[4] "
                         "all-reduce(f32 %p), to_apply=add\n}\n")),
            "3:34: expected ',' or ')' in the operand list of 'r', found "
            "'%p'\n");
}

TEST(HloErrorTest, ComputationHeaders) {
  EXPECT_EQ(Errors(Parse("HloModule m\n%c1 (p: f32[4] -> f32[4] {\n  p = "
                         "f32[4] parameter(0)\n}\n")),
            "2:16: expected ',' or ')' in the parameter list of computation "
            "'%c1', found '->'\n");
  EXPECT_EQ(Errors(Parse("HloModule m\n%c1 (p f32[4]) -> f32[4] {\n}\n")),
            "2:8: expected ':' after parameter 'p', found 'f32'\n");
  EXPECT_EQ(Errors(Parse("HloModule m\n%c1 (p: f32[4]) f32[4] {\n}\n")),
            "2:17: expected '->' and the result shape after the parameters of "
            "computation '%c1', found 'f32'\n");
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e\n  ROOT c = f32[] "
                         "constant(0)\n}\n")),
            "3:3: expected '{' to start the body of computation 'e', found "
            "'ROOT'\n");
  EXPECT_EQ(Errors(Parse("HloModule m\n  x = f32[] constant(0)\n")),
            "2:3: expected a computation ('name {' or 'ENTRY name {'), found "
            "instruction 'x' outside any computation\n");
}

TEST(HloErrorTest, MissingCloseBeforeNextComputation) {
  const Module m = Parse(
      "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n\n%c2 {\n  q = "
      "f32[4] parameter(0)\n  ROOT r = f32[4] all-reduce(q), "
      "to_apply=add\n}\n");
  EXPECT_EQ(Errors(m),
            "5:1: expected '}' to close computation 'e' (opened at "
            "2:1) before the next computation\n");
  ASSERT_THAT(m.collectives, SizeIs(1));
  EXPECT_EQ(m.collectives[0].computation, "%c2");
  EXPECT_EQ(m.computation_count, 2);
}

TEST(HloErrorTest, RecoveryAtTheNextInstruction) {
  const Module m = Parse(R"hlo(HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] all-reduce(p), replica_groups=[2,2]<=[3], to_apply=add
  b = f32[4] all-reduce(p), replica_groups={{0,1}}, to_apply=add
  c = f32[4] all-reduce(p) extra, to_apply=add
  d = f32[4] all-gather(p), replica_groups={{0},{1}}, dimensions={0}
  e = f32[4] bad(
      more, stuff
  f = f32[4] collective-permute(p), source_target_pairs={{0,1}}
  ROOT g = f32[4] copy(f)
}
)hlo");
  EXPECT_EQ(Errors(m),
            "4:51: iota replica_groups [2,2] hold 4 ids but the reshape dims "
            "[3] hold 3; expected the same number\n"
            "6:33: expected '=' after instruction name 'extra', found ','\n"
            "8:17: unbalanced brackets: expected ')' to close this '(' before "
            "the instruction on line 10\n");
  // b, d and f survive the errors around them; c is complete up to the
  // stray word after its operands.
  ASSERT_THAT(m.collectives, SizeIs(4));
  EXPECT_EQ(m.collectives[0].name, "b");
  EXPECT_EQ(m.collectives[1].name, "c");
  EXPECT_EQ(m.collectives[2].name, "d");
  EXPECT_EQ(m.collectives[3].name, "f");
}

TEST(HloErrorTest, ErrorCapStopsParsing) {
  std::string text = "HloModule m\nENTRY e {\n";
  for (int i = 0; i < 50; ++i) {
    text += "  x" + std::to_string(i) + " = f32[] add(]\n";
  }
  text += "}\n";
  const Module m = Parse(text);
  ASSERT_THAT(m.syntax_errors, SizeIs(kMaxSyntaxErrors + 1));
  EXPECT_EQ(m.syntax_errors[19].pos.line, 22);
  EXPECT_EQ(m.syntax_errors.back().pos.line, 23);
  EXPECT_EQ(m.syntax_errors.back().message,
            "too many syntax errors (20); the rest of the file was not "
            "checked");
}

TEST(HloLimitTest, IntegersThatOverflow) {
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  ROOT r = f32[4] "
                         "all-reduce(p), channel_id=9223372036854775808, "
                         "to_apply=add\n}\n")),
            "3:45: integer 9223372036854775808 does not fit in 64 bits\n");
  const Module min = Parse(
      "HloModule m\nENTRY e {\n  ROOT r = f32[4] "
      "all-reduce(p), channel_id=-9223372036854775808, "
      "to_apply=add\n}\n");
  EXPECT_EQ(Errors(min), "");
  EXPECT_EQ(min.collectives[0].channel_id, INT64_MIN);
  EXPECT_EQ(Errors(Parse("HloModule m\nENTRY e {\n  ROOT r = f32[4] "
                         "all-reduce(p), channel_id=-9223372036854775809, "
                         "to_apply=add\n}\n")),
            "3:45: integer -9223372036854775809 does not fit in 64 bits\n");
}

TEST(HloLimitTest, LongInstructionIsAnError) {
  ParseOptions options;
  options.max_instruction_bytes = 200;
  std::string text = "HloModule m\nENTRY e {\n  x = f32[4] custom-call(),\n";
  for (int i = 0; i < 20; ++i) text += "      a" + std::to_string(i) + "=1,\n";
  text += "      z=2\n  ROOT r = f32[4] all-reduce(x), to_apply=add\n}\n";
  const Module m = ParseHloText(text, "t.hlo", options);
  EXPECT_EQ(Errors(m),
            "3:3: instruction is longer than the limit of 200 "
            "bytes; expected it to end sooner\n");
  EXPECT_THAT(m.collectives, SizeIs(1));
  // Inside brackets the limit is checked at each line break.
  std::string nested = "HloModule m\nENTRY e {\n  x = f32[4] custom-call(\n";
  for (int i = 0; i < 100; ++i) nested += "      p" + std::to_string(i) + ",\n";
  nested += "      q)\n  ROOT r = f32[4] all-reduce(x), to_apply=add\n}\n";
  const Module n = ParseHloText(nested, "t.hlo", options);
  EXPECT_EQ(Errors(n),
            "3:3: instruction is longer than the limit of 200 "
            "bytes; expected it to end sooner\n");
}

TEST(HloLimitTest, LongNamesDeepNestingAndHugeShapes) {
  const std::string long_name(kMaxTokenBytes + 10, 'n');
  EXPECT_THAT(Errors(Parse("HloModule m\nENTRY e {\n  " + long_name +
                           " = f32[] constant(0)\n}\n")),
              StartsWith("3:3: name 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...' is "
                         "longer than the limit of 65536 bytes\n"));
  const std::string deep = std::string(2000, '{') + std::string(2000, '}');
  // (`schedule=`, a skipped attribute: a sharding this deep is refused.)
  EXPECT_THAT(Errors(Parse("HloModule m\nENTRY e {\n  x = f32[] "
                           "constant(0), schedule=" +
                           deep + "\n}\n")),
              StartsWith("3:1035: brackets nest deeper than the limit of "
                         "1000\n"));
  // Just within the limit (the bracket stack grows as deep as it goes),
  // also through a 1-byte window, where no fast path engages.
  const std::string within = std::string(999, '{') + std::string(999, '}');
  const std::string ok_text =
      "HloModule m\nENTRY e {\n  ROOT x = f32[] constant(0), schedule=" +
      within + "\n}\n";
  EXPECT_EQ(Errors(Parse(ok_text)), "");
  ParseOptions bytewise;
  bytewise.window_bytes = 1;
  EXPECT_EQ(Errors(ParseHloText(ok_text, "test.hlo", bytewise)), "");
  std::string tuple;
  for (int i = 0; i < 100; ++i) tuple += "(";
  tuple += "f32[]";
  for (int i = 0; i < 100; ++i) tuple += ")";
  EXPECT_THAT(Errors(Parse("HloModule m\nENTRY e {\n  ROOT r = f32[] "
                           "all-reduce(" +
                           tuple + " %p), to_apply=add\n}\n")),
              StartsWith("3:93: tuple shape nests deeper than the limit of "
                         "64\n"));
}

TEST(HloLimitTest, ExplicitListsAreBounded) {
  std::string groups = "{";
  for (int64_t g = 0; g < kMaxExplicitIds / 1024 + 1; ++g) {
    if (g > 0) groups += ",";
    groups += "{0";
    for (int i = 1; i < 1024; ++i) groups += ",0";
    groups += "}";
  }
  groups += "}";
  const Module m = Parse(
      "HloModule m\nENTRY e {\n  ROOT r = f32[] "
      "all-reduce(p), replica_groups=" +
      groups + ", to_apply=add\n}\n");
  EXPECT_EQ(Errors(m),
            "3:48: replica_groups lists more than the limit of "
            "1048576 ids\n");
  EXPECT_TRUE(m.collectives.empty());
}

TEST(HloFileTest, UnreadableFiles) {
  Module m;
  const absl::Status missing =
      ParseHloFile("/nonexistent/dir/x.hlo", "x.hlo", &m);
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.message()), HasSubstr("x.hlo: cannot open"));
  const absl::Status dir = ParseHloFile("/tmp", "tmp", &m);
  EXPECT_FALSE(dir.ok());
}

TEST(HloFileTest, BinaryFileThroughTheFileReader) {
  std::string binary;
  for (int i = 0; i < 100000; ++i) binary.push_back(static_cast<char>(i * 31));
  const std::string path = WriteTemp(binary);
  Module m;
  ASSERT_TRUE(ParseHloFile(path, "b.hlo", &m).ok());
  std::remove(path.c_str());
  ASSERT_THAT(m.syntax_errors, SizeIs(1));
  EXPECT_THAT(m.syntax_errors[0].message, StartsWith("not HLO text"));
  EXPECT_EQ(m.file, "b.hlo");
}

}  // namespace
}  // namespace topolint::hlo
