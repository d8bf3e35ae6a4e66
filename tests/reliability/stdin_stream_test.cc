// Standard input (issue 27, defect 2): HLO text from a pipe is parsed as it
// is read, in the bounded memory a file gets; JSON stops at its limit. The
// memory bound is checked with an address-space limit (`ulimit -v`) on the
// child, not by timing: before, the whole input was held (and /dev/zero
// grew to 1 GiB before it was refused).
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"
#include "tests/reliability/environment_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;

constexpr char kFailing[] =
    "fixtures/hlo-duplicate-device-id/fail-repeated-replica/model.hlo";

// Runs `pipeline` (a shell command whose output goes to topolint's
// standard input) into `topolint ARGS`, under an address-space limit of
// `limit_mb` (none under AddressSanitizer, which reserves terabytes).
CliResult RunPiped(const std::string& pipeline, const std::string& args,
                   [[maybe_unused]] int limit_mb) {
  TempDir dir;
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  std::string limit;
#ifndef TOPOLINT_TEST_ASAN
  limit = "ulimit -v " + std::to_string(limit_mb * 1024) + "; ";
#endif
  const std::string cmd =
      "cd " + ShellQuote(TOPOLINT_SOURCE_DIR) + " && (" + pipeline +
      ") | sh -c " +
      ShellQuote(limit + "exec " + ShellQuote(TOPOLINT_BINARY) + " " + args) +
      " >" + ShellQuote(out) + " 2>" + ShellQuote(err);
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadAll(out);
  r.err = ReadAll(err);
  return r;
}

TEST(StdinStreamTest, DevZeroAsHloIsAFindingInBoundedMemory) {
  const CliResult r = RunPiped("cat /dev/zero 2>/dev/null",
                               "check --stdin-filename x.hlo -", 128);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("x.hlo:1:1: error: not HLO text"));
}

TEST(StdinStreamTest, AModuleLargerThanTheMemoryLimitIsStreamed) {
  // 150 MB of comment lines between the module's head and its failing
  // collective, checked in a 128 MiB address space.
  const std::string pipeline =
      std::string("head -n 11 ") + kFailing +
      "; yes '  // padding padding padding padding padding padding' | "
      "head -n 2884615; tail -n +12 " +
      kFailing;
  const CliResult r = RunPiped(pipeline, "check --stdin-filename x.hlo -", 128);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("[hlo-duplicate-device-id]"));
  // The line number counts every padding line.
  EXPECT_THAT(r.out, HasSubstr("x.hlo:2884627:93: error:"));
}

TEST(StdinStreamTest, ASmallModuleStillShowsItsSourceLines) {
  const CliResult r = RunPiped(std::string("cat ") + kFailing,
                               "check --stdin-filename x.hlo -", 128);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("x.hlo:12:93: error:"));
  EXPECT_THAT(r.out, HasSubstr("replica_groups={{0,1},{2,3},{4,0}}"));
}

TEST(StdinStreamTest, JsonFromAPipeStopsAtTheJsonLimit) {
  const CliResult r =
      RunPiped("printf '{\"a\": \"'; head -c 70000000 /dev/zero | tr '\\0' x",
               "check --stdin-filename def.json -", 256);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("the limit for JSON inputs is 67108864 bytes"));
}

}  // namespace
}  // namespace topolint::testing
