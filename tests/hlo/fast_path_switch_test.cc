// The test-only fast-path switches (checker/hlo/text/fast_path_switch.h,
// ParseOptions::disabled_fast_paths): each fast path turned off alone, and
// all of them together, leave the parse through a large window exactly the
// exact parser's (the 1-byte window's), so that the differential tests can
// turn them off one at a time to name the one that disagrees.
#include <cstdint>
#include <string>

#include "checker/hlo/text/fast_path_switch.h"
#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_debug.h"

namespace topolint::hlo {
namespace {

std::string Dump(const std::string& text, size_t window, uint64_t off) {
  ParseOptions options;
  options.window_bytes = window;
  options.disabled_fast_paths = off;
  return ModuleDebugString(ParseHloText(text, "test.hlo", options));
}

// Every construct some fast path reads, twice where a value is remembered.
const char* const kTexts[] = {
    R"(HloModule m, replica_count=4, num_partitions=2

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main (p0: f32[8]{0}, p1: (f32[], u32[])) -> f32[8]{0} {
  %p = f32[8]{0} parameter(0)
  %q = bf16[4,64]{1,0} parameter(1), metadata={op_name="q" source_file="a.py" source_line=3}
  %ar = f32[8]{0} all-reduce(f32[8]{0} %p), channel_id=1, replica_groups={{0,1},{2,3}}, use_global_device_ids=true, to_apply=%add, metadata={op_name="ar" source_line=7}
  %ar.2 = f32[8]{0} all-reduce(%p), channel_id=2, replica_groups={{0,1},{2,3}}, to_apply=%add
  %ag = f32[16]{0} all-gather(f32[8]{0} %ar), replica_groups=[2,2]<=[4], dimensions={0}
  %ag.2 = f32[16]{0} all-gather(f32[8]{0} %ar.2), replica_groups=[2,2]<=[4], dimensions={0}
  %rs = f32[4]{0} reduce-scatter(f32[8]{0} %p), replica_groups=[2,2]<=[2,2]T(1,0), dimensions={0}, to_apply=%add
  %cp = f32[8]{0} collective-permute(f32[8]{0} %p), source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
  %cp.2 = f32[8]{0} collective-permute(f32[8]{0} %cp), source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
  %m = f32[8]{0} all-reduce(%p), replica_groups=mesh['x'=2,'y'=2] {'x'}, to_apply=%add
  %t = (f32[8]{0}, f32[8]{0}) tuple(%ar, /*index=1*/%cp), sharding={{replicated}, {maximal device=0}}
  ROOT %r = f32[8]{0} add(f32[8]{0} %ar, f32[8]{0} %cp.2)
}
)",
    "HloModule m\n\nENTRY main {\n  %p = f32[8] parameter(0)\n"
    "  %ar = f32[8]{0} all-reduce(%p), replica_groups={{0,1},\n {2,3}}, "
    "to_apply=add // c\n  %x = f32[8] add(%p, %p)  /* b */\n"
    "  ROOT %s = (f32[8], s32[]) all-to-all(f32[8] %x, s32[] %p), "
    "replica_groups={{0, 1}, {2,3}}, dimensions={0}\n}\n",
};

TEST(FastPathSwitchTest, AnySwitchOffAloneOrAllOffParsesAsTheExactParser) {
  uint64_t all = 0;
  for (size_t i = 0; i < kFastPathNames.size(); ++i) {
    all |= FastPathBit(static_cast<FastPath>(i));
  }
  EXPECT_EQ(all, kAllFastPaths);
  for (const char* text : kTexts) {
    const std::string exact = Dump(text, 1, all);
    for (size_t window : {size_t{64}, size_t{1} << 20}) {
      EXPECT_EQ(Dump(text, window, 0), exact) << window;
      EXPECT_EQ(Dump(text, 1, 0), exact);
      EXPECT_EQ(Dump(text, window, all), exact) << window;
      for (size_t i = 0; i < kFastPathNames.size(); ++i) {
        EXPECT_EQ(Dump(text, window, FastPathBit(static_cast<FastPath>(i))),
                  exact)
            << kFastPathNames[i] << " off, window " << window;
      }
    }
  }
}

TEST(FastPathSwitchTest, TheSwitchesAreDistinctBits) {
  uint64_t seen = 0;
  for (size_t i = 0; i < kFastPathNames.size(); ++i) {
    const uint64_t bit = FastPathBit(static_cast<FastPath>(i));
    EXPECT_EQ(seen & bit, 0u) << kFastPathNames[i];
    seen |= bit;
  }
  EXPECT_EQ(kFastPathNames.size(), 16u);
}

}  // namespace
}  // namespace topolint::hlo
