// Issue 15, classes 1 and 5: outputs are written atomically, never over an
// input, and output faults (full disk, RLIMIT_FSIZE, /dev/full, a closed or
// broken standard output) are exit 2 with a reason, never a lost file or a
// signal.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reliability/environment_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

const char kFailing[] = "fixtures/hlo-device-id-range/fail-id-beyond-listed";

std::string FailingHlo() {
  return ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/" + kFailing +
                 "/model.hlo");
}

TEST(OutputSafetyTest, FileSizeLimitLeavesTheOldReportIntact) {
  TempDir dir;
  dir.Write("model.hlo", ManyDuplicateIdOps(300));
  const std::string old_report(100, 'o');
  dir.Write("report.json", old_report);
  const CliResult r = RunWithFileSizeLimit(
      {"--format", "json", "-o", "report.json", "model.hlo"}, 4096, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("report.json"));
  EXPECT_THAT(r.err, HasSubstr("File too large"));
  EXPECT_EQ(ReadAll(dir.path() + "/report.json"), old_report);
  EXPECT_THAT(LeftoverTemporaries(dir.path()), IsEmpty());
}

TEST(OutputSafetyTest, FileSizeLimitLeavesTheOldBaselineIntact) {
  TempDir dir;
  dir.Write("model.hlo", ManyDuplicateIdOps(300));
  const std::string old_baseline = "{\"version\": 1, \"findings\": []}\n";
  dir.Write("b.json", old_baseline);
  const CliResult r = RunWithFileSizeLimit(
      {"--write-baseline", "b.json", "model.hlo"}, 4096, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("File too large"));
  EXPECT_EQ(ReadAll(dir.path() + "/b.json"), old_baseline);
  EXPECT_THAT(LeftoverTemporaries(dir.path()), IsEmpty());
}

TEST(OutputSafetyTest, AReplacedReportKeepsItsPermissions) {
  TempDir dir;
  dir.Write("model.hlo", FailingHlo());
  const std::string out = dir.Write("report.txt", "old");
  ASSERT_EQ(chmod(out.c_str(), 0640), 0);
  const CliResult r =
      RunTopolint({"-o", "report.txt", "model.hlo"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(ReadAll(out), HasSubstr("[hlo-device-id-range]"));
  struct stat st;
  ASSERT_EQ(stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_THAT(LeftoverTemporaries(dir.path()), IsEmpty());
}

TEST(OutputSafetyTest, DevFullIsExitTwoForEveryOutput) {
  for (const char* flag : {"-o", "--write-baseline"}) {
    const CliResult r =
        RunTopolint({flag, "/dev/full", std::string(kFailing) + "/model.hlo"});
    EXPECT_EQ(r.exit_code, 2) << flag << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("No space left on device")) << flag;
  }
  const CliResult r =
      RunShell("\"$TL\" " + std::string(kFailing) + "/model.hlo > /dev/full");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("standard output"));
  EXPECT_THAT(r.err, HasSubstr("No space left on device"));
}

TEST(OutputSafetyTest, ClosedStdoutIsExitTwoWithAMessage) {
  for (const std::string& cmd :
       {"\"$TL\" " + std::string(kFailing) + "/model.hlo >&-",
        std::string("\"$TL\" rules >&-"), std::string("\"$TL\" --help >&-")}) {
    const CliResult r = RunShell(cmd);
    EXPECT_EQ(r.exit_code, 2) << cmd << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("standard output")) << cmd;
  }
}

TEST(OutputSafetyTest, ClosedStdoutDoesNotLeakTheReportIntoAnOutputFile) {
  TempDir dir;
  dir.Write("model.hlo", FailingHlo());
  const CliResult r =
      RunShell("\"$TL\" --write-baseline b.json model.hlo >&-", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // The baseline is not written (the run failed), and certainly not with
  // the report in it.
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/b.json"));
}

TEST(OutputSafetyTest, BrokenPipeIsNotASignal) {
  TempDir dir;
  dir.Write("model.hlo", ManyDuplicateIdOps(1000));
  const CliResult r = RunShell(
      "\"$TL\" --format json model.hlo | head -c 1 > /dev/null\n"
      "echo \"rc=${PIPESTATUS[0]}\"",
      dir.path());
  EXPECT_THAT(r.out, HasSubstr("rc=2")) << r.err;
  EXPECT_THAT(r.err, HasSubstr("Broken pipe"));
}

TEST(OutputSafetyTest, AnOutputThatIsAnInputIsRefused) {
  TempDir dir;
  const std::string hlo = FailingHlo();
  dir.Write("m/model.hlo", hlo);
  std::filesystem::create_hard_link(dir.path() + "/m/model.hlo",
                                    dir.path() + "/hard.txt");
  std::filesystem::create_symlink(dir.path() + "/m/model.hlo",
                                  dir.path() + "/link.txt");
  for (const char* out : {"m/model.hlo", "hard.txt", "link.txt"}) {
    for (const char* flag : {"-o", "--write-baseline"}) {
      // Named directly, and found inside a directory.
      for (const char* input : {"m/model.hlo", "m"}) {
        const CliResult r = RunTopolint({flag, out, input}, dir.path());
        EXPECT_EQ(r.exit_code, 2) << flag << " " << out << " " << input;
        EXPECT_THAT(r.err, HasSubstr("refusing to overwrite")) << r.err;
      }
    }
  }
  EXPECT_EQ(ReadAll(dir.path() + "/m/model.hlo"), hlo);
  dir.Write("m/.topolint.json", "{\"lnc\": 1}");
  CliResult r = RunTopolint({"-o", "m/.topolint.json", "m"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("the settings file"));
  dir.Write("b.json", "{\"version\": 1, \"findings\": []}");
  r = RunTopolint({"--baseline", "b.json", "-o", "b.json", "m"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--baseline"));
  r = RunTopolint({"-o", "b.json", "--write-baseline", "b.json", "m"},
                  dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("also the --write-baseline file"));
}

TEST(OutputSafetyTest, BaselineUpdatedInPlaceReadsTheOldOneFirst) {
  TempDir dir;
  dir.Write("model.hlo", FailingHlo());
  CliResult r =
      RunTopolint({"--write-baseline", "b.json", "model.hlo"}, dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const std::string first = ReadAll(dir.path() + "/b.json");
  ASSERT_THAT(first, HasSubstr("hlo-device-id-range"));
  r = RunTopolint(
      {"--baseline", "b.json", "--write-baseline", "b.json", "model.hlo"},
      dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;  // the old baseline hid the finding
  EXPECT_THAT(r.err, HasSubstr("baseline hid 1 finding"));
  EXPECT_EQ(ReadAll(dir.path() + "/b.json"), first);
}

TEST(OutputSafetyTest, AFailedRunWritesNothing) {
  TempDir dir;
  dir.Write("model.hlo", FailingHlo());
  dir.Write("report.txt", "old report");
  dir.Write("b.json", "old baseline");
  // Unreadable settings: exit 2 before checking.
  dir.Write("bad.json", "{\"lnc\": \"two\"}");
  CliResult r = RunTopolint({"--config", "bad.json", "-o", "report.txt",
                             "--write-baseline", "b.json", "model.hlo"},
                            dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // A baseline that does not parse: exit 2 after checking.
  r = RunTopolint({"--baseline", "b.json", "-o", "report.txt",
                   "--write-baseline", "b.json", "model.hlo"},
                  dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("b.json: not valid JSON"));
  EXPECT_EQ(ReadAll(dir.path() + "/report.txt"), "old report");
  EXPECT_EQ(ReadAll(dir.path() + "/b.json"), "old baseline");
  EXPECT_THAT(LeftoverTemporaries(dir.path()), IsEmpty());
}

TEST(OutputSafetyTest, OutputsThroughSymlinksReplaceTheTarget) {
  TempDir dir;
  dir.Write("model.hlo", FailingHlo());
  dir.Write("real/report.txt", "old");
  std::filesystem::create_symlink(dir.path() + "/real/report.txt",
                                  dir.path() + "/report.txt");
  const CliResult r =
      RunTopolint({"-o", "report.txt", "model.hlo"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(std::filesystem::is_symlink(dir.path() + "/report.txt"));
  EXPECT_THAT(ReadAll(dir.path() + "/real/report.txt"),
              HasSubstr("[hlo-device-id-range]"));
}

TEST(OutputSafetyTest, OutputIntoADirectoryIsExitTwo) {
  TempDir dir;
  dir.Write("model.hlo", FailingHlo());
  std::filesystem::create_directories(dir.path() + "/out");
  const CliResult r = RunTopolint({"-o", "out", "model.hlo"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("out: is a directory"));
  const CliResult missing =
      RunTopolint({"-o", "no/such/dir/r.txt", "model.hlo"}, dir.path());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("No such file or directory"));
}

}  // namespace
}  // namespace topolint::testing
