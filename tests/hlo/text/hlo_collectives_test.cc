// What the parser records for each collective: kind, async forms,
// attributes with positions, operand and result shapes.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

using ::testing::ElementsAre;
using testing::Errors;
using testing::InEntry;
using testing::kEntryFirstLine;
using testing::Only;
using ::testing::Pair;
using testing::Parse;

struct KindCase {
  const char* line;
  CollectiveKind kind;
  bool async_start;
};

class CollectiveKindTest : public ::testing::TestWithParam<KindCase> {};

TEST_P(CollectiveKindTest, RecordsKindAndAsyncStart) {
  const Module m = Parse(InEntry(std::string("  ") + GetParam().line +
                                 "\n  ROOT %r = f32[8,16] copy(%p)"));
  ASSERT_EQ(Errors(m), "");
  const Collective& c = Only(m);
  EXPECT_EQ(c.kind, GetParam().kind);
  EXPECT_EQ(c.is_async_start, GetParam().async_start);
  EXPECT_EQ(c.name, "%c");
  EXPECT_EQ(c.computation, "%main");
  EXPECT_EQ(c.pos.line, kEntryFirstLine);
  EXPECT_EQ(c.pos.column, 3);
}

INSTANTIATE_TEST_SUITE_P(
    AllOpcodes, CollectiveKindTest,
    ::testing::Values(
        KindCase{"%c = f32[8,16] all-reduce(%p), to_apply=%add",
                 CollectiveKind::kAllReduce, false},
        KindCase{"%c = f32[8,16] all-reduce-start(%p), to_apply=%add",
                 CollectiveKind::kAllReduce, true},
        KindCase{"%c = f32[16,16] all-gather(%p), dimensions={0}",
                 CollectiveKind::kAllGather, false},
        KindCase{"%c = (f32[8,16], f32[16,16]) all-gather-start(%p), "
                 "dimensions={0}",
                 CollectiveKind::kAllGather, true},
        KindCase{"%c = f32[4,16] reduce-scatter(%p), dimensions={0}, "
                 "to_apply=%add",
                 CollectiveKind::kReduceScatter, false},
        KindCase{"%c = ((f32[8,16]), f32[4,16]) reduce-scatter-start(%p), "
                 "dimensions={0}, to_apply=%add",
                 CollectiveKind::kReduceScatter, true},
        KindCase{"%c = f32[8,16] all-to-all(%p), dimensions={0}",
                 CollectiveKind::kAllToAll, false},
        KindCase{"%c = ((f32[8,16]), f32[8,16]) all-to-all-start(%p), "
                 "dimensions={1}",
                 CollectiveKind::kAllToAll, true},
        KindCase{"%c = f32[8,16] ragged-all-to-all(%p, %p, %p, %p, %p, %p)",
                 CollectiveKind::kRaggedAllToAll, false},
        KindCase{"%c = f32[8,16] collective-permute(%p), "
                 "source_target_pairs={{0,1}}",
                 CollectiveKind::kCollectivePermute, false},
        KindCase{"%c = (f32[8,16], f32[8,16], u32[], u32[]) "
                 "collective-permute-start(%p), source_target_pairs={{0,1}}",
                 CollectiveKind::kCollectivePermute, true},
        KindCase{"%c = f32[8,16] collective-broadcast(%p), "
                 "replica_groups={{0,1}}",
                 CollectiveKind::kCollectiveBroadcast, false},
        KindCase{"%c = token[] send(%p, %tok), channel_id=2, "
                 "frontend_attributes={_xla_send_recv_source_target_pairs="
                 "\"{{0,1}}\"}",
                 CollectiveKind::kSend, false},
        KindCase{"%c = (f32[8,16], u32[], token[]) recv(%tok), channel_id=2, "
                 "frontend_attributes={_xla_send_recv_source_target_pairs="
                 "{{1,0}}}",
                 CollectiveKind::kRecv, false}));

TEST(CollectiveTest, DoneUpdateAndOtherOpcodesAreNotRecorded) {
  const Module m = Parse(InEntry(
      R"hlo(  %s = f32[8,16] all-reduce-start(%p), replica_groups={{0,1}}, to_apply=%add
  %d = f32[8,16] all-reduce-done(%s)
  %gs = ((f32[8,16]), f32[4,16]) reduce-scatter-start(%p), dimensions={0}, to_apply=%add
  %gu = ((f32[8,16]), f32[4,16]) reduce-scatter-update(%gs)
  %gd = f32[4,16] reduce-scatter-done(%gu)
  %cd = f32[8,16] collective-permute-done(%p)
  %ad = f32[8,16] all-gather-done(%p)
  %sd = token[] send-done(%p), channel_id=1
  %x = f32[8,16] all-reducex(%p)
  %y = f32[8,16] reduce(%p, %p), dimensions={0}, to_apply=%add
  %z = f32[8,16] collective-permutes(%p)
  ROOT %r = f32[8,16] copy(%d))hlo"));
  EXPECT_EQ(Errors(m), "");
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_EQ(m.collectives[0].opcode, "all-reduce-start");
  EXPECT_EQ(m.collectives[1].opcode, "reduce-scatter-start");
}

TEST(CollectiveTest, AsyncStartRecordsTheCalledCollective) {
  const Module m = Parse(R"hlo(HloModule m, num_partitions=2
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}
%wrapped (x: f32[8]) -> f32[4] {
  %x = f32[8]{0} parameter(0)
  ROOT %rs = f32[4]{0} reduce-scatter(%x), channel_id=3, replica_groups={{0,1}}, use_global_device_ids=true, dimensions={0}, to_apply=%add
}
ENTRY %e (p: f32[8]) -> f32[4] {
  %p = f32[8]{0} parameter(0)
  %st = ((f32[8]{0}), f32[4]{0}, u32[]) async-start(%p), calls=%wrapped
  ROOT %dn = f32[4]{0} async-done(%st), calls=%wrapped
}
)hlo");
  EXPECT_EQ(Errors(m), "");
  const Collective& c = Only(m);
  EXPECT_EQ(c.kind, CollectiveKind::kReduceScatter);
  EXPECT_FALSE(c.is_async_start);
  EXPECT_EQ(c.computation, "%wrapped");
  EXPECT_EQ(ShapeToString(c.operand_shapes[0]), "f32[8]");
  EXPECT_EQ(ShapeToString(c.result_shape), "f32[4]");
}

TEST(CollectiveTest, SendRecvWithoutPairsAreNotRecorded) {
  const Module m = Parse(InEntry(
      "  %tok = token[] after-all()\n"
      "  %s = (f32[8,16], u32[], token[]) send(%p, %tok), channel_id=1\n"
      "  %r = (f32[8,16], u32[], token[]) recv(%tok), channel_id=1, "
      "frontend_attributes={_xla_other=\"x\"}\n"
      "  ROOT %o = f32[8,16] copy(%p)"));
  EXPECT_EQ(Errors(m), "");
  EXPECT_TRUE(m.collectives.empty());
}

TEST(CollectiveTest, SendRecvPairsQuotedAndRawWithPositions) {
  const Module m = Parse(InEntry(
      "  %tok = token[] after-all()\n"
      "  %s = (f32[8,16], u32[], token[]) send(%p, %tok), channel_id=1, "
      "frontend_attributes={_xla_send_recv_source_target_pairs=\"{{0,1},{1,2}}"
      "\","
      " other=\"{{9}}\"}\n"
      "  %r = (f32[8,16], u32[], token[]) recv(%tok), channel_id=1, "
      "frontend_attributes={_xla_send_recv_source_target_pairs={{3,0}}}\n"
      "  ROOT %o = f32[8,16] copy(%p)"));
  EXPECT_EQ(Errors(m), "");
  ASSERT_EQ(m.collectives.size(), 2u);
  const SourceTargetPairs& q = m.collectives[0].source_target_pairs;
  EXPECT_TRUE(q.present);
  EXPECT_THAT(q.pairs, ElementsAre(Pair(0, 1), Pair(1, 2)));
  // `"{{0,1},...` starts at column 122; the value's '{' is just after '"'.
  EXPECT_EQ(q.pos.line, kEntryFirstLine + 1);
  EXPECT_EQ(q.pos.column, 123);
  EXPECT_EQ(q.pair_pos[1].column, 130);
  const SourceTargetPairs& r = m.collectives[1].source_target_pairs;
  EXPECT_THAT(r.pairs, ElementsAre(Pair(3, 0)));
  EXPECT_EQ(r.pos.column, 118);
  EXPECT_EQ(m.collectives[1].kind, CollectiveKind::kRecv);
}

TEST(CollectiveTest, AttributesWithPositions) {
  const Module m = Parse(InEntry(
      "  %ag = f32[16,16]{1,0} all-gather(f32[8,16]{1,0} %p), channel_id=0, "
      "replica_groups={{0,1},{2,3}}, dimensions={0}, "
      "use_global_device_ids=false, constrain_layout=true, "
      "metadata={op_type=\"AllGather\" op_name=\"jit(f)/all_gather\" "
      "source_file=\"/x/model.py\" source_line=42 stack_frame_id=3}\n"
      "  ROOT %r = f32[16,16] copy(%ag)"));
  EXPECT_EQ(Errors(m), "");
  const Collective& c = Only(m);
  EXPECT_EQ(c.opcode, "all-gather");
  EXPECT_EQ(c.opcode_pos.column, 25);
  EXPECT_TRUE(c.has_channel_id);
  EXPECT_EQ(c.channel_id, 0);
  EXPECT_EQ(c.channel_id_pos.column, 56);
  EXPECT_TRUE(c.has_use_global_device_ids);
  EXPECT_FALSE(c.use_global_device_ids);
  EXPECT_EQ(c.use_global_device_ids_pos.column, 116);
  EXPECT_TRUE(c.has_dimensions);
  EXPECT_THAT(c.dimensions, ElementsAre(0));
  EXPECT_EQ(c.dimensions_pos.column, 100);
  EXPECT_EQ(c.replica_groups.pos.column, 85);
  EXPECT_EQ(c.replica_groups.text, "{{0,1},{2,3}}");
  EXPECT_EQ(c.source_file, "/x/model.py");
  EXPECT_EQ(c.source_line, 42);
  EXPECT_EQ(c.op_name, "jit(f)/all_gather");
  EXPECT_EQ(ShapeToString(c.result_shape), "f32[16,16]");
  EXPECT_EQ(ShapeToString(c.operand_shapes[0]), "f32[8,16]");
}

TEST(CollectiveTest, NegativeChannelAndAbsentAttributes) {
  const Module m =
      Parse(InEntry("  %a = f32[8,16] all-to-all(%p, %p), channel_id=-5\n"
                    "  ROOT %r = f32[8,16] copy(%a)"));
  EXPECT_EQ(Errors(m), "");
  const Collective& c = Only(m);
  EXPECT_EQ(c.channel_id, -5);
  EXPECT_FALSE(c.has_use_global_device_ids);
  EXPECT_FALSE(c.has_dimensions);
  EXPECT_EQ(c.replica_groups.form, ReplicaGroups::Form::kAbsent);
  EXPECT_EQ(c.operand_count, 2);
}

TEST(CollectiveTest, CollectivePermutePairsAndSliceSizes) {
  const Module m = Parse(InEntry(
      "  %cp = f32[8,16] collective-permute(%p, %p, %p, %p), channel_id=1, "
      "source_target_pairs={{0,1}, {1,2},{2,0}}, "
      "slice_sizes={{4,16},{4,16},{2,8}}\n"
      "  %e = f32[8,16] collective-permute(%cp), source_target_pairs={}\n"
      "  ROOT %r = f32[8,16] copy(%e)"));
  EXPECT_EQ(Errors(m), "");
  ASSERT_EQ(m.collectives.size(), 2u);
  const Collective& c = m.collectives[0];
  EXPECT_THAT(c.source_target_pairs.pairs,
              ElementsAre(Pair(0, 1), Pair(1, 2), Pair(2, 0)));
  EXPECT_EQ(c.source_target_pairs.pos.column, 89);
  EXPECT_EQ(c.source_target_pairs.pair_pos[1].column, 97);
  EXPECT_EQ(c.slice_sizes_count, 3);
  EXPECT_EQ(c.operand_count, 4);
  EXPECT_TRUE(m.collectives[1].source_target_pairs.present);
  EXPECT_TRUE(m.collectives[1].source_target_pairs.pairs.empty());
}

TEST(CollectiveTest, OperandShapesResolvedWithinTheComputation) {
  const Module m = Parse(R"hlo(HloModule m
%other (q: s32[3]) -> s32[3] {
  %q = s32[3]{0} parameter(0)
  %only_here = bf16[5] convert(%q)
  ROOT %ar = s32[3]{0} all-reduce(%q), to_apply=%add
}
ENTRY %e (p: f32[8,16], t: (f32[2], s32[])) -> f32[8,16] {
  %x = f32[2,3]{1,0:T(2,128)} add(%undefined, %undefined)
  %ag = f32[4,3] all-gather(%x, p, %t, %only_here, %q, %missing), dimensions={0}
  ROOT %r = f32[8,16] copy(%p)
}
)hlo");
  EXPECT_EQ(Errors(m), "");
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_EQ(ShapeToString(m.collectives[0].operand_shapes[0]), "s32[3]");
  const Collective& c = m.collectives[1];
  ASSERT_EQ(c.operand_shapes.size(), 6u);
  EXPECT_EQ(ShapeToString(c.operand_shapes[0]), "f32[2,3]");
  EXPECT_EQ(ShapeToString(c.operand_shapes[1]), "f32[8,16]");  // parameter
  EXPECT_EQ(ShapeToString(c.operand_shapes[2]), "(f32[2], s32[])");
  EXPECT_EQ(ShapeToString(c.operand_shapes[3]), "?");  // other computation
  EXPECT_EQ(ShapeToString(c.operand_shapes[4]), "?");  // parameter there
  EXPECT_EQ(ShapeToString(c.operand_shapes[5]), "?");
}

TEST(CollectiveTest, LaterDefinitionShadowsAndCollectivesAreOperands) {
  const Module m =
      Parse(InEntry(R"hlo(  %ar = f32[4,16] all-reduce(%p), to_apply=%add
  %ag = f32[8,16] all-gather(%ar), dimensions={0}
  ROOT %r = f32[8,16] copy(%ag))hlo"));
  EXPECT_EQ(Errors(m), "");
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_EQ(ShapeToString(m.collectives[0].operand_shapes[0]), "f32[8,16]");
  EXPECT_EQ(ShapeToString(m.collectives[1].operand_shapes[0]), "f32[4,16]");
}

TEST(CollectiveTest, RepeatedAttributeIsAnError) {
  const Module m = Parse(
      InEntry("  %a = f32[8,16] all-reduce(%p), channel_id=1, to_apply=%add, "
              "channel_id=2\n  ROOT %r = f32[8,16] copy(%a)"));
  EXPECT_EQ(Errors(m),
            "8:63: attribute 'channel_id' is given twice; "
            "expected it at most once\n");
}

TEST(CollectiveTest, BadBooleanIsAnError) {
  const Module m = Parse(
      InEntry("  %a = f32[8,16] all-reduce(%p), use_global_device_ids=yes, "
              "to_apply=%add\n  ROOT %r = f32[8,16] copy(%a)"));
  EXPECT_EQ(Errors(m),
            "8:56: expected 'true' or 'false' for "
            "use_global_device_ids, found 'yes'\n");
}

}  // namespace
}  // namespace topolint::hlo
