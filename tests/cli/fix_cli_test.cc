// `topolint check --fix / --diff / --fix-from hlo` on a copy of the
// fixtures: exactly the files docs/fixes.md lists change, --diff prints the
// same change without writing, and a second --fix changes nothing.
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

namespace fs = std::filesystem;
using testing::ReadAll;
using testing::RunTopolint;
using testing::TempDir;

// What docs/fixes.md says `--fix` changes in fixtures/ (each case directory
// checked on its own, as the golden tests do).
const std::set<std::string> kFixed = {
    "config-unknown-key/fail-dashed-override-key/additional_config.json",
    "config-unknown-key/fail-nxdi-unknown/neuron_config.json",
    "config-unknown-key/fail-override-only-typo/override.json",
    "config-unknown-key/fail-vllm-typo/vllm_config.json",
    "unused-suppression/fail-stale-comment/model.hlo",
};
// ... and what `--fix --fix-from hlo` changes besides.
const std::set<std::string> kFixedFromHlo = {
    "xref-topology-mismatch/fail-group-count/def.json",
    "xref-topology-mismatch/fail-group-differs/def.json",
    "xref-topology-mismatch/fail-groups-reordered/def.json",
    "xref-topology-mismatch/fail-no-topology/def.json",
    "xref-topology-mismatch/fail-ranks-reordered/def.json",
    "xref-world-size/fail-group-size-vs-ws-rg/def.json",
};

std::map<std::string, std::string> Snapshot(const std::string& root) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    files[fs::relative(e.path(), root).string()] = ReadAll(e.path().string());
  }
  return files;
}

std::set<std::string> Changed(const std::map<std::string, std::string>& a,
                              const std::map<std::string, std::string>& b) {
  std::set<std::string> out;
  for (const auto& [name, text] : b) {
    auto it = a.find(name);
    if (it == a.end() || it->second != text) out.insert(name);
  }
  for (const auto& [name, text] : a) {
    if (b.count(name) == 0) out.insert(name);
  }
  return out;
}

// The case directories of the golden tests (fail-*, pass-*, layouts/*).
std::vector<std::string> Cases(const std::string& root) {
  std::vector<std::string> cases;
  for (const auto& group : fs::directory_iterator(root)) {
    if (!group.is_directory()) continue;
    const bool layouts = group.path().filename() == "layouts";
    for (const auto& c : fs::directory_iterator(group.path())) {
      const std::string name = c.path().filename().string();
      if (!c.is_directory()) continue;
      if (layouts || name.rfind("fail-", 0) == 0 ||
          name.rfind("pass-", 0) == 0) {
        cases.push_back(fs::relative(c.path(), root).string());
      }
    }
  }
  return cases;
}

// Runs `check FLAGS... CASES...` in `root`, every case directory named on
// the command line (each is its own search root, so its own unit, as when
// the golden tests check it alone); returns stdout.
std::string RunAll(const std::string& root,
                   const std::vector<std::string>& flags) {
  std::vector<std::string> args = {"check", "-q"};
  args.insert(args.end(), flags.begin(), flags.end());
  for (const std::string& c : Cases(root)) args.push_back(c);
  testing::CliResult r = RunTopolint(args, root);
  EXPECT_LT(r.exit_code, 2) << r.err;
  return r.out;
}

class FixFixturesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = dir_.path() + "/fixtures";
    fs::copy(std::string(TOPOLINT_SOURCE_DIR) + "/fixtures", root_,
             fs::copy_options::recursive);
    before_ = Snapshot(root_);
  }
  TempDir dir_;
  std::string root_;
  std::map<std::string, std::string> before_;
};

TEST_F(FixFixturesTest, FixChangesExactlyTheDocumentedFilesAndIsIdempotent) {
  RunAll(root_, {"--fix"});
  const std::map<std::string, std::string> fixed = Snapshot(root_);
  EXPECT_EQ(Changed(before_, fixed), kFixed);
  EXPECT_EQ(fixed.at("config-unknown-key/fail-vllm-typo/vllm_config.json")
                .find("\"mlp_dp_size\": 2"),
            before_.at("config-unknown-key/fail-vllm-typo/vllm_config.json")
                .find("\"mlp_dp_szie\": 2"));
  // A second --fix changes nothing.
  RunAll(root_, {"--fix"});
  EXPECT_TRUE(Changed(fixed, Snapshot(root_)).empty());
  // --fix-from hlo rewrites the def.json topologies as well.
  RunAll(root_, {"--fix", "--fix-from", "hlo"});
  const std::map<std::string, std::string> from_hlo = Snapshot(root_);
  EXPECT_EQ(Changed(fixed, from_hlo), kFixedFromHlo);
  RunAll(root_, {"--fix", "--fix-from", "hlo"});
  EXPECT_TRUE(Changed(from_hlo, Snapshot(root_)).empty());
}

TEST_F(FixFixturesTest, DiffPrintsTheSameChangeAndWritesNothing) {
  const std::string diff = RunAll(root_, {"--diff", "--fix-from", "hlo"});
  EXPECT_TRUE(Changed(before_, Snapshot(root_)).empty());
  ASSERT_FALSE(diff.empty());
  EXPECT_NE(diff.find("-    \"override-neuron-config\": {\n"
                      "+    \"override_neuron_config\": {\n"),
            std::string::npos)
      << diff;
  EXPECT_NE(diff.find("-  // topolint: disable-next-line=hlo-group-coverage\n"),
            std::string::npos);
  // The diff applied with patch(1) gives what --fix writes.
  if (std::system("command -v patch >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "patch(1) is not installed: the diff was not applied";
  }
  const std::string patch_file = dir_.path() + "/fix.diff";
  testing::WriteAll(patch_file, diff);
  const std::string cmd = "cd " + testing::ShellQuote(root_) +
                          " && patch -s -p0 <" +
                          testing::ShellQuote(patch_file);
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::map<std::string, std::string> patched = Snapshot(root_);
  TempDir other;
  const std::string copy = other.path() + "/fixtures";
  fs::copy(std::string(TOPOLINT_SOURCE_DIR) + "/fixtures", copy,
           fs::copy_options::recursive);
  RunAll(copy, {"--fix", "--fix-from", "hlo"});
  EXPECT_EQ(patched, Snapshot(copy));
}

constexpr char kStaleHlo[] =
    "HloModule m, replica_count=2\n"
    "\n"
    "ENTRY e {\n"
    "  p = f32[8] parameter(0)\n"
    "  // topolint: disable-next-line=hlo-group-coverage\n"
    "  ROOT ar = f32[8] all-reduce(p), replica_groups={{0,1}}, "
    "to_apply=add // topolint: disable=hlo-empty-group\n"
    "}\n";

TEST(FixCliTest, RemovesStaleCommentsAndReportsWhatRemains) {
  TempDir dir;
  const std::string file = dir.Write("m/model.hlo", kStaleHlo);
  chmod(file.c_str(), 0640);
  testing::CliResult r = RunTopolint({"check", "--fix", dir.path() + "/m"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("topolint: 2 fixed, 0 remaining"), std::string::npos)
      << r.err;
  EXPECT_EQ(ReadAll(file),
            "HloModule m, replica_count=2\n\nENTRY e {\n"
            "  p = f32[8] parameter(0)\n"
            "  ROOT ar = f32[8] all-reduce(p), replica_groups={{0,1}}, "
            "to_apply=add\n}\n");
  struct stat st;
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u) << "the file keeps its permissions";
}

TEST(FixCliTest, FixesThroughASymlinkKeepTheLink) {
  TempDir dir;
  const std::string real = dir.Write("real/model.hlo", kStaleHlo);
  fs::create_directories(dir.path() + "/m");
  const std::string link = dir.path() + "/m/model.hlo";
  fs::create_symlink(real, link);
  testing::CliResult r = RunTopolint({"check", "--fix", link});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(ReadAll(real).find("topolint:"), std::string::npos);
}

TEST(FixCliTest, KeepsASuppressionOfADeselectedRule) {
  TempDir dir;
  const std::string file = dir.Write("m/model.hlo", kStaleHlo);
  testing::CliResult r = RunTopolint(
      {"check", "--fix", "--rules", "-hlo-group-coverage", dir.path() + "/m"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The hlo-empty-group one goes; the comment naming a rule --rules turned
  // off may be in use, so it stays (and is still reported).
  EXPECT_NE(ReadAll(file).find("disable-next-line=hlo-group-coverage"),
            std::string::npos);
  EXPECT_EQ(ReadAll(file).find("disable=hlo-empty-group"), std::string::npos);
  EXPECT_NE(r.err.find("1 fixed, 1 remaining"), std::string::npos) << r.err;
}

TEST(FixCliTest, ExitCodeReflectsTheRemainingFindings) {
  TempDir dir;
  const std::string unit = dir.path() + "/u";
  fs::copy(std::string(TOPOLINT_SOURCE_DIR) +
               "/fixtures/xref-topology-mismatch/fail-group-differs",
           unit);
  fs::remove(unit + "/expected.txt");
  // Without --fix-from the topology stays: the error remains.
  testing::CliResult r = RunTopolint({"check", "--fix", unit});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("0 fixed, 1 remaining; 1 more with --fix-from hlo"),
            std::string::npos)
      << r.err;
  r = RunTopolint({"check", "--fix", "--fix-from", "hlo", unit});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1 fixed, 0 remaining"), std::string::npos) << r.err;
  // --diff on a clean unit: no diff, exit 0.
  r = RunTopolint({"check", "--diff", "--fix-from", "hlo", unit});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.out.empty());
}

// A check's summary says how many findings --fix would fix, as --diff
// counts them; not under --quiet, not for a piped input (--fix refuses
// those), and not in --fix's own check of what remains.
TEST(FixCliTest, TheSummarySaysWhatFixWouldFix) {
  TempDir dir;
  dir.Write("m/model.hlo", kStaleHlo);
  const std::string unit = dir.path() + "/u";
  fs::copy(std::string(TOPOLINT_SOURCE_DIR) +
               "/fixtures/xref-topology-mismatch/fail-group-differs",
           unit);
  fs::remove(unit + "/expected.txt");
  testing::CliResult r = RunTopolint({"check", dir.path() + "/m"});
  EXPECT_NE(r.err.find("topolint: 2 fixable with --fix (--diff shows the "
                       "edits)\n"),
            std::string::npos)
      << r.err;
  testing::CliResult diff = RunTopolint({"check", "--diff", dir.path() + "/m"});
  EXPECT_NE(diff.err.find("--fix would fix 2 findings"), std::string::npos)
      << diff.err;
  r = RunTopolint({"check", unit});
  EXPECT_NE(r.err.find("topolint: 1 fixable with --fix --fix-from hlo\n"),
            std::string::npos)
      << r.err;
  r = RunTopolint({"check", dir.path() + "/m", unit});
  EXPECT_NE(r.err.find("topolint: 2 fixable with --fix (--diff shows the "
                       "edits); 1 more with --fix --fix-from hlo\n"),
            std::string::npos)
      << r.err;
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {"check", "-q", dir.path() + "/m"},
           {"check", "--stdin-filename", "model.hlo", "-"},
           {"check", "--fix", unit}}) {
    r = RunTopolint(args, TOPOLINT_SOURCE_DIR, kStaleHlo);
    EXPECT_EQ(r.err.find("fixable"), std::string::npos)
        << args[1] << ": " << r.err;
  }
}

TEST(FixCliTest, NoTopologyFixWhenTheModuleHasSeveralLists) {
  TempDir dir;
  dir.Write("u/model.hlo",
            "HloModule m, replica_count=1, num_partitions=4\n"
            "ENTRY e {\n  p = f32[8] parameter(0)\n"
            "  a = f32[8] all-reduce(p), channel_id=1, "
            "replica_groups={{0,1},{2,3}}, use_global_device_ids=true, "
            "to_apply=add\n"
            "  ROOT b = f32[8] all-reduce(a), channel_id=2, "
            "replica_groups={{0,2},{1,3}}, use_global_device_ids=true, "
            "to_apply=add\n}\n");
  const std::string def = dir.Write(
      "u/def.json", "{\"CCInfo\": {\"replica_groups\": [[[0, 1], [2, 3]]]}}\n");
  testing::CliResult r =
      RunTopolint({"check", "--diff", "--fix-from", "hlo", dir.path() + "/u"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << "which list is right is not certain";
  EXPECT_EQ(ReadAll(def),
            "{\"CCInfo\": {\"replica_groups\": [[[0, 1], [2, 3]]]}}\n");
}

TEST(FixCliTest, UsageErrors) {
  const std::string unit =
      std::string(TOPOLINT_SOURCE_DIR) + "/fixtures/explain/rank-model-example";
  testing::CliResult r = RunTopolint({"explain", "--fix", unit});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("options of `topolint check`"), std::string::npos);
  r = RunTopolint({"check", "--fix", "--fix-from", "neff", unit});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--fix-from expects 'hlo'"), std::string::npos);
  r = RunTopolint({"check", "--fix-from", "hlo", unit});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--fix-from needs --fix or --diff"), std::string::npos);
}

TEST(FixDocsTest, DocsListTheFixedFilesAndEachFixableRuleHasAFixSection) {
  const std::string docs =
      ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/docs/fixes.md");
  std::set<std::string> listed;
  for (size_t at = docs.find("- `fixtures/"); at != std::string::npos;
       at = docs.find("- `fixtures/", at + 1)) {
    const size_t begin = at + 12;
    listed.insert(docs.substr(begin, docs.find('`', begin) - begin));
  }
  std::set<std::string> expected = kFixed;
  expected.insert(kFixedFromHlo.begin(), kFixedFromHlo.end());
  EXPECT_EQ(listed, expected);
  for (const char* rule :
       {"unused-suppression", "config-unknown-key", "xref-topology-mismatch"}) {
    const std::string page = ReadAll(std::string(TOPOLINT_SOURCE_DIR) +
                                     "/docs/rules/" + rule + ".md");
    EXPECT_NE(page.find("\n## Fix\n"), std::string::npos) << rule;
  }
}

}  // namespace
}  // namespace topolint
