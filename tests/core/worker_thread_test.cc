// Workers of a -j pool (checker/core/worker_thread.h): where they start,
// that they end up free to run on every CPU their creator may use; with own
// descriptor tables enabled, what a worker opens stays its own, what the
// process had open stays usable, and the walk lists the same things with
// any -j.
//
// EnableOwnFileTables cannot be undone: the test that shows the shared
// table comes first in the one test that enables it (ctest runs every test
// in a process of its own; a whole-binary run runs them in this order).
#include "checker/core/worker_thread.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "checker/core/dir_entries.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using testing::TempDir;

bool IsOpenHere(int fd) { return fcntl(fd, F_GETFD) != -1; }

// Whether a thread may take a table of its own here (a seccomp filter
// without unshare says EPERM).
bool KernelGivesOwnTables() {
  bool given = false;
  std::thread([&] { given = unshare(CLONE_FILES) == 0; }).join();
  return given;
}

// Opens `path` on a new worker and returns the descriptor it got, left open.
int OpenOnWorker(const std::string& path) {
  int fd = -1;
  StartWorker(1, [&] { fd = open(path.c_str(), O_RDONLY | O_CLOEXEC); }).join();
  return fd;
}

cpu_set_t Cpus(std::initializer_list<int> cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  return set;
}

TEST(WorkerThreadTest, WorkersStartOnTheNextCpusFromTheCreators) {
  const cpu_set_t two = Cpus({0, 1});
  EXPECT_EQ(PlacementCpu(0, 0, two), -1);  // the creator's own: no choice
  EXPECT_EQ(PlacementCpu(1, 0, two), 1);
  EXPECT_EQ(PlacementCpu(2, 0, two), -1);
  EXPECT_EQ(PlacementCpu(3, 0, two), 1);
  EXPECT_EQ(PlacementCpu(1, 1, two), 0);

  // Counted cyclically from the creator's CPU, within the set it may use.
  const cpu_set_t some = Cpus({2, 5, 7});
  EXPECT_EQ(PlacementCpu(1, 5, some), 7);
  EXPECT_EQ(PlacementCpu(2, 5, some), 2);
  EXPECT_EQ(PlacementCpu(3, 5, some), -1);
  EXPECT_EQ(PlacementCpu(4, 5, some), 7);
  EXPECT_EQ(PlacementCpu(1, 7, some), 2);

  // Nothing to choose, or nothing known: wherever the kernel puts it.
  EXPECT_EQ(PlacementCpu(1, 3, Cpus({3})), -1);
  EXPECT_EQ(PlacementCpu(1, 4, some), -1);  // creator outside its own set
  EXPECT_EQ(PlacementCpu(1, -1, two), -1);  // sched_getcpu failed
  EXPECT_EQ(PlacementCpu(-1, 0, two), -1);
}

TEST(WorkerThreadTest, PlacedWorkersRunWhereTheirCreatorMay) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof(mine), &mine), 0);
  for (int index : {0, 1, 2, 3}) {
    cpu_set_t theirs;
    CPU_ZERO(&theirs);
    bool ran = false;
    StartWorker(index, [&] {
      ran = true;
      EXPECT_EQ(sched_getaffinity(0, sizeof(theirs), &theirs), 0);
    }).join();
    EXPECT_TRUE(ran);
    EXPECT_TRUE(CPU_EQUAL(&theirs, &mine)) << "worker " << index;
  }
}

TEST(WorkerThreadTest, ARefusedStartRunsNothingAndIsCounted) {
  const WorkerRefusals before = WorkerStartRefusals();
  RefuseWorkerStartsForTesting(1);
  bool ran = false;
  WorkerThread refused = StartWorker(1, [&] { ran = true; });
  EXPECT_FALSE(refused.joinable());
  refused.join();  // nothing to wait for
  EXPECT_FALSE(ran);
  const WorkerRefusals after = WorkerStartRefusals();
  EXPECT_EQ(after.count, before.count + 1);
  EXPECT_NE(after.first_error, 0);
  // The next one starts.
  StartWorker(1, [&] { ran = true; }).join();
  EXPECT_TRUE(ran);
  EXPECT_EQ(WorkerStartRefusals().count, after.count);
}

TEST(WorkerThreadTest, APlacementRefusedIsRetriedUnplaced) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof(mine), &mine), 0);
  if (CPU_COUNT(&mine) < 2) GTEST_SKIP() << "one CPU: nothing is placed";
  const size_t refused = WorkerStartRefusals().count;
  RefuseWorkerStartsForTesting(1, EINVAL);
  bool ran = false;
  WorkerThread w = StartWorker(1, [&] { ran = true; });
  EXPECT_TRUE(w.joinable());
  w.join();
  EXPECT_TRUE(ran);
  EXPECT_EQ(WorkerStartRefusals().count, refused);
}

TEST(WorkerThreadTest, OwnTablesKeepWhatAWorkerOpensToItself) {
  TempDir d;
  const std::string file = d.Write("f.txt", "abc");

  // Before: a worker shares the process's table, as any thread does.
  const int shared = OpenOnWorker(file);
  ASSERT_GE(shared, 0);
  EXPECT_TRUE(IsOpenHere(shared));
  close(shared);

  EnableOwnFileTables();

  // What a worker opens (and leaves open) is not in the table here: its
  // table went with it. Where the kernel refuses a table of its own (a
  // seccomp filter: EPERM), the worker shares this one, as before.
  const int own = OpenOnWorker(file);
  ASSERT_GE(own, 0);
  if (KernelGivesOwnTables()) {
    EXPECT_FALSE(IsOpenHere(own)) << own;
  } else {
    EXPECT_TRUE(IsOpenHere(own)) << own;
    close(own);
  }

  // What was open when the worker started is open on it too, and its
  // closing that copy leaves this thread's descriptor open.
  const int mine = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(mine, 0);
  bool readable = false;
  StartWorker(1, [&] {
    char c = 0;
    readable = pread(mine, &c, 1, 0) == 1 && c == 'a';
    close(mine);
  }).join();
  EXPECT_TRUE(readable);
  char c = 0;
  EXPECT_EQ(pread(mine, &c, 1, 2), 1);
  EXPECT_EQ(c, 'c');
  close(mine);
}

}  // namespace
}  // namespace topolint
