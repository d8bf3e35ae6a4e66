#include "checker/core/worker_thread.h"

#include <sched.h>

#include <atomic>
#include <cerrno>
#include <memory>
#include <utility>
#include <vector>

namespace topolint {
namespace {

bool g_own_file_tables = false;
std::atomic<size_t> g_refused{0};
std::atomic<int> g_first_refusal{0};
std::atomic<int> g_refuse_for_testing{0};
std::atomic<int> g_refusal_for_testing{EAGAIN};

// What the new thread needs before it runs `work`.
struct Start {
  std::function<void()> work;
  bool own_table = false;
  bool placed = false;  // started on one CPU: widen to `allowed`
  cpu_set_t allowed{};  // the creator's CPU set
};

void* RunWorker(void* arg) {
  std::unique_ptr<Start> start(static_cast<Start*>(arg));
  // Failures here only cost speed: a worker left on its first CPU, or
  // sharing the table as any thread does (EPERM under a seccomp filter).
  if (start->placed) {
    (void)sched_setaffinity(0, sizeof(start->allowed), &start->allowed);
  }
  if (start->own_table) (void)unshare(CLONE_FILES);
  start->work();
  return nullptr;
}

}  // namespace

int PlacementCpu(int index, int here, const cpu_set_t& allowed) {
  if (index < 0 || here < 0 || here >= CPU_SETSIZE ||
      !CPU_ISSET(here, &allowed) || CPU_COUNT(&allowed) < 2) {
    return -1;
  }
  // The (index mod count)-th allowed CPU, counting `here` as the 0th.
  int skip = index % CPU_COUNT(&allowed);
  if (skip == 0) return -1;
  for (int i = 1; i < CPU_SETSIZE; ++i) {
    const int cpu = (here + i) % CPU_SETSIZE;
    if (CPU_ISSET(cpu, &allowed) && --skip == 0) return cpu;
  }
  return -1;  // not reached: `allowed` holds CPU_COUNT CPUs
}

WorkerThread::WorkerThread(WorkerThread&& other) noexcept
    : thread_(other.thread_),
      joinable_(std::exchange(other.joinable_, false)) {}

WorkerThread& WorkerThread::operator=(WorkerThread&& other) noexcept {
  if (this != &other) {
    join();
    thread_ = other.thread_;
    joinable_ = std::exchange(other.joinable_, false);
  }
  return *this;
}

WorkerThread::~WorkerThread() { join(); }

void WorkerThread::join() {
  if (!joinable_) return;
  pthread_join(thread_, nullptr);
  joinable_ = false;
}

void EnableOwnFileTables() { g_own_file_tables = true; }

WorkerRefusals WorkerStartRefusals() {
  return {g_refused.load(), g_first_refusal.load()};
}

void RefuseWorkerStartsForTesting(int n, int error) {
  g_refusal_for_testing.store(error);
  g_refuse_for_testing.store(n);
}

WorkerThread StartWorker(int index, std::function<void()> work) {
  auto start = std::make_unique<Start>();
  start->work = std::move(work);
  start->own_table = g_own_file_tables;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (sched_getaffinity(0, sizeof(start->allowed), &start->allowed) == 0) {
    const int cpu = PlacementCpu(index, sched_getcpu(), start->allowed);
    cpu_set_t place;
    CPU_ZERO(&place);
    if (cpu >= 0) CPU_SET(cpu, &place);
    start->placed = cpu >= 0 && pthread_attr_setaffinity_np(
                                    &attr, sizeof(place), &place) == 0;
  }
  WorkerThread worker;
  int refuse = g_refuse_for_testing.load();
  while (refuse > 0 &&
         !g_refuse_for_testing.compare_exchange_weak(refuse, refuse - 1)) {
  }
  int err = refuse > 0 ? g_refusal_for_testing.load()
                       : pthread_create(&worker.thread_, &attr, &RunWorker,
                                        start.get());
  pthread_attr_destroy(&attr);
  if (err == EINVAL && start->placed) {
    // The CPU it was to start on is gone (taken offline, or out of a
    // cpuset changed meanwhile): started where the kernel puts it.
    start->placed = false;
    err = pthread_create(&worker.thread_, nullptr, &RunWorker, start.get());
  }
  if (err != 0) {
    int none = 0;
    g_first_refusal.compare_exchange_strong(none, err);
    g_refused.fetch_add(1);
    return worker;  // not joinable: the pool's caller does the work
  }
  (void)start.release();  // RunWorker owns it
  worker.joinable_ = true;
  return worker;
}

std::vector<WorkerThread> StartWorkers(int helpers,
                                       const std::function<void()>& work) {
  std::vector<WorkerThread> pool;
  for (int t = 1; t <= helpers; ++t) {
    WorkerThread w = StartWorker(t, work);
    if (w.joinable()) pool.push_back(std::move(w));
  }
  return pool;
}

}  // namespace topolint
