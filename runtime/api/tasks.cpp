// Pure Tasks: the entry points of the C++ layer (pure.hpp) and the flat C
// API (pure.h), both thin over sched::Scheduler. The calling thread's
// scheduler state comes from the runtime's one thread_local (Rank).
#include <stdexcept>
#include <string>

#include "api/call.h"
#include "pure/pure.hpp"
#include "sched/scheduler.h"

using namespace pure;
using namespace pure::api;

namespace pure::detail {

void execute_task(ChunkRunner run, const void* body, chunk_id_t chunks, void* args,
                  bool has_args) {
  sched::Worker* worker = Rank::current_worker();
  if (!worker)
    throw std::logic_error(
        "PureTask::execute: called from a thread that is neither a Pure rank nor a helper");
  worker->scheduler().execute(*worker, sched::TaskBody{run, body, args, has_args}, chunks);
}

chunk_id_t running_task_chunks() {
  sched::Worker* worker = Rank::current_worker();
  if (!worker || !worker->in_chunk())
    throw std::logic_error(
        "pure_idx_range / pure_aligned_idx_range without a chunk count: called outside a task "
        "chunk");
  return worker->running_chunks();
}

}  // namespace pure::detail

namespace pure {

TaskStats task_stats() {
  Rank* rank = Rank::current();
  if (!rank) throw std::logic_error("pure::task_stats: called outside a Pure rank thread");
  return task_stats(rank->index());
}

TaskStats task_stats(int rank) {
  Rank* self = Rank::current();
  if (!self) throw std::logic_error("pure::task_stats: called outside a Pure rank thread");
  sched::Scheduler& scheduler = self->process().scheduler();
  if (rank == PURE_TASK_HELPERS) return scheduler.helper_stats();
  if (rank < 0 || rank >= scheduler.ranks())
    throw std::logic_error("pure::task_stats: rank " + std::to_string(rank) +
                           " is not a rank of this process");
  return scheduler.worker(rank).stats();
}

}  // namespace pure

namespace {

// A C task: the function pointer and its context, run by a ChunkRunner.
struct CTask {
  PURE_Task_function* fn;
  void* context;
};

void run_c_task(const void* body, chunk_id_t start, chunk_id_t end, void* args, bool) {
  const CTask& task = *static_cast<const CTask*>(body);
  task.fn(start, end, args, task.context);
}

int idx_range(std::int64_t n, std::int64_t grain, PURE_Chunk_id start, PURE_Chunk_id end,
              std::int64_t* lo, std::int64_t* hi) {
  sched::Worker* worker = Rank::current_worker();
  if (!worker || !worker->in_chunk()) return PURE_ERR_OTHER;
  if (!lo || !hi) return PURE_ERR_ARG;
  try {
    const auto range = chunk_idx_range(n, grain, start, end, worker->running_chunks());
    *lo = range.first;
    *hi = range.second;
  } catch (const std::out_of_range&) {
    return PURE_ERR_ARG;
  }
  return PURE_SUCCESS;
}

}  // namespace

extern "C" {

int pure_task_execute(PURE_Task_function* fn, void* context, PURE_Chunk_id chunks, void* args) {
  sched::Worker* worker = Rank::current_worker();
  CTask task{fn, context};
  const sched::TaskBody body{&run_c_task, &task, args, true};
  if (worker && !worker->rank()) {
    // A helper thread, inside a chunk: serial, and no rank to report to.
    if (!fn) return PURE_ERR_ARG;
    worker->scheduler().execute(*worker, body, chunks);
    return PURE_SUCCESS;
  }
  return call("pure_task_execute", [&](Call& c) {
    if (!fn) fail(PURE_ERR_ARG, "null task function");
    c.rank.process().scheduler().execute(*worker, body, chunks);
  });
}

int pure_task_idx_range(int64_t n, PURE_Chunk_id start, PURE_Chunk_id end, int64_t* lo,
                        int64_t* hi) {
  return idx_range(n, 1, start, end, lo, hi);
}

int pure_task_aligned_idx_range(int64_t n, size_t elem_size, PURE_Chunk_id start,
                                PURE_Chunk_id end, int64_t* lo, int64_t* hi) {
  if (elem_size == 0) return PURE_ERR_ARG;
  const std::int64_t grain =
      static_cast<std::int64_t>(kCacheLineBytes / std::gcd(kCacheLineBytes, elem_size));
  return idx_range(n, grain, start, end, lo, hi);
}

int pure_task_get_stats(int rank, PURE_Task_stats* stats) {
  return call("pure_task_get_stats", [&](Call& c) {
    if (!stats) fail(PURE_ERR_ARG, "null stats pointer");
    sched::Scheduler& scheduler = c.rank.process().scheduler();
    if (rank == PURE_TASK_HELPERS) {
      *stats = scheduler.helper_stats();
    } else {
      if (rank < 0 || rank >= scheduler.ranks())
        fail(PURE_ERR_RANK, "invalid rank %d (this process has ranks 0 to %d)", rank,
             scheduler.ranks() - 1);
      *stats = scheduler.worker(rank).stats();
    }
  });
}

}  // extern "C"
