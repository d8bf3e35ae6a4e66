#include "checker/hlo/mapped_file.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace topolint::hlo {
namespace {

// Mappings the handler knows of at once (one per -j thread in practice);
// Map declines past it and the caller reads instead.
constexpr int kSlots = 64;
// DropBefore gives pages back in steps of at least this many bytes.
constexpr size_t kDropStep = size_t{1} << 20;

// One live mapping, as the handler sees it: [begin, end), whole pages.
// `begin` is published last and cleared first, so the handler never sees
// a range being set up or torn down.
struct Slot {
  std::atomic<bool> used{false};
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<bool> truncated{false};
};

Slot g_slots[kSlots];
std::atomic<bool> g_enabled{false};
// The page size, read before the handler is installed (sysconf is not
// async-signal-safe).
uintptr_t g_page = 4096;
std::once_flag g_install_once;
struct sigaction g_previous;

// Async-signal-safe: atomics and mmap only.
void OnSigbus(int /*sig*/, siginfo_t* info, void* /*context*/) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  const uintptr_t page = g_page;
  for (Slot& s : g_slots) {
    const uintptr_t begin = s.begin.load(std::memory_order_acquire);
    if (begin == 0 || addr < begin) continue;
    const uintptr_t end = s.end.load(std::memory_order_acquire);
    if (addr >= end) continue;
    // The file lost this page and everything after it (a file only ever
    // shrinks from its end): zeros from here to the end of the mapping.
    const uintptr_t from = addr & ~(page - 1);
    void* zeros =
        mmap(reinterpret_cast<void*>(from), end - from, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros == MAP_FAILED) break;
    s.truncated.store(true, std::memory_order_release);
    return;  // the access is retried and reads a zero
  }
  // Not one of ours: the previous action takes the fault when the access
  // is retried.
  sigaction(SIGBUS, &g_previous, nullptr);
}

void InstallHandler() {
  g_page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  struct sigaction action = {};
  action.sa_sigaction = OnSigbus;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, &g_previous);
}

}  // namespace

void EnableFileMapping() { g_enabled.store(true); }

bool FileMappingEnabled() { return g_enabled.load(); }

bool MappedFile::Map(int fd, size_t size) {
  if (!FileMappingEnabled() || size == 0 || data_ != nullptr) return false;
  int slot = -1;
  for (int i = 0; i < kSlots && slot < 0; ++i) {
    bool expected = false;
    if (g_slots[i].used.compare_exchange_strong(expected, true)) slot = i;
  }
  if (slot < 0) return false;
  std::call_once(g_install_once, InstallHandler);
  void* at = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (at == MAP_FAILED) {
    g_slots[slot].used.store(false);
    return false;
  }
  const size_t page = g_page;
  const auto begin = reinterpret_cast<uintptr_t>(at);
  Slot& s = g_slots[slot];
  s.truncated.store(false);
  s.end.store(begin + (size + page - 1) / page * page,
              std::memory_order_release);
  s.begin.store(begin, std::memory_order_release);
  data_ = static_cast<char*>(at);
  size_ = size;
  slot_ = slot;
  return true;
}

MappedFile::~MappedFile() {
  if (data_ == nullptr) return;
  Slot& s = g_slots[slot_];
  s.begin.store(0, std::memory_order_release);
  munmap(data_, size_);
  s.end.store(0);
  s.used.store(false);
}

bool MappedFile::truncated() const {
  return data_ != nullptr &&
         g_slots[slot_].truncated.load(std::memory_order_acquire);
}

void MappedFile::DropBefore(size_t offset) {
  if (data_ == nullptr) return;
  const size_t upto = offset / g_page * g_page;
  if (upto < dropped_ + kDropStep) return;
  madvise(data_ + dropped_, upto - dropped_, MADV_DONTNEED);
  dropped_ = upto;
}

}  // namespace topolint::hlo
