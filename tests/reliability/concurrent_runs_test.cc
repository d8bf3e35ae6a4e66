// Hardening classes of issue 27: two runs writing the same `-o` or
// `--write-baseline` at once leave one whole, valid file (each stages its
// own temporary and renames it into place); a run under `ulimit -n 16` or a
// 256 KiB stack ends with a report or a clean message, never a signal.
#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"
#include "tests/reliability/environment_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kFailing[] =
    "fixtures/hlo-duplicate-device-id/fail-repeated-replica";

int Shell(const std::string& cmd) {
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(ConcurrentRunsTest, TwoWritersOfOneOutputLeaveOneWholeFile) {
  TempDir dir;
  const std::string bin = ShellQuote(TOPOLINT_BINARY);
  // Two inputs of different reports, so that a mix of the two would show.
  dir.Write("a/model.hlo", ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/" +
                                   kFailing + "/model.hlo"));
  dir.Write("b/model.hlo", ManyDuplicateIdOps(200));
  for (int round = 0; round < 8; ++round) {
    const std::string run = bin + " check --format json -o out.json " +
                            "--write-baseline base.json --quiet ";
    const int rc = Shell("cd " + ShellQuote(dir.path()) + " && (" + run +
                         "a & " + run + "b & wait)");
    ASSERT_LT(rc, 128) << "round " << round;
    for (const char* file : {"out.json", "base.json"}) {
      const std::string text = ReadAll(dir.path() + "/" + file);
      const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
      ASSERT_FALSE(doc.is_discarded()) << file << " round " << round;
      // One run's whole report: all from a/ or all from b/.
      const bool from_a = text.find("a/model.hlo") != std::string::npos;
      const bool from_b = text.find("b/model.hlo") != std::string::npos;
      EXPECT_NE(from_a, from_b) << file << " round " << round;
    }
    EXPECT_THAT(LeftoverTemporaries(dir.path()), IsEmpty());
  }
}

TEST(ConcurrentRunsTest, FewDescriptorsOrASmallStackEndCleanly) {
  TempDir dir;
  for (int i = 0; i < 40; ++i) {
    dir.Write("t/" + std::to_string(i) + "/model.hlo",
              ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/" + kFailing +
                      "/model.hlo"));
  }
  const std::string bin = ShellQuote(TOPOLINT_BINARY);
  std::vector<std::string> limits = {"ulimit -n 16"};
#ifndef TOPOLINT_TEST_ASAN
  // AddressSanitizer's own frames need more than 256 KiB of stack.
  limits.push_back("ulimit -s 256");
#endif
  for (const std::string& limit : limits) {
    const std::string err = dir.path() + "/err";
    const int rc = Shell(
        "cd " + ShellQuote(dir.path()) + " && sh -c " +
        ShellQuote(limit + "; exec " + bin + " check -j 4 -o report.txt t") +
        " 2>" + ShellQuote(err));
    const std::string message = ReadAll(err);
    EXPECT_TRUE(rc == 1 || rc == 2) << limit << ": exit " << rc << "\n"
                                    << message;
    EXPECT_THAT(message, Not(HasSubstr("terminate called"))) << limit;
    if (rc == 2) {
      EXPECT_THAT(message, HasSubstr("topolint: error: ")) << limit;
    } else {
      EXPECT_THAT(ReadAll(dir.path() + "/report.txt"),
                  HasSubstr("[hlo-duplicate-device-id]"))
          << limit;
    }
  }
}

}  // namespace
}  // namespace topolint::testing
