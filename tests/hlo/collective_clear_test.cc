// The parser reuses one Collective for every collective of a module
// (Collective::Clear keeps its storage). A cleared collective must equal a
// default one in every field, and parsing through the reused object must
// give each collective exactly its own values.
#include <string>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_debug.h"

namespace topolint::hlo {
namespace {

std::string DumpOne(const Collective& c) {
  Module m;
  m.collectives.push_back(c);
  return ModuleDebugString(m);
}

constexpr char kRich[] = R"(HloModule m, replica_count=4
ENTRY main {
  %p = f32[8]{0} parameter(0)
  ROOT %cp = (f32[8]{0}, u32[]) collective-permute-start(f32[8]{0} %p), channel_id=3, source_target_pairs={{0,1},{1,0}}, slice_sizes={{1},{2}}, metadata={op_name="x" source_file="f.py" source_line=7}
  %ag = f32[16]{0} all-gather(%p), replica_groups={{0,1},{2,3}}, dimensions={0}, use_global_device_ids=true, to_apply=%add
}
)";

TEST(CollectiveClearTest, ClearedEqualsDefault) {
  const Module m = ParseHloText(kRich, "test.hlo");
  ASSERT_EQ(m.collectives.size(), 2u);
  for (Collective c : m.collectives) {
    ASSERT_NE(DumpOne(c), DumpOne(Collective()));
    c.Clear();
    EXPECT_EQ(DumpOne(c), DumpOne(Collective()));
  }
  Shape s = m.collectives[0].result_shape;
  ASSERT_TRUE(s.known);
  s.Clear();
  EXPECT_EQ(ShapeToString(s), ShapeToString(Shape()));
  EXPECT_TRUE(s.tuple.empty());
}

TEST(CollectiveClearTest, ReusedObjectLeavesNothingBehind) {
  // The second collective has no pairs, metadata, channel or result tuple:
  // nothing of the first may show through, whichever order they come in.
  const Module m = ParseHloText(kRich, "test.hlo");
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_FALSE(m.collectives[1].source_target_pairs.present);
  EXPECT_TRUE(m.collectives[1].op_name.empty());
  EXPECT_FALSE(m.collectives[1].has_channel_id);
  EXPECT_EQ(m.collectives[1].slice_sizes_count, 0);
  EXPECT_FALSE(m.collectives[1].result_shape.is_tuple);

  std::string swapped = kRich;
  const size_t cp = swapped.find("  ROOT %cp");
  const size_t ag = swapped.find("  %ag");
  const size_t end = swapped.find("}\n", ag);
  const std::string cp_line = swapped.substr(cp, ag - cp);
  const std::string ag_line = swapped.substr(ag, end - ag);
  swapped = swapped.substr(0, cp) + ag_line + cp_line + swapped.substr(end);
  const Module n = ParseHloText(swapped, "test.hlo");
  ASSERT_EQ(n.collectives.size(), 2u);
  EXPECT_EQ(n.collectives[0].name, "%ag");
  EXPECT_EQ(n.collectives[0].replica_groups.num_groups(), 2);
  EXPECT_EQ(n.collectives[1].name, "%cp");
  EXPECT_EQ(n.collectives[1].replica_groups.form, ReplicaGroups::Form::kAbsent);
  EXPECT_FALSE(n.collectives[1].has_dimensions);
  EXPECT_TRUE(n.collectives[1].to_apply.empty());
}

TEST(CollectiveClearTest, CopyForReportIsTheCopyWithoutTheIdLists) {
  const Module m = ParseHloText(kRich, "test.hlo");
  ASSERT_EQ(m.collectives.size(), 2u);
  for (const Collective& c : m.collectives) {
    Collective expected = c;
    expected.replica_groups.MutableIds()->clear();
    expected.replica_groups.group_ends.clear();
    expected.replica_groups.group_pos.clear();
    expected.replica_groups.id_layout.Clear();
    expected.source_target_pairs.pairs.clear();
    expected.source_target_pairs.pair_pos.clear();
    expected.operand_shapes.clear();
    // Into a fresh object and into one that held the other collective.
    Collective fresh;
    fresh.CopyForReport(c);
    EXPECT_EQ(DumpOne(fresh), DumpOne(expected));
    Collective reused = m.collectives[&c == &m.collectives[0] ? 1 : 0];
    reused.CopyForReport(c);
    EXPECT_EQ(DumpOne(reused), DumpOne(expected));
  }
}

}  // namespace
}  // namespace topolint::hlo
