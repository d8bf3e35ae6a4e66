// A process limit that refuses threads (a pids cgroup: a container's or a CI
// runner's --pids-limit): `-j` runs with the threads it gets, the report is
// the same, and a warning says so. Needs a pids cgroup it may create (root;
// cgroup v1, or v2 with the pids controller enabled for the root's
// children); skipped elsewhere.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reliability/environment_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Runs `$TL args` in a pids cgroup of at most `max_pids` tasks (the shell
// that execs topolint counts as one). Exit code 77: no such cgroup here.
CliResult RunWithPidsLimit(const std::string& args, int max_pids) {
  return RunShell(
      "cg=''\n"
      "if [ -d /sys/fs/cgroup/pids ]; then\n"
      "  cg=/sys/fs/cgroup/pids/topolint-test-$$\n"
      // cgroup v2: only where the pids controller is already delegated to
      // the root's children (the test changes no system setting).
      "elif grep -qw pids /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; "
      "then\n"
      "  cg=/sys/fs/cgroup/topolint-test-$$\n"
      "fi\n"
      "[ -n \"$cg\" ] && mkdir \"$cg\" 2>/dev/null || exit 77\n"
      "if ! echo " +
      std::to_string(max_pids) +
      " > \"$cg/pids.max\" 2>/dev/null; then rmdir \"$cg\"; exit 77; fi\n"
      // LeakSanitizer needs a thread of its own at exit, which the limit
      // refuses too (a sanitizer build's limitation, not topolint's).
      "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\"\n"
      "(echo $BASHPID > \"$cg/cgroup.procs\" && exec \"$TL\" " +
      args +
      ")\n"
      "rc=$?\n"
      "rmdir \"$cg\" 2>/dev/null\n"
      "exit $rc\n");
}

TEST(ThreadLimitTest, RefusedWorkersGiveTheSameReportAndAWarning) {
  const std::string args = "check -j 4 fixtures/";
  CliResult limited = RunWithPidsLimit(args, 1);
  if (limited.exit_code == 77) {
    GTEST_SKIP() << "no pids cgroup can be made here";
  }
  CliResult free = RunShell("\"$TL\" " + args);
  EXPECT_EQ(limited.exit_code, free.exit_code) << limited.err;
  EXPECT_EQ(limited.out, free.out);
  EXPECT_THAT(limited.err, HasSubstr("topolint: warning: -j 4: "));
  EXPECT_THAT(limited.err, HasSubstr("worker thread starts refused"));
  EXPECT_THAT(limited.err, Not(HasSubstr("terminate called")));
  EXPECT_THAT(free.err, Not(HasSubstr("refused")));

  // One thread allowed besides the main one: some start, some do not.
  CliResult some = RunWithPidsLimit(args, 2);
  ASSERT_NE(some.exit_code, 77);
  EXPECT_EQ(some.exit_code, free.exit_code) << some.err;
  EXPECT_EQ(some.out, free.out);

  // A clean run stays clean: exit 0, the same summary.
  CliResult clean = RunWithPidsLimit("check -j 4 fixtures/layouts/xla-dump", 1);
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_THAT(clean.err, HasSubstr("topolint: no findings (3 units"));
  EXPECT_THAT(clean.err, HasSubstr("worker thread starts refused"));
  for (const CliResult* r : {&limited, &some, &clean}) {
    EXPECT_THAT(r->err, Not(HasSubstr("Sanitizer")));
  }

  // --quiet keeps quiet about it, as about the other warnings.
  CliResult quiet = RunWithPidsLimit("check -q -j 4 fixtures/", 1);
  EXPECT_EQ(quiet.out, free.out);
  EXPECT_THAT(quiet.err, Not(HasSubstr("refused")));
}

}  // namespace
}  // namespace topolint::testing
