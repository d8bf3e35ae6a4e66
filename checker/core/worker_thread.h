// Threads of a -j pool (the directory walk, classification, unit checks):
// started where they can run at once, and, in the CLI, with descriptor
// tables of their own.
//
// Placement. Linux may queue a new thread on its creator's CPU rather than
// on an idle one (it did on the 2-CPU VM of
// docs/history/performance-diary.md, whose kernel does not balance new
// tasks): while the creator keeps running, the
// worker waits for its time slice to end or for the load balancer, 2 to 4 ms
// in 9 of 12 tries there, against 0.1 to 0.4 ms when it is started on the
// other CPU. A -j 2 run over 2,000 small units starts two workers and lasts
// about 120 ms. So worker `index` starts on the index-th CPU the process
// may use, counted from the one its creator runs on (0: that one, for a
// pool whose creator only waits), and takes back the creator's whole CPU
// set as its first step: placement only decides where it starts. (On a
// loaded machine that CPU may be busy: the worker then waits there for a
// time slice, as it would have on its creator's, and may move once it runs.)
//
// Descriptor tables. A worker opens, reads and closes its own files: a
// compile cache of 2,000 entries is 8,000 opens and closes. Threads of one
// process share one file-descriptor table, so every open and close takes
// the table's lock, which the other CPU held a moment before (on a VM a
// paravirtual spin lock that may halt the vCPU), and every read takes a
// file reference a process of one thread skips. There, two threads reading
// the 6,000 files of such a cache took 21.4 ms where two processes took
// 17.5 ms (one thread: 29.4 ms). With EnableOwnFileTables (the CLI calls it:
// it owns its process), each worker first takes a table of its own (Linux
// unshare(CLONE_FILES)), and the same files take 17.8 ms.
//
// What a worker opens is then not visible to other threads: a worker must
// close what it opens and hand on data, never descriptors. The copy it takes
// also holds every descriptor open when it starts until it exits (at the
// join, before the pool's caller goes on): a library caller whose threads
// close a pipe or socket during a run would see it stay open for the run,
// which is why the library leaves this off. Where the kernel refuses (a
// seccomp filter without unshare), the worker shares the table.
#ifndef TOPOLINT_CHECKER_CORE_WORKER_THREAD_H_
#define TOPOLINT_CHECKER_CORE_WORKER_THREAD_H_

#include <pthread.h>
#include <sched.h>

#include <cerrno>
#include <cstddef>
#include <functional>
#include <vector>

namespace topolint {

// A started worker. Movable, not copyable; the destructor joins one that
// was not joined.
class WorkerThread {
 public:
  WorkerThread() = default;
  WorkerThread(WorkerThread&& other) noexcept;
  WorkerThread& operator=(WorkerThread&& other) noexcept;
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;
  ~WorkerThread();

  bool joinable() const { return joinable_; }
  // Waits for the worker's function to return.
  void join();

 private:
  friend WorkerThread StartWorker(int index, std::function<void()> work);
  pthread_t thread_{};
  bool joinable_ = false;
};

// From now on, workers this process starts take a file-descriptor table of
// their own. Call it before starting any worker (it is not synchronised
// with StartWorker).
void EnableOwnFileTables();

// Starts `work` on a new thread, on the CPU `index` places it on (above),
// with its own descriptor table when EnableOwnFileTables was called and the
// kernel allows it. When no thread can be started (EAGAIN under a pids
// limit of a container or a CI runner, RLIMIT_NPROC), returns a worker that
// is not joinable and has not run `work`, and counts the refusal
// (WorkerStartRefusals): every pool then does the work with the threads it
// has, its caller among them, and the results are the same.
WorkerThread StartWorker(int index, std::function<void()> work);

// The helpers of a pool whose calling thread works too: workers 1 to
// `helpers` running `work`, those the system refused left out.
std::vector<WorkerThread> StartWorkers(int helpers,
                                       const std::function<void()>& work);

// Worker starts refused so far in this process, and the error of the first
// (0 when none was refused). The CLI warns once a run that -j ran with
// fewer threads.
struct WorkerRefusals {
  size_t count = 0;
  int first_error = 0;
};
WorkerRefusals WorkerStartRefusals();

// For tests: the next `n` StartWorker calls fail first with `error`
// (EAGAIN: as a pids limit refuses them; EINVAL: as when the CPU a worker
// was placed on went away, which StartWorker retries without placement).
void RefuseWorkerStartsForTesting(int n, int error = EAGAIN);

// Where StartWorker starts worker `index` when its creator runs on CPU
// `here` and may use the CPUs `allowed`: the index-th of `allowed` counted
// cyclically from `here`, or -1 for wherever the kernel puts it (the
// creator's own CPU, or nothing to choose from).
int PlacementCpu(int index, int here, const cpu_set_t& allowed);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_WORKER_THREAD_H_
