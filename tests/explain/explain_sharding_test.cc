// `topolint explain` on modules whose header records no num_partitions:
// the device count comes from the tiled shardings (openxla/xla#5655), and
// shardings that disagree give none.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(ExplainShardingTest, DeviceCountFromTheSharding) {
  CliResult r = RunTopolint({"explain", "fixtures/explain/sharding-5655"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out,
              HasSubstr("  P = num_partitions = 2 (sharding at line 15)"));
  EXPECT_THAT(r.out, HasSubstr("  devices = R x P    = 2"));
  EXPECT_THAT(r.out, Not(HasSubstr("not recorded")));
  // replica_groups={{0}} in cross-replica-and-partition mode: one group of
  // both partitions.
  EXPECT_THAT(r.out, HasSubstr("cross_replica_and_partition"));
  EXPECT_THAT(r.out, HasSubstr("{{0,1}}")) << r.out;
  CliResult check = RunTopolint({"check", "fixtures/explain/sharding-5655"});
  EXPECT_EQ(check.exit_code, 0) << check.out;
}

TEST(ExplainShardingTest, ConflictingShardingsGiveNoCount) {
  CliResult r = RunTopolint({"explain", "fixtures/explain/sharding-conflict"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("not recorded"));
  EXPECT_THAT(r.out,
              HasSubstr("the shardings hold 2 devices (line 12) and 4 devices "
                        "(line 13): no device count is taken from them"));
}

}  // namespace
}  // namespace topolint::testing
