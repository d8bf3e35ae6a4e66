// Threads of a -j pool (the directory walk, classification, unit checks).
//
// A worker opens, reads and closes its own files: a compile cache of 2,000
// entries is 8,000 opens and closes. Threads of one process share one
// file-descriptor table, so every open and close takes the table's lock,
// which the other CPU holds a moment before (a cache line moving between
// the CPUs, and on a VM a paravirtual spin lock that may halt the vCPU), and
// every read takes a reference on its file that a process of one thread
// skips. On the 2-CPU VM of docs/performance.md, two threads reading the
// 6,000 files of such a cache took 21.4 ms where two processes took 17.5 ms
// and one thread 29.4 ms.
//
// With EnableOwnFileTables (the CLI calls it: it owns its process), each
// worker first takes a table of its own (Linux unshare(CLONE_FILES)): its
// opens and closes touch no shared lock, and the table the other threads
// keep has one thread fewer. The same 6,000 files then take 17.8 ms.
//
// What a worker opens is therefore not visible to other threads: a worker
// must close what it opens, and hand on data, never descriptors. The copy
// it takes also holds every descriptor open when it starts until it exits
// (at the join, before the pool's caller goes on): a library caller whose
// threads close a pipe or socket during a run would see it stay open for
// the run, which is why the library leaves this off. Where the kernel
// refuses (a seccomp filter without unshare), the worker shares the table.
#ifndef TOPOLINT_CHECKER_CORE_WORKER_THREAD_H_
#define TOPOLINT_CHECKER_CORE_WORKER_THREAD_H_

#include <functional>
#include <thread>

namespace topolint {

// From now on, workers this process starts take a file-descriptor table of
// their own. Call it before starting any worker (it is not synchronised
// with StartWorker).
void EnableOwnFileTables();

// Starts `work` on a new thread: a worker, with its own descriptor table
// when EnableOwnFileTables was called and the kernel allows it.
std::thread StartWorker(std::function<void()> work);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_WORKER_THREAD_H_
