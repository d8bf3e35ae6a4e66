// `unused-suppression` notes (checker/core/suppression.cc) are findings
// like every other: `--max-findings` caps them (1,501 notes were printed
// with `--max-findings 5`), the cap note counts the rest, and
// `per_file_ignores` drop them.
#include <string>

#include "fmt/format.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using testing::RunTopolint;
using testing::TempDir;

// A module with `n` stale suppression comments.
std::string StaleSuppressions(int n) {
  std::string hlo =
      "HloModule m, replica_count=2\nENTRY e {\n  p = f32[8] parameter(0)\n";
  for (int i = 0; i < n; ++i) {
    hlo += fmt::format(
        "  // topolint: disable-next-line=hlo-empty-group\n"
        "  c{} = f32[8] copy(p)\n",
        i);
  }
  return hlo + "  ROOT r = f32[8] copy(p)\n}\n";
}

int CountRule(const nlohmann::json& findings, const std::string& rule) {
  int n = 0;
  for (const auto& f : findings) n += f["rule"] == rule ? 1 : 0;
  return n;
}

TEST(SuppressionTest, UnusedSuppressionNotesAreCappedByMaxFindings) {
  TempDir dir;
  dir.Write("m/m.hlo", StaleSuppressions(1501));
  testing::CliResult r = RunTopolint(
      {"check", "--format", "json", "--max-findings", "5", dir.path() + "/m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json findings = nlohmann::json::parse(r.out);
  // Five notes and the cap note, which counts the other 1,496.
  EXPECT_EQ(CountRule(findings, "unused-suppression"), 6);
  bool cap_note = false;
  for (const auto& f : findings) {
    const std::string message = f["message"];
    if (message.rfind("1496 more unused-suppression findings", 0) == 0) {
      cap_note = true;
    }
  }
  EXPECT_TRUE(cap_note) << r.out;
  // The default cap (1,000 per rule and unit) holds too; 0 shows all.
  r = RunTopolint({"check", "--format", "json", dir.path() + "/m"});
  EXPECT_EQ(CountRule(nlohmann::json::parse(r.out), "unused-suppression"),
            1001);
  r = RunTopolint(
      {"check", "--format", "json", "--max-findings", "0", dir.path() + "/m"});
  EXPECT_EQ(CountRule(nlohmann::json::parse(r.out), "unused-suppression"),
            1501);
}

TEST(SuppressionTest, PerFileIgnoresDropUnusedSuppressionNotes) {
  TempDir dir;
  dir.Write("m/m.hlo", StaleSuppressions(3));
  dir.Write("m/.topolint.json",
            R"({"per_file_ignores": {"*.hlo": "unused-suppression"}})");
  testing::CliResult r =
      RunTopolint({"check", "--format", "json", dir.path() + "/m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(CountRule(nlohmann::json::parse(r.out), "unused-suppression"), 0)
      << r.out;
}

}  // namespace
}  // namespace topolint
