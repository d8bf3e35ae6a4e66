// A directory named like a NEFF member (`run.neff:1/`) is a directory: its
// files are reported at their own paths in SARIF and GitLab reports (they
// were reported at a `run.neff` that does not exist, line 1), and a
// per-file ignore of `*.neff` does not reach them.
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using testing::RunTopolint;
using testing::TempDir;

constexpr char kModule[] =
    "HloModule m, replica_count=1, num_partitions=8\n"
    "ENTRY e {\n  p = f32[8] parameter(0)\n"
    "  ROOT ar = f32[8] all-reduce(p), channel_id=1, "
    "replica_groups=[4,2]<=[2,4]T(1,0), use_global_device_ids=true, "
    "to_apply=add\n}\n";
constexpr char kDefJson[] =
    "{\"CCInfo\": {\"replica_groups\": [[[0, 1], [2, 3], [4, 5], [6, 7]]]}}\n";

TEST(NeffMemberPathTest, ADirectoryNamedLikeAMemberIsADirectory) {
  TempDir dir;
  dir.Write("run.neff:1/model.hlo", kModule);
  dir.Write("run.neff:1/def.json", kDefJson);
  testing::CliResult r =
      RunTopolint({"check", "--format", "sarif", "run.neff:1"}, dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("\"uri\": \"run.neff%3A1/model.hlo\""),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("\"uri\": \"run.neff\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"startLine\": 4"), std::string::npos);
  r = RunTopolint({"check", "--format", "gitlab", "run.neff:1"}, dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("\"path\": \"run.neff:1/model.hlo\""), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("(in run.neff:1/"), std::string::npos) << r.out;
  // A per-file ignore of NEFF archives does not drop the module's finding.
  dir.Write(".topolint.json",
            "{\"per_file_ignores\": {\"*.neff\": \"xref-*\"}}\n");
  r = RunTopolint({"check", "run.neff:1"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("[xref-topology-mismatch]"), std::string::npos);
}

}  // namespace
}  // namespace topolint
