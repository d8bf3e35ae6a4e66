// Parser fixes found by the syntax corpus (fixtures/corpus): each test holds
// a form XLA's parser accepts that topolint used to reject, checked in memory
// and through a one-byte window (which disables every fast path).
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

using ::testing::ElementsAre;
using testing::Errors;
using testing::InEntry;
using testing::Parse;

Module ParseWithWindow(const std::string& text, size_t window) {
  ParseOptions options;
  options.window_bytes = window;
  return ParseHloText(text, "test.hlo", options);
}

// Parses `text` in memory and through windows of 1 and 3 bytes; expects no
// syntax error and the same module every time.
Module ParseClean(const std::string& text) {
  Module m = Parse(text);
  EXPECT_EQ(Errors(m), "") << text;
  for (size_t window : {1, 3}) {
    EXPECT_EQ(ModuleDebugString(ParseWithWindow(text, window)),
              ModuleDebugString(m))
        << "window " << window << "\n"
        << text;
  }
  return m;
}

std::vector<std::string> Names(const Module& m) {
  std::vector<std::string> out;
  for (const Collective& c : m.collectives) out.push_back(c.name);
  return out;
}

TEST(HeaderNameTest, TrailingColonIsPartOfTheNameToken) {
  const Module m = ParseClean(
      "HloModule no_root:\n"
      "ENTRY consts {\n"
      "  p = f32[4]{0} parameter(0)\n"
      "  ROOT ar = f32[4]{0} all-reduce(p), replica_groups={}, to_apply=s\n"
      "}\n");
  EXPECT_EQ(m.name, "no_root");
  EXPECT_THAT(Names(m), ElementsAre("ar"));
}

TEST(HeaderNameTest, ColonThenAttributes) {
  const Module m = ParseClean(
      "HloModule m:, replica_count=2\nENTRY e {\n"
      "  ROOT p = f32[] parameter(0)\n}\n");
  EXPECT_EQ(m.name, "m");
  EXPECT_EQ(*m.replica_count, 2);
}

TEST(LineCommentTest, CarriageReturnEndsIt) {
  // Old Mac line ends: no '\n' at all.
  const Module m = ParseClean(
      "HloModule mac:\r// header comment\rENTRY c1 {\r// inner\r"
      "p = f32[2]{0} parameter(0)\r"
      "ROOT r = f32[2]{0} all-reduce(p), replica_groups={{0}}, to_apply=s "
      "// trailing\r}");
  EXPECT_EQ(m.name, "mac");
  EXPECT_THAT(Names(m), ElementsAre("r"));
  EXPECT_EQ(m.collectives[0].to_apply, "s");
}

TEST(LineCommentTest, CrLfSuppressionStillApplies) {
  const Module m = ParseClean(
      "HloModule m\r\nENTRY e {\r\n"
      "  p = f32[2]{0} parameter(0)\r\n"
      "  // topolint: disable-next-line=hlo-group-coverage\r\n"
      "  ROOT r = f32[2]{0} all-reduce(p), replica_groups={{0}}, to_apply=s\r\n"
      "}\r\n");
  ASSERT_EQ(m.suppressions.size(), 1u);
  EXPECT_THAT(m.suppressions[0].rules, ElementsAre("hlo-group-coverage"));
  EXPECT_EQ(m.suppressions[0].target_line, 5);
}

TEST(LiteralAttributeTest, ScalarAfterABlankContinuesTheValue) {
  for (const char* literal :
       {"f32[] 0.25", "f32[] -inf", "pred[] true", "pred[] false", "f32[] nan",
        "f32[] inf", "c64[] (1, 2)", "s32[] -7"}) {
    const std::string text = InEntry(
        std::string("  %c = f32[1]{0} custom-call(), custom_call_target=\"t\", "
                    "literal=") +
        literal +
        "\n  ROOT %ar = f32[8,16]{1,0} all-reduce(%p), replica_groups={}, "
        "to_apply=%add");
    const Module m = ParseClean(text);
    EXPECT_THAT(Names(m), ElementsAre("%ar")) << literal;
  }
}

TEST(LiteralAttributeTest, ScalarOnACollectiveToo) {
  const Module m = ParseClean(InEntry(
      "  ROOT %ar = f32[8,16]{1,0} all-reduce(%p), replica_groups={{0,1}}, "
      "literal=f32[] 1.5, to_apply=%add"));
  ASSERT_THAT(Names(m), ElementsAre("%ar"));
  EXPECT_EQ(m.collectives[0].to_apply, "%add");
}

TEST(LiteralAttributeTest, ANameAfterABlankStillStartsAnInstruction) {
  // One-line computations separate instructions with blanks only.
  const Module m = ParseClean(
      "HloModule m\n"
      "one { p = f32[4] parameter(0), sharding={replicated} ROOT r = f32[4] "
      "all-reduce(p), replica_groups={{0,1}}, to_apply=one }\n");
  EXPECT_THAT(Names(m), ElementsAre("r"));
  // `true_value` is a name, not the literal `true`.
  const Module n = ParseClean(
      "HloModule m\n"
      "two { p = f32[4] parameter(0), sharding={replicated} true_value = "
      "f32[4] all-reduce(p), replica_groups={{0,1}}, to_apply=two }\n");
  EXPECT_THAT(Names(n), ElementsAre("true_value"));
}

TEST(InlineComputationTest, ToApplyBodyOnACollective) {
  const Module m = ParseClean(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[4]{0} parameter(0)\n"
      "  ROOT ar = f32[4]{0} all-reduce(p), replica_groups={{0,1}}, "
      "to_apply={\n"
      "    x = f32[] parameter(0)\n"
      "    y = f32[] parameter(1)\n"
      "    ROOT s = f32[] add(x, y)\n"
      "  }, channel_id=3\n"
      "}\n");
  ASSERT_THAT(Names(m), ElementsAre("ar"));
  EXPECT_EQ(m.collectives[0].to_apply, "");
  EXPECT_TRUE(m.collectives[0].has_channel_id);
  EXPECT_EQ(m.computation_count, 1);
}

TEST(InlineComputationTest, NestedBodiesOnOtherInstructions) {
  const Module m = ParseClean(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p0 = f32[] parameter(0)\n"
      "  w = f32[] while(p0), condition=\n"
      "{\n"
      "  a = f32[] parameter(0)\n"
      "  ROOT t = pred[] constant(true)\n"
      "}, body=\n"
      "{\n"
      "  b = f32[] parameter(0)\n"
      "  ROOT c = f32[] call(b), to_apply={\n"
      "    d = f32[] parameter(0)\n"
      "    ROOT e = f32[] negate(d)\n"
      "  }\n"
      "}\n"
      "  k = s32[] constant(0)\n"
      "  br = f32[] conditional(k, w), branch_computations={\n"
      "{\n"
      "  q = f32[] parameter(0)\n"
      "  ROOT r = f32[] ceil(q)\n"
      "},\n"
      "{\n"
      "  q = f32[] parameter(0)\n"
      "  ROOT r = f32[] floor(q)\n"
      "}\n"
      "}\n"
      "  ROOT ag = f32[2]{0} all-gather(br), replica_groups={{0,1}}, "
      "dimensions={0}\n"
      "}\n");
  EXPECT_THAT(Names(m), ElementsAre("ag"));
  EXPECT_EQ(m.computation_count, 1);
}

TEST(InlineComputationTest, MissingCloserIsStillReportedAtTheNextLine) {
  // A '{' that does not end its line keeps the old recovery: the error
  // points at it and the next instruction is still parsed.
  const Module m = Parse(InEntry(
      "  %x = f32[8,16]{1,0} custom-call(%p), backend_config={\"a\": 1,\n"
      "  ROOT %ar = f32[8,16]{1,0} all-reduce(%p), replica_groups={}, "
      "to_apply=%add"));
  EXPECT_THAT(Errors(m), ::testing::HasSubstr("unbalanced brackets"));
  EXPECT_THAT(Names(m), ElementsAre("%ar"));
}

TEST(BufferShapeTest, ResultOperandAndParameterShapes) {
  const Module m = ParseClean(
      "HloModule m, replica_count=2\n"
      "ENTRY e (q: b(f32[8])) -> f32[8] {\n"
      "  p0 = f32[8]{0} parameter(0)\n"
      "  pin = b(f32[8]{0}) custom-call(p0), custom_call_target=\"Pin\"\n"
      "  t = (b(f32[8]), u32[]) custom-call(pin), custom_call_target=\"x\"\n"
      "  g = b(f32[8]) get-tuple-element(t), index=0\n"
      "  ROOT ar = f32[8]{0} all-reduce(g), replica_groups={{0,1}}, "
      "to_apply=s\n"
      "}\n");
  ASSERT_THAT(Names(m), ElementsAre("ar"));
  EXPECT_EQ(ShapeToString(m.collectives[0].operand_shapes[0]), "f32[8]");
}

TEST(BufferShapeTest, InlineOperandShape) {
  const Module m = ParseClean(
      "HloModule m\nENTRY e {\n"
      "  ROOT ag = f32[16]{0} all-gather(b(f32[8]{0}) g), "
      "replica_groups={{0,1}}, dimensions={0}\n}\n");
  ASSERT_THAT(Names(m), ElementsAre("ag"));
  EXPECT_EQ(ShapeToString(m.collectives[0].operand_shapes[0]), "f32[8]");
}

TEST(SignatureTest, ResultShapeDirectlyBeforeTheBody) {
  const Module m = ParseClean(
      "HloModule m\n"
      "ENTRY e (a: f32[2]) -> f32[4]{\n"
      "  %a = f32[2]{0} parameter(0)\n"
      "  ROOT %ag = f32[4]{0} all-gather(%a), replica_groups={{0,1}}, "
      "dimensions={0}\n"
      "}\n");
  EXPECT_THAT(Names(m), ElementsAre("%ag"));
}

}  // namespace
}  // namespace topolint::hlo
