// Issue 15, class 4 (volume): `topolint check` streams its report. Every
// format stays one valid document, -j does not change a byte, a config
// shared by several units reports its findings once, staged outputs stay
// atomic when a streamed run fails half-way, and the findings cap counts
// only findings that survive suppression.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/reliability/environment_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

using Json = nlohmann::json;

// `units` directories u000/, u001/, ... each holding one module with
// `findings` hlo-duplicate-device-id findings.
void WriteManyUnits(const TempDir& dir, int units, int findings) {
  const std::string hlo = ManyDuplicateIdOps(findings);
  for (int i = 0; i < units; ++i) {
    dir.Write(fmt::format("tree/u{:03}/model.hlo", i), hlo);
  }
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(StreamingOutputTest, EveryFormatIsOneCompleteDocument) {
  TempDir dir;
  WriteManyUnits(dir, 40, 5);
  const CliResult json =
      RunTopolint({"--format", "json", "-j", "2", "tree"}, dir.path());
  EXPECT_EQ(json.exit_code, 1) << json.err;
  const Json array = Json::parse(json.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(array.is_array()) << json.out.substr(0, 200);
  EXPECT_EQ(array.size(), 200u);

  const CliResult sarif =
      RunTopolint({"--format", "sarif", "-j", "2", "tree"}, dir.path());
  EXPECT_EQ(sarif.exit_code, 1) << sarif.err;
  const Json log = Json::parse(sarif.out, nullptr, false);
  ASSERT_TRUE(log.is_object()) << sarif.out.substr(0, 200);
  EXPECT_EQ(log["runs"][0]["results"].size(), 200u);
  EXPECT_EQ(log["runs"][0]["tool"]["driver"]["name"], "topolint");
  if (std::system("python3 -c 'import jsonschema' >/dev/null 2>&1") == 0) {
    const std::string doc = dir.Write("out.sarif", sarif.out);
    const std::string schema =
        std::string(TOPOLINT_SOURCE_DIR) + "/tests/data/sarif-2.1.0-rtm.5.json";
    const std::string cmd =
        "python3 -c 'import json,jsonschema,sys; "
        "jsonschema.validate(json.load(open(sys.argv[1])), "
        "json.load(open(sys.argv[2])))' " +
        ShellQuote(doc) + " " + ShellQuote(schema);
    EXPECT_EQ(std::system(cmd.c_str()), 0);
  }

  const CliResult text = RunTopolint({"-j", "2", "tree"}, dir.path());
  EXPECT_EQ(Count(text.out, "[hlo-duplicate-device-id]"), 200u);
  EXPECT_THAT(text.err, HasSubstr("200 errors"));
  const CliResult github =
      RunTopolint({"--format", "github", "-j", "2", "tree"}, dir.path());
  EXPECT_EQ(Count(github.out, "::error "), 200u);
}

TEST(StreamingOutputTest, NoFindingsIsStillAValidDocument) {
  TempDir dir;
  WriteManyUnits(dir, 3, 0);
  const CliResult json = RunTopolint({"--format", "json", "tree"}, dir.path());
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, "[]\n");
  const CliResult sarif =
      RunTopolint({"--format", "sarif", "tree"}, dir.path());
  const Json log = Json::parse(sarif.out, nullptr, false);
  ASSERT_TRUE(log.is_object()) << sarif.out;
  EXPECT_EQ(log["runs"][0]["results"], Json::array());
}

TEST(StreamingOutputTest, ParallelRunsWriteTheSameBytesAsSerialOnes) {
  for (const char* format : {"text", "json", "sarif", "github"}) {
    const CliResult one =
        RunTopolint({"--format", format, "-j", "1", "fixtures"});
    const CliResult two =
        RunTopolint({"--format", format, "-j", "2", "fixtures"});
    EXPECT_EQ(one.exit_code, two.exit_code) << format;
    EXPECT_EQ(one.out, two.out) << format;
    EXPECT_EQ(one.err, two.err) << format;
    EXPECT_FALSE(one.out.empty()) << format;
  }
}

TEST(StreamingOutputTest, FindingsAreSortedAcrossUnits) {
  const CliResult r = RunTopolint({"--format", "json", "-j", "2", "fixtures"});
  const Json array = Json::parse(r.out, nullptr, false);
  ASSERT_TRUE(array.is_array());
  ASSERT_GT(array.size(), 100u);
  for (size_t i = 1; i < array.size(); ++i) {
    const Json& a = array[i - 1];
    const Json& b = array[i];
    const bool ordered =
        std::make_tuple(a["file"].get<std::string>(), a["line"].get<int>(),
                        a["column"].get<int>()) <=
        std::make_tuple(b["file"].get<std::string>(), b["line"].get<int>(),
                        b["column"].get<int>());
    EXPECT_TRUE(ordered) << a.dump() << "\nbefore\n" << b.dump();
  }
}

// A component config inherited by two units (docs/layouts.md) is checked by
// both; a finding about the config itself is reported once.
TEST(StreamingOutputTest, ASharedConfigsFindingsComeOnce) {
  TempDir dir;
  dir.Write("model/neuron_config.json",
            ReadAll(std::string(TOPOLINT_SOURCE_DIR) +
                    "/fixtures/config-unknown-key/fail-nxdi-unknown/"
                    "neuron_config.json"));
  const std::string hlo = ManyDuplicateIdOps(2);
  dir.Write("model/a/m.hlo", hlo);
  dir.Write("model/b/m.hlo", hlo);
  for (const char* jobs : {"1", "2"}) {
    const CliResult r = RunTopolint({"--format", "github", "-j", jobs,
                                     "--rules", "config-unknown-key", "model"},
                                    dir.path());
    EXPECT_EQ(Count(r.out, "unknown neuron_config key 'cp_degre'"), 1u)
        << r.out;
    EXPECT_EQ(Count(r.out, "'enable_turbo_mode'"), 1u) << r.out;
    EXPECT_THAT(r.err, HasSubstr("2 units"));
  }
}

// A report far larger than the sink's 64 KiB buffer, cut off by
// RLIMIT_FSIZE after its first pieces were written to the staged file: the
// old report stays and no temporary is left.
TEST(StreamingOutputTest, AStreamedReportCutOffByTheFileSizeLimitKeepsTheOld) {
  TempDir dir;
  WriteManyUnits(dir, 20, 60);
  const std::string old_report = "old report\n";
  dir.Write("report.json", old_report);
  dir.Write("b.json", old_report);
  for (const char* flag : {"-o", "--write-baseline"}) {
    const std::string target =
        std::string(flag) == "-o" ? "report.json" : "b.json";
    const CliResult r = RunWithFileSizeLimit(
        {"--format", "json", flag, target, "tree"}, 200 << 10, dir.path());
    EXPECT_EQ(r.exit_code, 2) << flag << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("File too large")) << flag;
    EXPECT_EQ(ReadAll(dir.path() + "/" + target), old_report) << flag;
    EXPECT_THAT(LeftoverTemporaries(dir.path()), IsEmpty()) << flag;
  }
  // Without the limit the same run writes the whole report.
  const CliResult ok = RunTopolint(
      {"--format", "json", "-o", "report.json", "tree"}, dir.path());
  EXPECT_EQ(ok.exit_code, 1) << ok.err;
  const Json array =
      Json::parse(ReadAll(dir.path() + "/report.json"), nullptr, false);
  ASSERT_TRUE(array.is_array());
  EXPECT_EQ(array.size(), 1200u);
}

// A unit that fails to load after other units were reported (a named
// config past the JSON size limit, checked last): exit 2; staged outputs
// commit nothing; standard output keeps the findings already written.
TEST(StreamingOutputTest, AFailureHalfWayCommitsNoFile) {
  TempDir dir;
  WriteManyUnits(dir, 5, 3);
  // Relative, as the units: it sorts after them, so it is checked last.
  const std::string big = "zz_neuron_config.json";
  ASSERT_EQ(truncate(dir.Write("zz_neuron_config.json", "").c_str(),
                     (off_t{64} << 20) + 1),
            0);
  dir.Write("report.txt", "old report\n");
  dir.Write("b.json", "old baseline\n");
  const CliResult staged =
      RunTopolint({"-o", "report.txt", "--write-baseline", "b.json",
                   "--neuron-config", big, "tree"},
                  dir.path());
  EXPECT_EQ(staged.exit_code, 2) << staged.err;
  EXPECT_THAT(staged.err, HasSubstr("zz_neuron_config.json"));
  EXPECT_EQ(ReadAll(dir.path() + "/report.txt"), "old report\n");
  EXPECT_EQ(ReadAll(dir.path() + "/b.json"), "old baseline\n");
  EXPECT_THAT(LeftoverTemporaries(dir.path()), IsEmpty());

  const CliResult streamed =
      RunTopolint({"--neuron-config", big, "tree"}, dir.path());
  EXPECT_EQ(streamed.exit_code, 2) << streamed.err;
  EXPECT_EQ(Count(streamed.out, "[hlo-duplicate-device-id]"), 15u)
      << streamed.out;
  EXPECT_THAT(streamed.err, HasSubstr("topolint: error: "));
  EXPECT_THAT(streamed.err, Not(HasSubstr("15 errors")));
}

// The module of ManyDuplicateIdOps(total) with the first `suppressed` ops
// silenced by a comment: `same_line` ones after the op, else
// `disable-next-line` comments before it.
std::string SuppressedOps(int total, int suppressed, bool same_line) {
  std::string hlo = ManyDuplicateIdOps(total);
  for (int i = 0; i < suppressed; ++i) {
    const std::string op = fmt::format("  %ar{} = ", i);
    const size_t at = hlo.find(op);
    if (same_line) {
      const size_t end = hlo.find('\n', at);
      hlo.insert(end, "  // topolint: disable=hlo-duplicate-device-id");
    } else {
      hlo.insert(at,
                 "  // topolint: disable-next-line=hlo-duplicate-device-id\n");
    }
  }
  return hlo;
}

// 1,500 suppressed findings and 10 real ones: the cap (1,000 per rule and
// unit) counts the 10, so all of them are reported, no "N more" note hides
// any, and no suppression is reported unused.
TEST(StreamingOutputTest, TheFindingsCapCountsOnlyUnsuppressedFindings) {
  for (bool same_line : {true, false}) {
    TempDir dir;
    dir.Write("model.hlo", SuppressedOps(1510, 1500, same_line));
    const CliResult r = RunTopolint(
        {"--format", "github", "--rules",
         "-*,hlo-duplicate-device-id,unused-suppression", "model.hlo"},
        dir.path());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(Count(r.out, "::error "), 10u) << same_line;
    EXPECT_THAT(r.out, Not(HasSubstr("not shown"))) << same_line;
    EXPECT_THAT(r.out, Not(HasSubstr("unused-suppression"))) << same_line;
  }
}

TEST(StreamingOutputTest, PerFileIgnoresDoNotCountTowardsTheCap) {
  TempDir dir;
  dir.Write("ignored.hlo", ManyDuplicateIdOps(1500));
  dir.Write(
      ".topolint.json",
      R"({"per_file_ignores": {"ignored.hlo": ["hlo-duplicate-device-id"]}})");
  const CliResult r = RunTopolint({"--format", "github", "--rules",
                                   "-*,hlo-duplicate-device-id", "ignored.hlo"},
                                  dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, IsEmpty());
}

// The cap still holds for findings that are not suppressed, and a
// suppression that silences something beyond the cap is still used.
TEST(StreamingOutputTest, TheCapStillAppliesToRealFindings) {
  TempDir dir;
  dir.Write("model.hlo", SuppressedOps(1600, 100, false));
  const CliResult r = RunTopolint(
      {"--format", "github", "--rules",
       "-*,hlo-duplicate-device-id,unused-suppression", "model.hlo"},
      dir.path());
  EXPECT_EQ(Count(r.out, "::error "), 1000u);
  EXPECT_THAT(r.out, HasSubstr("500 more hlo-duplicate-device-id findings"));
  EXPECT_THAT(r.out, Not(HasSubstr("unused-suppression")));
}

}  // namespace
}  // namespace topolint::testing
