#include "checker/core/worker_thread.h"

#include <utility>

#if defined(__linux__)
#include <sched.h>
#endif

namespace topolint {
namespace {

bool g_own_file_tables = false;

}  // namespace

void EnableOwnFileTables() { g_own_file_tables = true; }

std::thread StartWorker(std::function<void()> work) {
  const bool own_table = g_own_file_tables;
  return std::thread([own_table, work = std::move(work)] {
#if defined(__linux__)
    // A refusal (EPERM under a seccomp filter, ENOMEM) only costs speed:
    // the worker shares the table as any thread does.
    if (own_table) (void)::unshare(CLONE_FILES);
#else
    (void)own_table;
#endif
    work();
  });
}

}  // namespace topolint
