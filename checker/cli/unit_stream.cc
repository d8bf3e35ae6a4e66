// StreamUnits: units checked -j at a time, outcomes handed on in order.
//
// The calling thread is one of the -j checkers and also the writer: between
// its own units it hands every outcome that is ready, in order, to
// `consume`, so -j 2 runs two threads on two CPUs, not three. A thread is
// woken only when it waits for what another one just did (the writer for
// the next outcome in order, a helper for room in the window), not once per
// unit.
//
// The window: checking may run 2 x -j units ahead of the writer, and up to
// 32 x -j while the outcomes waiting hold less than kLightOutcomeBytes
// together (units with few findings: a compile cache), so that a writer
// taken off its CPU for a moment does not stop the helpers.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/cli/streamed_units.h"
#include "checker/cli/unit_check.h"
#include "checker/cli/unit_jobs.h"
#include "checker/core/worker_thread.h"

namespace topolint::cli {
namespace {

// Units checking may run ahead of the writer: always, and while the
// outcomes waiting are light.
constexpr size_t kAheadPerJob = 2;
constexpr size_t kLightAheadPerJob = 32;
constexpr size_t kLightOutcomeBytes = size_t{1} << 20;
// Units a thread that takes from the source takes for each other thread
// (left pending). A streamed search walks directories to find the next
// unit, one thread at a time; a thread that wants a unit while another
// walks sleeps until that walk is done. On a 20,000-entry compile cache
// with -j 2 (2-core VM, 5 alternating runs): taking 1 unit for the other
// thread per visit, the threads slept ~3,800 times; 8, ~1,150 times and
// -j 2 was 1.70x -j 1; 16, 1.76x.
constexpr size_t kPendingPerJob = 16;

// Roughly what an outcome holds in memory.
size_t OutcomeBytes(const UnitOutcome& o) {
  size_t n = sizeof(UnitOutcome);
  for (const Finding& f : o.findings) {
    n += sizeof(Finding) + f.rule.size() + f.message.size() + f.anchor.size() +
         f.loc.file.size() + f.notes.size() * sizeof(Note);
    for (const Note& note : f.notes) {
      n += note.message.size() + note.loc.file.size();
    }
  }
  for (const auto& [name, text] : o.member_texts) {
    n += name.size() + text.size();
  }
  return n;
}

class OrderedHandoff {
 public:
  OrderedHandoff(StreamedUnits* source, size_t jobs)
      : source_(source),
        jobs_(jobs),
        ahead_(kAheadPerJob * jobs),
        window_(kLightAheadPerJob * jobs),
        slots_(window_) {}

  // What a helper thread runs: take the next unit while the window has
  // room, check it, leave its outcome in its slot.
  void Help() {
    size_t k;
    const UnitJob* job = nullptr;
    while (Take(&k, &job, /*writer=*/false)) Check(k, job);
  }

  // What the calling thread runs: hand the outcomes to `consume` in order,
  // checking units itself whenever none is ready.
  absl::Status Write(const ConsumeOutcome& consume) {
    for (size_t k = 0;; ++k) {
      Slot taken;
      if (!Await(k, &taken)) return absl::OkStatus();
      if (!taken.status.ok()) return taken.status;
      if (absl::Status st = consume(std::move(taken.outcome), taken.frontier);
          !st.ok()) {
        return st;
      }
    }
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    room_.notify_all();
  }

 private:
  struct Slot {
    bool taken = false;  // the source gave a unit (or an error) for it
    bool ready = false;
    size_t bytes = 0;              // OutcomeBytes
    std::unique_ptr<UnitJob> job;  // freed once checked
    std::optional<std::string> frontier;
    absl::Status status;
    UnitOutcome outcome;
  };

  // Under mu_: a unit may be taken from the source (it may still have one,
  // no other thread is taking one from it, and the window has room).
  bool HasRoom() const {
    if (exhausted_ || taking_) return false;
    if (next_ < consumed_ + ahead_) return true;
    return next_ < consumed_ + window_ && held_bytes_ < kLightOutcomeBytes;
  }

  // With `lock` held (and HasRoom): takes unit next_ from the source into
  // its slot for the caller (*k, *job), then, while the window has room,
  // more left pending for the other threads (up to kPendingPerJob each);
  // false when the source has none for the caller (or failed: the failure
  // is the slot's outcome). The source is asked without mu_ held (a
  // streamed search walks directories meanwhile; the writer and the other
  // checkers go on), by one thread at a time (taking_).
  bool TakeFromSource(std::unique_lock<std::mutex>& lock, size_t* k,
                      const UnitJob** job) {
    bool got = false;
    for (;;) {
      taking_ = true;
      const size_t index = next_;
      std::unique_ptr<UnitJob> taken_job;
      std::optional<std::string> frontier;
      lock.unlock();
      absl::StatusOr<bool> more = source_->Take(&taken_job, &frontier);
      lock.lock();
      taking_ = false;
      bool unit = false;
      if (more.ok() && !*more) {
        exhausted_ = true;
      } else {
        Slot& slot = slots_[index % window_];
        slot.taken = true;
        slot.job = std::move(taken_job);
        slot.frontier = std::move(frontier);
        next_ = index + 1;
        if (!more.ok()) {
          exhausted_ = true;
          slot.status = more.status();
          slot.ready = true;
        } else {
          unit = true;
        }
      }
      if (unit && !got) {
        *k = index;
        *job = slots_[index % window_].job.get();
        got = true;
      } else if (unit) {
        pending_.push_back(index);
      }
      // Room for the others again, a unit for them, or the end (or a
      // failure) is known.
      ready_.notify_all();
      room_.notify_all();
      if (!got || stop_ || pending_.size() >= kPendingPerJob * (jobs_ - 1) ||
          !HasRoom()) {
        return got;
      }
    }
  }

  // With `lock` held: a unit another thread took for this one, if any.
  bool TakePending(size_t* k, const UnitJob** job) {
    if (pending_.empty()) return false;
    *k = pending_.front();
    pending_.pop_front();
    *job = slots_[*k % window_].job.get();
    return true;
  }

  // Takes the next unit to check into *k and *job. A helper waits for one
  // and returns false at the end (or on Stop); the writer never waits here.
  bool Take(size_t* k, const UnitJob** job, bool writer) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!writer) {
      ++helpers_waiting_;
      room_.wait(lock, [&] {
        return stop_ || !pending_.empty() || exhausted_ || HasRoom();
      });
      --helpers_waiting_;
    }
    if (stop_) return false;
    if (TakePending(k, job)) return true;
    if (!HasRoom()) return false;
    return TakeFromSource(lock, k, job);
  }

  void Check(size_t k, const UnitJob* job) {
    UnitOutcome out;
    absl::Status st =
        CheckOneUnit(*job, source_->in_memory(), source_->shared(), &out);
    const size_t bytes = OutcomeBytes(out);
    std::unique_ptr<UnitJob> done;  // freed after the lock is let go
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mu_);
      Slot& slot = slots_[k % window_];
      slot.bytes = bytes;
      held_bytes_ += bytes;
      slot.status = std::move(st);
      slot.outcome = std::move(out);
      done = std::move(slot.job);
      slot.ready = true;
      wake = writer_waiting_ && k == consumed_;
    }
    if (wake) ready_.notify_one();
  }

  // Moves the outcome of unit k (the next in order) into *taken: checks
  // units itself while it is not ready and there is one to check (taken for
  // it, or from the source), else waits for the helper checking it. False
  // when there is no unit k.
  bool Await(size_t k, Slot* taken) {
    for (;;) {
      std::unique_lock<std::mutex> lock(mu_);
      Slot& slot = slots_[k % window_];
      if (!slot.ready) {
        size_t mine;
        const UnitJob* job = nullptr;
        if (TakePending(&mine, &job) ||
            (HasRoom() && TakeFromSource(lock, &mine, &job))) {
          lock.unlock();
          Check(mine, job);
          continue;
        }
        if (!slot.taken && exhausted_) return false;
        // Until unit k is ready, or there is one to check meanwhile.
        writer_waiting_ = true;
        ready_.wait(lock, [&] {
          return slot.ready || (!slot.taken && exhausted_) ||
                 !pending_.empty() || HasRoom();
        });
        writer_waiting_ = false;
        if (!slot.ready) continue;
      }
      held_bytes_ -= slot.bytes;
      *taken = std::move(slot);
      slot = Slot{};
      consumed_ = k + 1;
      const bool wake = helpers_waiting_ > 0;
      lock.unlock();
      if (wake) room_.notify_one();
      return true;
    }
  }

  StreamedUnits* const source_;
  const size_t jobs_;
  const size_t ahead_;   // units checking may always run ahead
  const size_t window_;  // ... and while the outcomes waiting are light

  std::mutex mu_;
  std::condition_variable ready_;  // the writer's next outcome is ready
  std::condition_variable room_;   // the window has room, or Stop
  std::vector<Slot> slots_;        // unit k's outcome in slot k % window
  std::deque<size_t> pending_;     // units taken for a thread, not started
  size_t next_ = 0;                // the next unit to start
  size_t consumed_ = 0;            // outcomes handed to `consume`
  size_t held_bytes_ = 0;          // OutcomeBytes of the ready slots
  int helpers_waiting_ = 0;
  bool writer_waiting_ = false;
  bool exhausted_ = false;  // the source has no more units
  bool taking_ = false;     // a thread is asking the source
  bool stop_ = false;
};

}  // namespace

absl::Status StreamUnits(StreamedUnits* source, int jobs,
                         const ConsumeOutcome& consume) {
  // -j 1 is the writer alone: it takes, checks and hands on one unit at a
  // time, in the order a plain loop would.
  jobs = std::max(jobs, 1);
  OrderedHandoff handoff(source, static_cast<size_t>(jobs));
  // Helpers refused (a pids limit): the writer checks what none takes.
  std::vector<WorkerThread> helpers =
      StartWorkers(jobs - 1, [&handoff] { handoff.Help(); });
  absl::Status result = handoff.Write(consume);
  handoff.Stop();
  for (WorkerThread& t : helpers) t.join();
  return result;
}

}  // namespace topolint::cli
