// Task: one execution of a Pure Task as the active-task table publishes it.
//
// It lives on the owner's stack for the duration of Scheduler::execute. The
// owner and thieves claim runs of chunk ids from `next_` (the chunk policy
// decides how many per claim), run them, and add them to `done_`; the owner
// returns once `done_` reaches the chunk count and no thief still holds a
// pointer to the task (Scheduler, the slot's pin count).
//
// Memory orders: the body, the arguments and the chunk count are written
// before the task is published (seq_cst store of the slot) and only read
// afterwards, so a thief that loaded the pointer sees them. Claims are
// relaxed: `next_` hands out ids, it protects no data. `done_` is counted with
// release after a chunk ran, and the owner reads it with acquire, so
// everything a chunk wrote, and the first error, is visible to the owner when
// execute returns.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>

#include "base/cpu.h"
#include "pure/pure.hpp"
#include "pure/run.hpp"

namespace pure::sched {

class Worker;

// What execute was asked to run, type-erased: `run(body, start, end, args,
// has_args)` runs chunks [start, end].
struct TaskBody {
  detail::ChunkRunner run;
  const void* body;
  void* args;
  bool has_args;
};

class Task {
 public:
  // `workers`: how many threads may work on it (guided self-scheduling
  // divides what is left by it).
  Task(const TaskBody& body, std::int64_t chunks, std::int64_t workers, ChunkPolicy policy)
      : body_(body), chunks_(chunks), workers_(workers < 1 ? 1 : workers), policy_(policy) {}
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  std::int64_t chunks() const { return chunks_; }

  // Claims the next run [*start, *end] of chunk ids: one id under the single
  // policy, ceil(remaining / workers) ids under guided self-scheduling.
  // False once every id has been handed out. Any thread.
  bool claim(std::int64_t* start, std::int64_t* end) {
    if (policy_ == ChunkPolicy::single) {
      const std::int64_t c = next_.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks_) return false;
      *start = *end = c;
      return true;
    }
    std::int64_t c = next_.load(std::memory_order_relaxed);
    for (;;) {
      if (c >= chunks_) return false;
      const std::int64_t take = (chunks_ - c + workers_ - 1) / workers_;
      if (next_.compare_exchange_weak(c, c + take, std::memory_order_relaxed)) {
        *start = c;
        *end = c + take - 1;
        return true;
      }
    }
  }

  // Runs claimed chunks [start, end] on the calling thread as `worker`
  // (skipped once some chunk has failed), then counts them done. Returns
  // whether the body ran. Exceptions are kept, the first one wins.
  bool run(Worker& worker, std::int64_t start, std::int64_t end);

  // Stops the task: chunks not yet run are skipped and `error` is what the
  // owner rethrows, unless an earlier chunk failed first.
  void fail(std::exception_ptr error);

  // Every chunk completed (acquire: pairs with the release in run()).
  bool finished() const { return done_.load(std::memory_order_acquire) == chunks_; }

  // The first exception a chunk threw; read by the owner once finished().
  std::exception_ptr error() const { return error_; }

  // Tracing (PURE_TRACE): the owner's number for this task and when it
  // began, for the arrow from the task to each stolen chunk. Set by the
  // owner before publishing (seq_cst store of the slot), read by thieves.
  std::uint64_t trace_id = 0;
  std::uint64_t trace_begin = 0;

 private:
  const TaskBody body_;
  const std::int64_t chunks_;
  const std::int64_t workers_;
  const ChunkPolicy policy_;
  // Claimed by everyone; its own line so that claims do not slow the reads
  // of the fields above.
  alignas(kCacheLine) std::atomic<std::int64_t> next_{0};
  alignas(kCacheLine) std::atomic<std::int64_t> done_{0};
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;  // written once, by whoever set failed_ first
};

}  // namespace pure::sched
