// Inputs shared by the integration tests, with the findings they produce.
#ifndef TOPOLINT_TESTS_INTEGRATION_SAMPLE_INPUTS_H_
#define TOPOLINT_TESTS_INTEGRATION_SAMPLE_INPUTS_H_

namespace topolint::testing {

// Topology 1 is empty: neff-empty-topology at 1:41 ("Empty topology found at
// index 1, possible MPMD neff file").
inline constexpr char kEmptyTopologyDef[] =
    R"({"CCInfo": {"replica_groups": [[[0,1]], []]}})";

inline constexpr char kGoodDef[] =
    R"({"CCInfo": {"replica_groups": [[[0,1],[2,3]]]}})";

// Groups {0,2},{1,3}: differs from kModuleHlo's {0,1},{2,3}.
inline constexpr char kTransposedDef[] =
    R"({"CCInfo": {"replica_groups": [[[0,2],[1,3]]]}})";

// One all-reduce over {{0,1},{2,3}} of 4 replicas; the all-reduce's groups
// start at line 11, column 56.
inline constexpr char kModuleHlo[] = R"(HloModule m, replica_count=4

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %ar = f32[8]{0} all-reduce(%p), replica_groups={{0,1},{2,3}}, to_apply=%add
}
)";

// With num_partitions=2 (from --num-partitions / Options) its all-reduce is
// not in flattened-id mode: an hlo-not-flattened-id warning at 11:24.
inline constexpr char kNotFlattenedHlo[] = R"(HloModule m

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %ar = f32[8]{0} all-reduce(%p), channel_id=1, replica_groups={{0}}, to_apply=%add
}
)";

// Ranks 0..3: with lnc 2 and 4 physical cores, ranks 2 and 3 do not exist.
inline constexpr char kFourRankDef[] =
    R"({"CCInfo": {"replica_groups": [[[0,1,2,3]]]}})";

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_INTEGRATION_SAMPLE_INPUTS_H_
