// Reliability III (issue 27) through the CLI: a cross-file check is never
// dropped without a word, a tree of any size is searched, and the findings
// cap can be lifted while the summary counts what was found.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"
#include "tests/reliability/environment_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kMismatch[] =
    "fixtures/xref-topology-mismatch/fail-group-differs";

std::string Fixture(const std::string& name) {
  return ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/" + kMismatch + "/" +
                 name);
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos;
       pos = text.find(what, pos + 1)) {
    ++n;
  }
  return n;
}

TEST(CrossFilePairingTest, TwoModulesBesideOneDefJsonAreNamedNotSilent) {
  TempDir dir;
  dir.Write("model.hlo", Fixture("model.hlo"));
  dir.Write("other.hlo", Fixture("model.hlo"));
  dir.Write("def.json", Fixture("def.json"));
  const CliResult r = RunTopolint({"."}, dir.path());
  // An unchecked-input finding (issue 43), in the report itself.
  EXPECT_THAT(r.out, HasSubstr("cannot tell which module each NEFF"));
  EXPECT_THAT(r.out, HasSubstr("model.hlo, other.hlo"));
  EXPECT_THAT(r.out, HasSubstr("def.json"));
  EXPECT_THAT(r.out, HasSubstr("--hlo MODULE --neff NEFF"));
  EXPECT_THAT(r.out, HasSubstr("[unchecked-input]"));
  // Named as the warning says, the pair is compared.
  const CliResult paired =
      RunTopolint({"--hlo", "model.hlo", "--neff", "def.json"}, dir.path());
  EXPECT_EQ(paired.exit_code, 1) << paired.err;
  EXPECT_THAT(paired.out, HasSubstr("xref-topology-mismatch"));
}

// A hard link is no second module (issue 43, section 8): one file, one
// identity, so the module still meets its def.json.
TEST(CrossFilePairingTest, AHardLinkedSecondNameIsTheSameModule) {
  TempDir dir;
  const std::string model = dir.Write("model.hlo", Fixture("model.hlo"));
  ASSERT_EQ(::link(model.c_str(), (dir.path() + "/other.hlo").c_str()), 0);
  dir.Write("def.json", Fixture("def.json"));
  const CliResult r = RunTopolint({"."}, dir.path());
  EXPECT_THAT(r.out, Not(HasSubstr("cannot tell which module each NEFF")));
  EXPECT_EQ(Count(r.out, "[xref-topology-mismatch]"), 1u) << r.out;
  EXPECT_EQ(r.exit_code, 1) << r.err;
}

TEST(CrossFilePairingTest, APlainDefJsonStillMeetsTheOnlyUnpairedModule) {
  TempDir dir;
  dir.Write("model.hlo", Fixture("model.hlo"));
  dir.Write("def.json", Fixture("def.json"));
  // A complete pair of its own beside them.
  dir.Write("b.hlo", Fixture("model.hlo"));
  dir.Write("b.def.json", Fixture("def.json"));
  const CliResult r = RunTopolint({"."}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Count(r.out, "[xref-topology-mismatch]"), 2u) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("cannot tell")));
}

// /dev/shm where there is one (tmpfs: 120,000 files in well under a
// second), else the temporary directory.
std::string FastScratch() {
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec) &&
      ::access("/dev/shm", W_OK) == 0) {
    return "/dev/shm";
  }
  return std::filesystem::temp_directory_path().string();
}

TEST(LargeTreeTest, MoreThanAHundredThousandFilesAreSearched) {
  const std::string root =
      FastScratch() + "/topolint-tree-" + std::to_string(getpid());
  std::filesystem::remove_all(root);
  // 120,000 compile-cache lock files (known by name: nothing is opened) in
  // 120 directories, and one module with a finding at the end of the walk.
  for (int d = 0; d < 120; ++d) {
    const std::string dir = root + "/d" + std::to_string(1000 + d);
    ASSERT_TRUE(std::filesystem::create_directories(dir));
    for (int f = 0; f < 1000; ++f) {
      std::ofstream(dir + "/" + std::to_string(f) + ".lock");
    }
  }
  WriteAll(root + "/zz/model.hlo", Fixture("model.hlo"));
  WriteAll(root + "/zz/def.json", Fixture("def.json"));
  const CliResult r = RunTopolint({"-j", "2", root});
  std::filesystem::remove_all(root);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("narrow the search")));
  EXPECT_THAT(r.out, HasSubstr("[xref-topology-mismatch]"));
}

TEST(MaxFindingsTest, TheSummaryCountsWhatTheCapLeftOut) {
  TempDir dir;
  dir.Write("model.hlo", ManyDuplicateIdOps(1500));
  const CliResult r =
      RunTopolint({"--format", "github", "model.hlo"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Count(r.out, "::error "), 1000u);
  EXPECT_THAT(r.out, HasSubstr("500 more hlo-duplicate-device-id findings"));
  EXPECT_THAT(r.out, HasSubstr("--max-findings 0 shows all"));
  EXPECT_THAT(r.err, HasSubstr("1500 errors, 0 warnings, 0 notes"));
  EXPECT_THAT(r.err, HasSubstr("1000 of 1500 shown"));
}

TEST(MaxFindingsTest, ZeroLiftsTheCap) {
  TempDir dir;
  dir.Write("model.hlo", ManyDuplicateIdOps(1500));
  const CliResult r = RunTopolint(
      {"--format", "github", "--max-findings", "0", "model.hlo"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Count(r.out, "::error "), 1500u);
  EXPECT_THAT(r.out, Not(HasSubstr("not shown")));
  EXPECT_THAT(r.err, HasSubstr("1500 errors"));
  EXPECT_THAT(r.err, Not(HasSubstr("shown")));
}

TEST(MaxFindingsTest, ASmallCapKeepsJsonAndSarifValid) {
  TempDir dir;
  dir.Write("model.hlo", ManyDuplicateIdOps(30));
  for (const char* format : {"json", "sarif"}) {
    const CliResult r = RunTopolint(
        {"--format", format, "--max-findings", "10", "model.hlo"}, dir.path());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << format;
    const nlohmann::json& results =
        doc.is_array() ? doc : doc["runs"][0]["results"];
    // Ten findings and the cap's note.
    EXPECT_EQ(results.size(), 11u) << format;
    EXPECT_THAT(r.err, HasSubstr("30 errors"));
    EXPECT_THAT(r.err, HasSubstr("10 of 30 shown"));
  }
}

TEST(MaxFindingsTest, TheSettingsFileSetsItAndTheFlagWins) {
  TempDir dir;
  dir.Write("model.hlo", ManyDuplicateIdOps(30));
  dir.Write(".topolint.json", R"({"max_findings": 5})");
  const CliResult r =
      RunTopolint({"--format", "github", "model.hlo"}, dir.path());
  EXPECT_EQ(Count(r.out, "::error "), 5u) << r.out;
  const CliResult flag = RunTopolint(
      {"--format", "github", "--max-findings", "0", "model.hlo"}, dir.path());
  EXPECT_EQ(Count(flag.out, "::error "), 30u);
  dir.Write(".topolint.json", R"({"max_findings": -1})");
  const CliResult bad = RunTopolint({"model.hlo"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("\"max_findings\" must be an integer >= 0"));
}

TEST(MaxFindingsTest, ANegativeOrMissingValueIsAUsageError) {
  for (const char* value : {"-1", "x", ""}) {
    const CliResult r = RunTopolint({"--max-findings", value, "."});
    EXPECT_EQ(r.exit_code, 2) << value;
  }
}

}  // namespace
}  // namespace topolint::testing
