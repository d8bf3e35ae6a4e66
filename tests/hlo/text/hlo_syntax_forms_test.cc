// The HLO text forms the parser must accept (header, computations, shapes,
// comments, strings, attribute values), each checked through what it
// records: header counts, collectives and their positions, no errors.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

using ::testing::ElementsAre;
using testing::Errors;
using testing::InEntry;
using ::testing::IsEmpty;
using testing::Only;
using testing::Parse;

TEST(HloHeaderTest, RecordsCountsWithPositions) {
  const Module m = Parse(
      "HloModule jit_step, is_scheduled=true, replica_count=4, "
      "num_partitions=2\n"
      "ENTRY %e {\n  ROOT %c = f32[] constant(0)\n}\n");
  EXPECT_EQ(Errors(m), "");
  EXPECT_TRUE(m.has_header);
  EXPECT_EQ(m.name, "jit_step");
  EXPECT_EQ(m.header_pos.line, 1);
  EXPECT_EQ(m.header_pos.column, 1);
  ASSERT_TRUE(m.replica_count.has_value());
  EXPECT_EQ(*m.replica_count, 4);
  EXPECT_EQ(m.replica_count_pos.line, 1);
  EXPECT_EQ(m.replica_count_pos.column, 40);
  ASSERT_TRUE(m.num_partitions.has_value());
  EXPECT_EQ(*m.num_partitions, 2);
  EXPECT_EQ(m.num_partitions_pos.column, 57);
  EXPECT_EQ(m.entry_computation, "%e");
  EXPECT_EQ(m.computation_count, 1);
}

TEST(HloHeaderTest, AbsentCountsStayUnset) {
  const Module m =
      Parse("HloModule m\nENTRY e {\n  ROOT c = f32[] constant(0)\n}\n");
  EXPECT_EQ(Errors(m), "");
  EXPECT_FALSE(m.replica_count.has_value());
  EXPECT_FALSE(m.num_partitions.has_value());
}

TEST(HloHeaderTest, SkipsStructuredAndMultiLineAttributes) {
  // entry_computation_layout with nested parens and layouts,
  // input_output_alias, frontend_attributes, and a multi-line attribute
  // whose strings hold a whole nested module (with braces, quotes and an
  // "ENTRY" line that must not be taken for a computation).
  const Module m = Parse(
      R"hlo(HloModule outer, entry_computation_layout={(f32[8]{0:T(128)}, (s32[], token[]))->f32[8]{0}}, input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {}, must-alias) }, frontend_attributes={xla.sdy.meshes={mesh=#sdy.mesh<["x"=2]>}, attr="v"},
    origin_recovery_table={
      {"k1", "HloModule nested, num_partitions=8\nENTRY %n {\n  ROOT %x = f32[] parameter(0) }\n"},
      {"k2", "closing } and \"quoted\" text"}
    }, replica_count=2, allow_spmd_sharding_propagation_to_output={true}

ENTRY %main (p: f32[8]) -> f32[8] {
  ROOT %ar = f32[8]{0} all-reduce(f32[8]{0} %p), replica_groups={{0,1}}, to_apply=%add
}
)hlo");
  EXPECT_EQ(Errors(m), "");
  ASSERT_TRUE(m.replica_count.has_value());
  EXPECT_EQ(*m.replica_count, 2);
  EXPECT_EQ(m.replica_count_pos.line, 5);
  EXPECT_FALSE(m.num_partitions.has_value());  // the nested module's is text
  EXPECT_EQ(Only(m).pos.line, 8);
}

TEST(HloHeaderTest, StackFrameSectionIsSkipped) {
  const Module m = Parse(R"hlo(HloModule m, replica_count=2

FileNames
1 "a.py"
2 "b/c.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 end_column=9}

StackFrames
1 {file_location_id=1 parent_frame_id=0}

ENTRY e {
  p = f32[4] parameter(0)
  ROOT ar = f32[4] all-reduce(p), replica_groups={}, to_apply=add, metadata={op_name="x" stack_frame_id=1}
}
)hlo");
  EXPECT_EQ(Errors(m), "");
  EXPECT_EQ(Only(m).pos.line, 18);
}

TEST(HloHeaderTest, HeaderlessModuleStartingWithEntry) {
  const Module m = Parse(
      "// comment first\nENTRY main {\n  p = f32[4] parameter(0)\n"
      "  ROOT ag = f32[8] all-gather(p), replica_groups={{0,1}}, "
      "dimensions={0}\n}\n");
  EXPECT_EQ(Errors(m), "");
  EXPECT_FALSE(m.has_header);
  EXPECT_EQ(m.name, "");
  EXPECT_EQ(m.entry_computation, "main");
  EXPECT_EQ(Only(m).computation, "main");
}

TEST(HloHeaderTest, HeaderlessModuleStartingWithNamedComputation) {
  const Module m = Parse(
      "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n}\n\n"
      "comp2 {\n  p = f32[4] parameter(0)\n"
      "  ROOT r = f32[4] all-reduce(p), to_apply=add\n}\n");
  EXPECT_EQ(Errors(m), "");
  EXPECT_EQ(m.computation_count, 2);
  // No ENTRY: the last computation is the entry, as in XLA.
  EXPECT_EQ(m.entry_computation, "comp2");
  EXPECT_EQ(Only(m).to_apply, "add");
}

TEST(HloComputationTest, SignaturesNamesAndExecutionThread) {
  const Module m = Parse(R"hlo(HloModule m

%region_0.5 (Arg_0.6: f32[], Arg_1.7: f32[]) -> f32[] {
  %Arg_0.6 = f32[] parameter(0)
  %Arg_1.7 = f32[] parameter(1)
  ROOT %add.8 = f32[] add(f32[] %Arg_0.6, f32[] %Arg_1.7)
}

%async_comp (p0: f32[8,16]) -> f32[8,16] {
  %p0 = f32[8,16]{1,0} parameter(0)
  ROOT %ar.1 = f32[8,16]{1,0} all-reduce(%p0), replica_groups={{0,1}}, to_apply=%region_0.5
}, execution_thread="parallel"

ENTRY %main.9 (Arg_0.1: f32[8,16], Arg_1.2: (f32[], s32[])) -> (f32[8,16], f32[]) {
  %Arg_0.1 = f32[8,16]{1,0} parameter(0)
  %Arg_1.2 = (f32[], s32[]) parameter(1)
  ROOT %t = (f32[8,16]{1,0}, f32[]) tuple(%Arg_0.1, %Arg_0.1)
}
)hlo");
  EXPECT_EQ(Errors(m), "");
  EXPECT_EQ(m.computation_count, 3);
  EXPECT_EQ(m.entry_computation, "%main.9");
  const Collective& c = Only(m);
  EXPECT_EQ(c.computation, "%async_comp");
  EXPECT_TRUE(c.is_root);
  EXPECT_EQ(c.to_apply, "%region_0.5");
  ASSERT_EQ(c.operand_shapes.size(), 1u);
  EXPECT_EQ(ShapeToString(c.operand_shapes[0]), "f32[8,16]");
}

TEST(HloComputationTest, BareNamesAndNoSignature) {
  const Module m = Parse(
      "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
      "  ROOT y = f32[2] collective-permute(x), "
      "source_target_pairs={{0,1},{1,0}}\n}\n");
  EXPECT_EQ(Errors(m), "");
  EXPECT_EQ(Only(m).name, "y");
  EXPECT_EQ(ShapeToString(Only(m).operand_shapes[0]), "f32[2]");
}

TEST(HloComputationTest, OneLineComputation) {
  const Module m = Parse(
      "HloModule m\nENTRY e { p = f32[2] parameter(0), sharding={replicated} "
      "ROOT r = f32[2] all-reduce(p), to_apply=add }\n");
  EXPECT_EQ(Errors(m), "");
  EXPECT_EQ(Only(m).pos.column, 58);
}

TEST(HloShapeTest, TuplesLayoutsDynamicDimsAndTokens) {
  const Module m = Parse(InEntry(
      R"hlo(  %t = (f32[8,16]{1,0:T(8,128)(2,1)S(1)}, /*index=1*/s32[<=8,?]{1,0}, (token[], /*index=3*/pred[])) parameter(1)
  %ar = (f32[8,16]{1,0:T(8,128)}, s32[<=8,?]{1,0}, (token[], pred[])) all-reduce(%t), replica_groups={}, to_apply=%add
  %e = bf16[4,2]{0,1:E(4)} parameter(2)
  %ag = bf16[8,2] all-gather(bf16[4,2]{0,1:E(4)} %e), replica_groups={{0,1}}, dimensions={0}
  ROOT %r = f32[8,16] copy(%p))hlo"));
  EXPECT_EQ(Errors(m), "");
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_EQ(ShapeToString(m.collectives[0].result_shape),
            "(f32[8,16], s32[8,-1], (token[], pred[]))");
  EXPECT_EQ(ShapeToString(m.collectives[0].operand_shapes[0]),
            "(f32[8,16], s32[8,-1], (token[], pred[]))");
  EXPECT_EQ(ShapeToString(m.collectives[1].operand_shapes[0]), "bf16[4,2]");
  EXPECT_EQ(ShapeToString(m.collectives[1].result_shape), "bf16[8,2]");
}

TEST(HloShapeTest, ElidedShapeLeavesResultUnknown) {
  const Module m =
      Parse(InEntry("  %ar = all-reduce(f32[8,16] %p), to_apply=%add\n"
                    "  ROOT %r = f32[8,16] copy(%ar)"));
  EXPECT_EQ(Errors(m), "");
  EXPECT_FALSE(Only(m).result_shape.known);
  EXPECT_EQ(Only(m).opcode_pos.column, 9);
}

TEST(HloCommentTest, CommentsAnywhere) {
  const Module m = Parse(R"hlo(/* leading block */ HloModule m // trailing
// line comment
ENTRY /* between */ %e /* x */ (p /* y */: f32[4]) -> f32[4] { // after brace
  ROOT /* a */ %ar /* b */ = /* c */ f32[4]{0} /* d */ all-reduce( /* e */
      f32[4]{0} /* f */ %p // g
    ) /* h */ , /* i */ replica_groups= /* j */ {{0, /* k */ 1}} // l
    , to_apply=%add /* m */
} /* n */
)hlo");
  EXPECT_EQ(Errors(m), "");
  const Collective& c = Only(m);
  EXPECT_EQ(c.operand_count, 1);
  ASSERT_EQ(c.replica_groups.num_groups(), 1);
  EXPECT_THAT(c.replica_groups.group(0), ElementsAre(0, 1));
  EXPECT_EQ(c.replica_groups.IdPos(0, 1).line, 6);
  EXPECT_EQ(c.replica_groups.IdPos(0, 1).column, 62);
}

TEST(HloStringTest, StringsSpanLinesAndHoldEscapes) {
  const Module m = Parse(InEntry(
      R"hlo(  %cc = f32[8,16] custom-call(%p), custom_call_target="x", backend_config="line one
line \"two\" with } and ) and // not a comment
line three\\"
  %ar = f32[8,16] all-reduce(%cc), to_apply=%add, metadata={op_name="a \"quoted\" name" source_file="/src/m\x.py" source_line=7}
  ROOT %r = f32[8,16] copy(%ar))hlo"));
  EXPECT_EQ(Errors(m), "");
  const Collective& c = Only(m);
  EXPECT_EQ(c.pos.line, testing::kEntryFirstLine + 3);
  EXPECT_EQ(c.op_name, "a \"quoted\" name");
  EXPECT_EQ(c.source_file, "/src/mx.py");
  EXPECT_EQ(c.source_line, 7);
}

TEST(HloAttributeTest, ValueKindsAreSkipped) {
  // JSON backend_config, sharding forms, frontend attributes with unquoted
  // {{...}} values, control-predecessors, statistics, raw braces.
  const Module m = Parse(InEntry(
      R"hlo(  %a = f32[8,16] add(%p, %p), sharding={devices=[2,1]<=[2] last_tile_dim_replicate}, frontend_attributes={_scheduling_group_id="1", pairs={{3,0}}}
  %b = f32[8,16] fusion(%a), kind=kLoop, calls=%add, backend_config={"operation_queue_id":"0","wait_on_operation_queues":[],"fusion_backend_config":{"kind":"__triton","block_level_fusion_config":{"output_tiles":[{"sizes":["1","16"]}]}}}
  %c = f32[8,16] multiply(%b, %b), sharding={{replicated}, {maximal device=1}, {devices=[2,2]0,1,2,3 last_tile_dims={manual}}}, control-predecessors={%a}, statistics={visualizing_index=1,stat-1=33.0}
  %d = f32[8,16] all-reduce(%c), channel_id=1, replica_groups={{0,1}}, to_apply=%add, backend_config={"collective_backend_config":{"is_sync":true}}, sharding={replicated}, frontend_attributes={a="{{0,1}}", b={{1,2}}}
  ROOT %r = f32[8,16] copy(%d))hlo"));
  EXPECT_EQ(Errors(m), "");
  const Collective& c = Only(m);
  EXPECT_EQ(c.pos.line, testing::kEntryFirstLine + 3);
  EXPECT_TRUE(c.has_channel_id);
  EXPECT_FALSE(c.source_target_pairs.present);  // only the send/recv key
}

TEST(HloAttributeTest, AttributesOnFollowingLines) {
  const Module m = Parse(InEntry(R"hlo(  %ar = f32[8,16]{1,0} all-reduce(
      f32[8,16]{1,0} %p),
      channel_id=7,
      replica_groups={{0,1},
                      {2,3}},
      use_global_device_ids=true,
      to_apply=%add
  ROOT %r = f32[8,16] copy(%ar)
  , metadata={op_name="leading comma"})hlo"));
  EXPECT_EQ(Errors(m), "");
  const Collective& c = Only(m);
  EXPECT_EQ(c.channel_id, 7);
  EXPECT_EQ(c.channel_id_pos.line, testing::kEntryFirstLine + 2);
  EXPECT_EQ(c.channel_id_pos.column, 7);
  EXPECT_EQ(c.replica_groups.group_pos[1].line, testing::kEntryFirstLine + 4);
  EXPECT_EQ(c.replica_groups.group_pos[1].column, 23);
  EXPECT_TRUE(c.use_global_device_ids);
}

TEST(HloOperandTest, NestedInstructionsAsOperands) {
  const Module m = Parse(InEntry(
      "  %ar = f32[8,16] all-reduce(f32[8,16] multiply(f32[8,16] %p, "
      "f32[8,16] broadcast(f32[] constant(2)), dimensions={}), f32[8,16] %p),"
      " to_apply=%add\n  ROOT %r = f32[8,16] copy(%ar)"));
  EXPECT_EQ(Errors(m), "");
  const Collective& c = Only(m);
  EXPECT_EQ(c.operand_count, 2);
  EXPECT_EQ(ShapeToString(c.operand_shapes[0]), "f32[8,16]");
  EXPECT_EQ(ShapeToString(c.operand_shapes[1]), "f32[8,16]");
}

TEST(HloSuppressionTest, DisableAndDisableNextLine) {
  const Module m = Parse(R"hlo(HloModule m
// topolint: disable-next-line=hlo-group-coverage,xref-*

/* a block comment line */
ENTRY e {  // topolint: disable=hlo-empty-group
  p = f32[4] parameter(0)
  //topolint:disable-next-line=a, b
  ROOT r = f32[4] all-reduce(p), to_apply=add // topolint: disable=all reason text
}
)hlo");
  EXPECT_EQ(Errors(m), "");
  ASSERT_EQ(m.suppressions.size(), 4u);
  EXPECT_EQ(m.suppressions[0].pos.line, 2);
  EXPECT_EQ(m.suppressions[0].pos.column, 1);
  EXPECT_EQ(m.suppressions[0].target_line, 5);
  EXPECT_THAT(m.suppressions[0].rules,
              ElementsAre("hlo-group-coverage", "xref-*"));
  EXPECT_EQ(m.suppressions[1].target_line, 5);
  EXPECT_EQ(m.suppressions[1].pos.column, 12);
  EXPECT_THAT(m.suppressions[1].rules, ElementsAre("hlo-empty-group"));
  EXPECT_EQ(m.suppressions[2].target_line, 8);
  EXPECT_THAT(m.suppressions[2].rules, ElementsAre("a", "b"));
  EXPECT_EQ(m.suppressions[3].target_line, 8);
  EXPECT_THAT(m.suppressions[3].rules, ElementsAre("all"));
}

TEST(HloSuppressionTest, MalformedDirectiveIsReported) {
  const Module m = Parse(
      "HloModule m\n// topolint: enable=foo\n// topolint: disable=\n"
      "ENTRY e {\n  ROOT c = f32[] constant(0)\n}\n");
  EXPECT_EQ(Errors(m),
            "2:1: malformed topolint directive: expected 'disable=RULE[,RULE]' "
            "or 'disable-next-line=RULE[,RULE]' after 'topolint:'\n"
            "3:1: topolint directive names no rule: expected "
            "'disable=RULE[,RULE]' or 'disable-next-line=RULE[,RULE]'\n");
  EXPECT_THAT(m.suppressions, IsEmpty());
}

TEST(LooksLikeHloTest, FirstTokenAfterComments) {
  EXPECT_TRUE(LooksLikeHlo("HloModule m"));
  EXPECT_TRUE(LooksLikeHlo("  \n// c\n/* d\n */ HloModule m, replica_count=2"));
  EXPECT_TRUE(LooksLikeHlo("HloModule"));
  EXPECT_FALSE(LooksLikeHlo("HloModulex m"));
  EXPECT_FALSE(LooksLikeHlo("ENTRY e {}"));
  EXPECT_FALSE(LooksLikeHlo("{\"CCInfo\": {}}"));
  EXPECT_FALSE(LooksLikeHlo(""));
  EXPECT_FALSE(LooksLikeHlo("/* unterminated HloModule"));
  EXPECT_FALSE(LooksLikeHlo(std::string("\0HloModule", 10)));
}

}  // namespace
}  // namespace topolint::hlo
